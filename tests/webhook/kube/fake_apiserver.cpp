// SPDX-License-Identifier: Apache-2.0
#include "fake_apiserver.hpp"

#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509v3.h>
#include <sys/socket.h>

#include <algorithm>
#include <deque>
#include <set>
#include <stdexcept>

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl/context.hpp>
#include <boost/asio/ssl/stream.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/http/chunk_encode.hpp>
#include <boost/beast/http/empty_body.hpp>
#include <boost/beast/http/read.hpp>
#include <boost/beast/http/string_body.hpp>
#include <boost/beast/http/write.hpp>
#include <rapidjson/document.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include "certs/certs.hpp"

namespace kpw::test {

namespace net = boost::asio;
namespace ssl = net::ssl;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = net::ip::tcp;
using namespace std::chrono_literals;

namespace {

std::string json_string(const std::string& s)
{
    rapidjson::StringBuffer b;
    rapidjson::Writer<rapidjson::StringBuffer> w(b);
    w.String(s.c_str(), static_cast<rapidjson::SizeType>(s.size()));
    return b.GetString();
}

std::string status_body(unsigned code, const std::string& reason, const std::string& message)
{
    return R"({"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":)" + json_string(message) +
           R"(,"reason":")" + reason + R"(","code":)" + std::to_string(code) + "}";
}

std::string percent_decode(std::string_view s)
{
    std::string out;
    for (std::size_t i = 0; i < s.size(); ++i) {
        if (s[i] == '%' && i + 2 < s.size()) {
            out += static_cast<char>(std::stoi(std::string(s.substr(i + 1, 2)), nullptr, 16));
            i += 2;
        } else
            out += s[i] == '+' ? ' ' : s[i];
    }
    return out;
}

std::vector<std::string> split(std::string_view s, char sep)
{
    std::vector<std::string> out;
    for (std::size_t start = 0;;) {
        const auto end = s.find(sep, start);
        out.emplace_back(s.substr(start, end - start));
        if (end == std::string_view::npos)
            return out;
        start = end + 1;
    }
}

// metadata.<field> of an object's JSON text.
std::string metadata_field(const rapidjson::Document& d, const char* field)
{
    if (!d.IsObject() || !d.HasMember("metadata") || !d["metadata"].IsObject())
        return {};
    const auto& m = d["metadata"];
    return m.HasMember(field) && m[field].IsString() ? m[field].GetString() : "";
}

std::string event_line(const char* type, const std::string& object)
{
    return std::string(R"({"type":")") + type + R"(","object":)" + object + "}\n";
}

} // namespace

struct fake_apiserver::collection {
    fake_resource def;
    std::map<std::string, std::string> objects; // "ns/name" or "name" -> JSON text
};

struct fake_apiserver::watcher {
    std::string resource, namespace_;
    std::deque<std::string> lines;
    bool broken = false, mid_event = false, ended = false;
};

struct fake_apiserver::conn {
    int fd = -1;
    bool done = false;     // under mutex_
    std::string client_cn; // of the client certificate presented in the handshake
};

struct fake_apiserver::net_state {
    net::io_context ioc;
    std::unique_ptr<tcp::acceptor> acceptor;
    std::unique_ptr<ssl::context> ctx;
};

fake_apiserver::fake_apiserver() : fake_apiserver(options{}) {}

fake_apiserver::fake_apiserver(options o) : options_(std::move(o)), port_(options_.port), net_(std::make_unique<net_state>())
{
    if (options_.tls && !options_.serving_common_name.empty()) {
        const test_pem ca = make_test_ca();
        const test_pem leaf = issue_test_certificate(ca, options_.serving_common_name, options_.dns_names,
                                                     options_.ip_addresses);
        ca_pem_ = ca.crt;
        crt_pem_ = leaf.crt;
        key_pem_ = leaf.key;
    } else if (options_.tls) {
        certs::serving_options leaf;
        leaf.dns_names = options_.dns_names;
        leaf.ip_addresses = options_.ip_addresses;
        auto b = certs::generate({}, leaf);
        if (!b)
            throw std::runtime_error("fake_apiserver: " + b.error().message);
        ca_pem_ = b->ca_crt;
        crt_pem_ = b->tls_crt;
        key_pem_ = b->tls_key;
    }
    if (options_.tls) {
        net_->ctx = std::make_unique<ssl::context>(ssl::context::tls_server);
        net_->ctx->use_certificate_chain(net::buffer(crt_pem_));
        net_->ctx->use_private_key(net::buffer(key_pem_), ssl::context::pem);
        if (!options_.client_ca_pem.empty()) {
            net_->ctx->add_certificate_authority(net::buffer(options_.client_ca_pem));
            net_->ctx->set_verify_mode(ssl::verify_peer); // asked for, not required
        }
    }
}

fake_apiserver::~fake_apiserver()
{
    stop();
}

std::string fake_apiserver::url() const
{
    return std::string(options_.tls ? "https" : "http") + "://127.0.0.1:" + std::to_string(port_);
}

void fake_apiserver::start()
{
    {
        std::lock_guard lock(mutex_);
        stopping_ = false;
    }
    auto a = std::make_unique<tcp::acceptor>(net_->ioc);
    const tcp::endpoint ep(net::ip::make_address("127.0.0.1"), port_);
    a->open(ep.protocol());
    a->set_option(net::socket_base::reuse_address(true));
    boost::system::error_code ec;
    for (int attempt = 0; attempt < 100; ++attempt) { // a restart may race the kernel releasing the port
        a->bind(ep, ec);
        if (!ec)
            break;
        std::this_thread::sleep_for(20ms);
    }
    if (ec)
        throw std::runtime_error("fake_apiserver: cannot bind 127.0.0.1:" + std::to_string(port_) + ": " + ec.message());
    a->listen();
    port_ = a->local_endpoint().port();
    net_->acceptor = std::move(a);
    acceptor_ = std::thread([this] { accept_loop(); });
}

void fake_apiserver::stop()
{
    {
        std::lock_guard lock(mutex_);
        if (!net_->acceptor)
            return;
        stopping_ = true;
        for (auto& c : conns_)
            if (!c->done)
                ::shutdown(c->fd, SHUT_RDWR);
    }
    changed_.notify_all();
    ::shutdown(net_->acceptor->native_handle(), SHUT_RDWR);
    acceptor_.join();
    for (auto& t : threads_)
        t.join();
    threads_.clear();
    std::lock_guard lock(mutex_);
    conns_.clear();
    watchers_.clear();
    boost::system::error_code ignored;
    net_->acceptor->close(ignored);
    net_->acceptor.reset();
}

void fake_apiserver::accept_loop()
{
    for (;;) {
        tcp::socket socket(net_->ioc);
        boost::system::error_code ec;
        net_->acceptor->accept(socket, ec);
        std::lock_guard lock(mutex_);
        if (ec || stopping_)
            return;
        ++accepted_;
        auto c = std::make_shared<conn>();
        c->fd = socket.native_handle();
        conns_.push_back(c);
        threads_.emplace_back([this, c, s = std::make_shared<tcp::socket>(std::move(socket))]() mutable {
            if (options_.tls) {
                ssl::stream<tcp::socket&> stream(*s, *net_->ctx);
                boost::system::error_code hs;
                stream.handshake(ssl::stream_base::server, hs);
                if (X509* peer = SSL_get0_peer_certificate(stream.native_handle())) {
                    char cn[256] = {};
                    X509_NAME_get_text_by_NID(X509_get_subject_name(peer), NID_commonName, cn, sizeof cn);
                    c->client_cn = cn;
                }
                if (!hs)
                    serve(stream, *c);
            } else
                serve(*s, *c);
            std::lock_guard done_lock(mutex_); // stop() shuts down only live sockets: the fd may be reused after this
            c->done = true;
            boost::system::error_code ignored;
            s->close(ignored);
        });
    }
}

template <class Stream>
void fake_apiserver::serve(Stream& stream, conn& c)
{
    beast::flat_buffer buffer;
    for (;;) {
        http::request<http::string_body> req;
        boost::system::error_code ec;
        http::read(stream, buffer, req, ec);
        if (ec)
            return;
        recorded_request r;
        r.method = std::string(req.method_string());
        r.target = std::string(req.target());
        const auto q = r.target.find('?');
        r.path = r.target.substr(0, q);
        if (q != std::string::npos)
            for (const auto& kv : split(std::string_view(r.target).substr(q + 1), '&')) {
                const auto eq = kv.find('=');
                r.query[percent_decode(kv.substr(0, eq))] = eq == std::string::npos ? "" : percent_decode(kv.substr(eq + 1));
            }
        r.user_agent = std::string(req[http::field::user_agent]);
        r.authorization = std::string(req[http::field::authorization]);
        r.accept = std::string(req[http::field::accept]);
        r.client_cn = c.client_cn;
        std::function<void(const recorded_request&)> hook;
        {
            std::lock_guard lock(mutex_);
            requests_.push_back(r);
            hook = hook_;
        }
        if (hook)
            hook(r);
        const reply out = handle(r);
        if (out.stall) {
            std::unique_lock lock(mutex_);
            changed_.wait(lock, [this] { return stopping_; });
            return;
        }
        if (out.watch) {
            serve_watch(stream, c, r, out.resource, out.namespace_);
            return;
        }
        http::response<http::string_body> res{static_cast<http::status>(out.status), 11};
        res.set(http::field::content_type, "application/json");
        res.keep_alive(req.keep_alive());
        res.body() = out.body;
        res.prepare_payload();
        if (out.cut_after < out.body.size()) {
            http::response_serializer<http::string_body> sr(res);
            http::write_header(stream, sr, ec);
            net::write(stream, net::buffer(out.body.data(), out.cut_after), ec);
            return; // closes: the client sees a truncated body
        }
        http::write(stream, res, ec);
        if (ec || !req.keep_alive())
            return;
    }
}

template <class Stream>
void fake_apiserver::serve_watch(Stream& stream, conn& c, const recorded_request& req, const std::string& resource,
                                 const std::string& namespace_)
{
    auto w = std::make_shared<watcher>();
    w->resource = resource;
    w->namespace_ = namespace_;
    {
        std::lock_guard lock(mutex_);
        std::uint64_t from = 0;
        try {
            from = std::stoull(req.query.count("resourceVersion") ? req.query.at("resourceVersion") : "0");
        } catch (const std::exception&) {
        }
        if (from != 0 && from < compacted_)
            w->lines.push_back(event_line("ERROR", status_body(410, "Expired", "too old resource version: " +
                                                                               std::to_string(from) + " (" +
                                                                               std::to_string(compacted_) + ")")));
        else if (from != 0) // the changes since the client's list: none is lost between list and watch
            for (const auto& ch : history_)
                if (ch.resource == resource && ch.rv > from)
                    w->lines.push_back(ch.line);
        w->ended = from != 0 && from < compacted_; // kube-apiserver ends a watch after its ERROR event
        watchers_.push_back(w);
    }
    http::response<http::empty_body> res{http::status::ok, 11};
    res.set(http::field::content_type, "application/json");
    res.chunked(true);
    http::response_serializer<http::empty_body> sr(res);
    boost::system::error_code ec;
    http::write_header(stream, sr, ec);
    while (!ec) {
        std::unique_lock lock(mutex_);
        changed_.wait_for(lock, 100ms, [&] { return stopping_ || w->broken || w->ended || !w->lines.empty(); });
        if (stopping_)
            break;
        char peek = 0;
        if (w->lines.empty() && ::recv(c.fd, &peek, 1, MSG_PEEK | MSG_DONTWAIT) == 0)
            break; // the client went away: this watch is no longer open
        if (w->ended && w->lines.empty()) {
            lock.unlock();
            net::write(stream, http::make_chunk_last(), ec);
            break;
        }
        if (w->broken && w->lines.empty()) {
            lock.unlock();
            if (w->mid_event) // a chunk that promises more than it brings
                net::write(stream, net::buffer(std::string("40\r\n{\"type\":\"ADDED\",\"obj")), ec);
            break;
        }
        std::vector<std::string> lines(w->lines.begin(), w->lines.end());
        w->lines.clear();
        lock.unlock();
        for (const auto& line : lines)
            if (!ec)
                net::write(stream, http::make_chunk(net::buffer(line)), ec);
    }
    std::lock_guard lock(mutex_);
    watchers_.erase(std::remove(watchers_.begin(), watchers_.end(), w), watchers_.end());
}

fake_apiserver::reply fake_apiserver::handle(const recorded_request& req)
{
    std::lock_guard lock(mutex_);
    reply out;
    if (!token_.empty() && req.authorization != "Bearer " + token_)
        return {401, status_body(401, "Unauthorized", "Unauthorized")};
    if (!client_names_.empty() && !client_names_.contains(req.client_cn))
        return {401, status_body(401, "Unauthorized", "Unauthorized")};
    if (auto it = canned_.find(req.path); it != canned_.end())
        return {it->second.status, it->second.body, it->second.cut_after};
    if (std::find(stalled_.begin(), stalled_.end(), req.path) != stalled_.end()) {
        out.stall = true;
        return out;
    }
    auto seg = split(req.path, '/'); // "", "apis", g, v, ...
    std::size_t at = 0;
    if (seg.size() >= 3 && seg[1] == "api")
        at = 3;
    else if (seg.size() >= 4 && seg[1] == "apis")
        at = 4;
    if (at == 0 || seg.size() == at)
        return handle_discovery(req);
    std::string namespace_;
    if (seg.size() >= at + 3 && seg[at] == "namespaces") {
        namespace_ = seg[at + 1];
        at += 2;
    }
    const std::string group = seg[1] == "api" ? "" : seg[2];
    auto c = collections_.find(seg[at]);
    if (c == collections_.end() || c->second->def.group != group)
        return {404, status_body(404, "NotFound", "the server could not find the requested resource")};
    if (auto f = forbidden_.find(seg[at]); f != forbidden_.end())
        return {403, status_body(403, "Forbidden", f->second)};
    if (seg.size() == at + 2) { // get by name
        const std::string key = namespace_.empty() ? seg[at + 1] : namespace_ + "/" + seg[at + 1];
        auto o = c->second->objects.find(key);
        if (o == c->second->objects.end())
            return {404, status_body(404, "NotFound", seg[at] + " \"" + seg[at + 1] + "\" not found")};
        return {200, o->second};
    }
    if (req.query.count("watch") && req.query.at("watch") != "0" && req.query.at("watch") != "false") {
        out.watch = true;
        out.resource = seg[at];
        out.namespace_ = namespace_;
        return out;
    }
    return handle_list(req, *c->second, namespace_);
}

fake_apiserver::reply fake_apiserver::handle_discovery(const recorded_request& req)
{
    if (req.path == "/api")
        return {200, R"({"kind":"APIVersions","versions":["v1"]})"};
    std::set<std::string> group_versions;
    for (const auto& [name, c] : collections_)
        if (!c->def.group.empty())
            group_versions.insert(c->def.group + "/" + c->def.version);
    if (req.path == "/apis") {
        std::string groups;
        for (const auto& gv : group_versions) {
            const auto slash = gv.find('/');
            groups += std::string(groups.empty() ? "" : ",") + R"({"name":")" + gv.substr(0, slash) +
                      R"(","versions":[{"groupVersion":")" + gv + R"(","version":")" + gv.substr(slash + 1) +
                      R"("}],"preferredVersion":{"groupVersion":")" + gv + R"(","version":")" + gv.substr(slash + 1) + R"("}})";
        }
        return {200, R"({"kind":"APIGroupList","apiVersion":"v1","groups":[)" + groups + "]}"};
    }
    const std::string gv = req.path.starts_with("/api/") ? req.path.substr(5) : req.path.substr(6);
    std::string resources;
    for (const auto& [name, c] : collections_) {
        const std::string its = c->def.group.empty() ? c->def.version : c->def.group + "/" + c->def.version;
        if (its != gv)
            continue;
        const std::string ns = c->def.namespaced ? "true" : "false";
        resources += std::string(resources.empty() ? "" : ",") + R"({"name":")" + name + R"(","singularName":"","namespaced":)" +
                     ns + R"(,"kind":")" + c->def.kind + R"(","verbs":["get","list","watch"]},{"name":")" + name +
                     R"(/status","singularName":"","namespaced":)" + ns + R"(,"kind":")" + c->def.kind +
                     R"(","verbs":["get","patch","update"]})";
    }
    if (resources.empty())
        return {404, status_body(404, "NotFound", "the server could not find the requested resource")};
    return {200, R"({"kind":"APIResourceList","apiVersion":"v1","groupVersion":")" + gv + R"(","resources":[)" + resources + "]}"};
}

fake_apiserver::reply fake_apiserver::handle_list(const recorded_request& req, collection& c, const std::string& namespace_)
{
    std::vector<const std::string*> items;
    for (const auto& [key, object] : c.objects)
        if (namespace_.empty() || key.starts_with(namespace_ + "/"))
            items.push_back(&object);
    std::size_t offset = 0, limit = items.size();
    if (req.query.count("limit"))
        limit = std::max<std::size_t>(1, std::stoul(req.query.at("limit")));
    if (req.query.count("continue")) {
        // Tokens: "e<epoch>/o<offset>==" (slashes and '=' make the client escape them).
        const std::string& token = req.query.at("continue");
        std::uint64_t epoch = 0;
        if (std::sscanf(token.c_str(), "e%lu/o%zu==", &epoch, &offset) != 2)
            return {400, status_body(400, "BadRequest", "invalid continue token")};
        if (epoch != token_epoch_)
            return {410, status_body(410, "Expired", "The provided continue parameter is too old to display a "
                                                     "consistent list result. You can start a new list without "
                                                     "the continue parameter.")};
    }
    std::string body = R"({"kind":")" + c.def.kind + R"(List","apiVersion":")" +
                       (c.def.group.empty() ? c.def.version : c.def.group + "/" + c.def.version) +
                       R"(","metadata":{"resourceVersion":")" + std::to_string(rv_) + "\"";
    const std::size_t end = std::min(items.size(), offset + limit);
    if (end < items.size())
        body += R"(,"continue":")" + ("e" + std::to_string(token_epoch_) + "/o" + std::to_string(end) + "==") + "\"";
    body += R"(},"items":[)";
    for (std::size_t i = offset; i < end; ++i)
        body += (i == offset ? "" : ",") + *items[i];
    return {200, body + "]}"};
}

void fake_apiserver::add_resource(const fake_resource& r)
{
    std::lock_guard lock(mutex_);
    auto c = std::make_unique<collection>();
    c->def = r;
    collections_[r.resource] = std::move(c);
}

void fake_apiserver::put(const std::string& resource, const std::string& object_json)
{
    rapidjson::Document d;
    d.Parse(object_json.c_str(), object_json.size());
    if (d.HasParseError() || !d.IsObject() || !d.HasMember("metadata") || !d["metadata"].IsObject())
        throw std::invalid_argument("fake_apiserver::put: not an object with metadata: " + object_json);
    std::lock_guard lock(mutex_);
    auto& c = *collections_.at(resource);
    const std::string rv = std::to_string(++rv_);
    auto& md = d["metadata"];
    md.RemoveMember("resourceVersion");
    md.AddMember("resourceVersion", rapidjson::Value(rv.c_str(), d.GetAllocator()), d.GetAllocator());
    rapidjson::StringBuffer b;
    rapidjson::Writer<rapidjson::StringBuffer> w(b);
    d.Accept(w);
    const std::string ns = metadata_field(d, "namespace"), name = metadata_field(d, "name");
    const std::string key = ns.empty() ? name : ns + "/" + name;
    const bool existed = c.objects.count(key) != 0;
    c.objects[key] = b.GetString();
    record(resource, event_line(existed ? "MODIFIED" : "ADDED", b.GetString()));
}

void fake_apiserver::remove(const std::string& resource, const std::string& namespace_, const std::string& name)
{
    std::lock_guard lock(mutex_);
    auto& c = *collections_.at(resource);
    const std::string key = namespace_.empty() ? name : namespace_ + "/" + name;
    auto it = c.objects.find(key);
    if (it == c.objects.end())
        return;
    rapidjson::Document d;
    d.Parse(it->second.c_str());
    d["metadata"]["resourceVersion"].SetString(std::to_string(++rv_).c_str(), d.GetAllocator());
    rapidjson::StringBuffer b;
    rapidjson::Writer<rapidjson::StringBuffer> w(b);
    d.Accept(w);
    c.objects.erase(it);
    record(resource, event_line("DELETED", b.GetString()));
}

// Called with mutex_ held, after rv_ moved to the change's version.
void fake_apiserver::record(const std::string& resource, const std::string& line)
{
    history_.push_back({resource, rv_, line});
    notify(resource, line);
}

// Called with mutex_ held.
void fake_apiserver::notify(const std::string& resource, const std::string& line)
{
    for (auto& w : watchers_)
        if (w->resource == resource)
            w->lines.push_back(line);
    changed_.notify_all();
}

std::string fake_apiserver::resource_version() const
{
    std::lock_guard lock(mutex_);
    return std::to_string(rv_);
}

void fake_apiserver::send_line(const std::string& resource, const std::string& line)
{
    std::lock_guard lock(mutex_);
    notify(resource, line.ends_with('\n') ? line : line + "\n");
}

void fake_apiserver::send_bookmark(const std::string& resource)
{
    std::lock_guard lock(mutex_);
    notify(resource, event_line("BOOKMARK", R"({"metadata":{"resourceVersion":")" + std::to_string(rv_) + "\"}}"));
}

void fake_apiserver::send_gone(const std::string& resource)
{
    std::lock_guard lock(mutex_);
    notify(resource, event_line("ERROR", status_body(410, "Expired", "too old resource version")));
    for (auto& w : watchers_)
        if (w->resource == resource)
            w->ended = true; // kube-apiserver ends a watch after its ERROR event
}

void fake_apiserver::break_watches(const std::string& resource, bool mid_event)
{
    std::lock_guard lock(mutex_);
    for (auto& w : watchers_)
        if (w->resource == resource) {
            w->broken = true;
            w->mid_event = mid_event;
        }
    changed_.notify_all();
}

void fake_apiserver::end_watches(const std::string& resource)
{
    std::lock_guard lock(mutex_);
    for (auto& w : watchers_)
        if (w->resource == resource)
            w->ended = true;
    changed_.notify_all();
}

void fake_apiserver::compact()
{
    std::lock_guard lock(mutex_);
    compacted_ = rv_;
}

std::size_t fake_apiserver::open_watches() const
{
    std::lock_guard lock(mutex_);
    return watchers_.size();
}

void fake_apiserver::expire_continue_tokens()
{
    std::lock_guard lock(mutex_);
    ++token_epoch_;
}

void fake_apiserver::require_token(const std::string& token)
{
    std::lock_guard lock(mutex_);
    token_ = token;
}

void fake_apiserver::forbid(const std::string& resource, const std::string& message)
{
    std::lock_guard lock(mutex_);
    forbidden_[resource] = message;
}

void fake_apiserver::respond(const std::string& path, const canned_reply& r)
{
    std::lock_guard lock(mutex_);
    canned_[path] = r;
}

void fake_apiserver::stall(const std::string& path)
{
    std::lock_guard lock(mutex_);
    stalled_.push_back(path);
}

void fake_apiserver::on_request(std::function<void(const recorded_request&)> hook)
{
    std::lock_guard lock(mutex_);
    hook_ = std::move(hook);
}

std::vector<recorded_request> fake_apiserver::requests() const
{
    std::lock_guard lock(mutex_);
    return requests_;
}

std::size_t fake_apiserver::connections() const
{
    std::lock_guard lock(mutex_);
    return accepted_;
}

void fake_apiserver::accept_client_names(std::set<std::string> names)
{
    std::lock_guard lock(mutex_);
    client_names_ = std::move(names);
}

bool eventually(const std::function<bool()>& condition, std::chrono::milliseconds timeout)
{
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    while (!condition()) {
        if (std::chrono::steady_clock::now() > deadline)
            return condition();
        std::this_thread::sleep_for(5ms);
    }
    return true;
}

} // namespace kpw::test

namespace kpw::test {

namespace {

template <class T, void (*Free)(T*)>
struct openssl_deleter {
    void operator()(T* p) const { Free(p); }
};
using x509_ptr = std::unique_ptr<X509, openssl_deleter<X509, X509_free>>;
using pkey_ptr = std::unique_ptr<EVP_PKEY, openssl_deleter<EVP_PKEY, EVP_PKEY_free>>;
using bio_ptr = std::unique_ptr<BIO, openssl_deleter<BIO, BIO_free_all>>;

void check(bool ok, const char* step)
{
    if (!ok)
        throw std::runtime_error(std::string("test certificate: ") + step + " failed");
}

std::string bio_text(BIO* b)
{
    char* data = nullptr;
    const long n = BIO_get_mem_data(b, &data);
    return std::string(data, static_cast<std::size_t>(n));
}

test_pem pem_of(X509* cert, EVP_PKEY* key)
{
    bio_ptr c(BIO_new(BIO_s_mem())), k(BIO_new(BIO_s_mem()));
    check(PEM_write_bio_X509(c.get(), cert) == 1 && PEM_write_bio_PrivateKey(k.get(), key, nullptr, nullptr, 0, nullptr, nullptr) == 1,
          "PEM encoding");
    return {bio_text(c.get()), bio_text(k.get())};
}

// A new P-256 key and a v3 certificate for it, valid from an hour ago for a day, subject CN `cn`.
std::pair<x509_ptr, pkey_ptr> new_certificate(const std::string& cn)
{
    pkey_ptr key(EVP_EC_gen("P-256"));
    x509_ptr cert(X509_new());
    check(key && cert, "allocation");
    static std::atomic<long> serial{1};
    check(X509_set_version(cert.get(), X509_VERSION_3) == 1 &&
              ASN1_INTEGER_set(X509_get_serialNumber(cert.get()), serial++) == 1 &&
              X509_gmtime_adj(X509_getm_notBefore(cert.get()), -3600) != nullptr &&
              X509_gmtime_adj(X509_getm_notAfter(cert.get()), 86400) != nullptr &&
              X509_set_pubkey(cert.get(), key.get()) == 1 &&
              X509_NAME_add_entry_by_txt(X509_get_subject_name(cert.get()), "CN", MBSTRING_UTF8,
                                         reinterpret_cast<const unsigned char*>(cn.c_str()), -1, -1, 0) == 1,
          "building the certificate");
    return {std::move(cert), std::move(key)};
}

void add_extension(X509* cert, X509* issuer, int nid, const std::string& value)
{
    X509V3_CTX ctx;
    X509V3_set_ctx_nodb(&ctx);
    X509V3_set_ctx(&ctx, issuer, cert, nullptr, nullptr, 0);
    X509_EXTENSION* ext = X509V3_EXT_conf_nid(nullptr, &ctx, nid, value.c_str());
    check(ext != nullptr && X509_add_ext(cert, ext, -1) == 1, "adding an extension");
    X509_EXTENSION_free(ext);
}

} // namespace

test_pem make_test_ca(const std::string& common_name)
{
    auto [cert, key] = new_certificate(common_name);
    check(X509_set_issuer_name(cert.get(), X509_get_subject_name(cert.get())) == 1, "setting the issuer");
    add_extension(cert.get(), cert.get(), NID_basic_constraints, "critical,CA:TRUE");
    add_extension(cert.get(), cert.get(), NID_key_usage, "critical,keyCertSign,cRLSign,digitalSignature");
    add_extension(cert.get(), cert.get(), NID_subject_key_identifier, "hash");
    check(X509_sign(cert.get(), key.get(), EVP_sha256()) > 0, "signing the CA");
    return pem_of(cert.get(), key.get());
}

test_pem issue_test_certificate(const test_pem& ca, const std::string& common_name,
                                const std::vector<std::string>& dns_names,
                                const std::vector<std::string>& ip_addresses, bool client)
{
    bio_ptr cb(BIO_new_mem_buf(ca.crt.data(), static_cast<int>(ca.crt.size())));
    bio_ptr kb(BIO_new_mem_buf(ca.key.data(), static_cast<int>(ca.key.size())));
    x509_ptr ca_cert(PEM_read_bio_X509(cb.get(), nullptr, nullptr, nullptr));
    pkey_ptr ca_key(PEM_read_bio_PrivateKey(kb.get(), nullptr, nullptr, nullptr));
    check(ca_cert && ca_key, "reading the CA");
    auto [cert, key] = new_certificate(common_name);
    check(X509_set_issuer_name(cert.get(), X509_get_subject_name(ca_cert.get())) == 1, "setting the issuer");
    add_extension(cert.get(), ca_cert.get(), NID_basic_constraints, "critical,CA:FALSE");
    add_extension(cert.get(), ca_cert.get(), NID_key_usage, "critical,digitalSignature");
    add_extension(cert.get(), ca_cert.get(), NID_ext_key_usage, client ? "clientAuth" : "serverAuth");
    std::string sans;
    for (const auto& n : dns_names)
        sans += (sans.empty() ? "DNS:" : ",DNS:") + n;
    for (const auto& ip : ip_addresses)
        sans += (sans.empty() ? "IP:" : ",IP:") + ip;
    if (!sans.empty())
        add_extension(cert.get(), ca_cert.get(), NID_subject_alt_name, sans);
    check(X509_sign(cert.get(), ca_key.get(), EVP_sha256()) > 0, "signing the certificate");
    return pem_of(cert.get(), key.get());
}

} // namespace kpw::test
