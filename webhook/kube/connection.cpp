// SPDX-License-Identifier: Apache-2.0
#include "kube/connection.hpp"

#include <openssl/ssl.h>
#include <openssl/x509v3.h>

#include <arpa/inet.h>

#include <cctype>
#include <iostream>
#include <optional>
#include <vector>

#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/address.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl/context.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/http/buffer_body.hpp>
#include <boost/beast/http/empty_body.hpp>
#include <boost/beast/http/error.hpp>
#include <boost/beast/http/parser.hpp>
#include <boost/beast/http/read.hpp>
#include <boost/beast/http/string_body.hpp>
#include <boost/beast/http/write.hpp>
#include <boost/beast/ssl/ssl_stream.hpp>

#include "kube/proxy.hpp"
#include "version.hpp"

namespace kpw::kube::detail {

namespace net = boost::asio;
namespace ssl = net::ssl;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = net::ip::tcp;
using namespace std::chrono_literals;

namespace {

bool is_ip(const std::string& host)
{
    boost::system::error_code ec;
    (void)net::ip::make_address(host, ec);
    return !ec;
}

// Zero, or a duration past what steady_clock can hold from now (milliseconds::max(), --request-timeout
// 0): Beast's expires_after would overflow into the past, so these mean no deadline.
bool unlimited(std::chrono::milliseconds d)
{
    using clock = std::chrono::steady_clock;
    return d <= std::chrono::milliseconds::zero() ||
           d >= std::chrono::duration_cast<std::chrono::milliseconds>(clock::time_point::max() - clock::now());
}

// The stream's next operations must end within `d`, or never when `d` is unlimited.
void expire_after(beast::tcp_stream& stream, std::chrono::milliseconds d)
{
    if (unlimited(d))
        stream.expires_never();
    else
        stream.expires_after(d);
}

std::string seconds(std::chrono::milliseconds d)
{
    const auto ms = d.count();
    return ms % 1000 == 0 ? std::to_string(ms / 1000) + " s" : std::to_string(ms) + " ms";
}

// The subjectAltNames of a certificate, "DNS:name" / "IP:address", for the name-mismatch message.
std::vector<std::string> subject_alt_names(X509* cert)
{
    std::vector<std::string> out;
    auto* names = static_cast<GENERAL_NAMES*>(X509_get_ext_d2i(cert, NID_subject_alt_name, nullptr, nullptr));
    if (names == nullptr)
        return out;
    for (int i = 0; i < sk_GENERAL_NAME_num(names); ++i) {
        const GENERAL_NAME* n = sk_GENERAL_NAME_value(names, i);
        if (n->type == GEN_DNS) {
            const auto* s = n->d.dNSName;
            out.push_back("DNS:" + std::string(reinterpret_cast<const char*>(ASN1_STRING_get0_data(s)),
                                               static_cast<std::size_t>(ASN1_STRING_length(s))));
        } else if (n->type == GEN_IPADD) {
            const auto* s = n->d.iPAddress;
            char text[INET6_ADDRSTRLEN] = {};
            const int family = ASN1_STRING_length(s) == 16 ? AF_INET6 : AF_INET;
            if (inet_ntop(family, ASN1_STRING_get0_data(s), text, sizeof text) != nullptr)
                out.push_back(std::string("IP:") + text);
        }
    }
    GENERAL_NAMES_free(names);
    return out;
}

std::string joined(const std::vector<std::string>& v)
{
    std::string out;
    for (const auto& s : v)
        out += (out.empty() ? "" : ", ") + s;
    return out.empty() ? "no subjectAltName" : out;
}

} // namespace

result<server_url> parse_server_url(std::string_view server)
{
    server_url u;
    std::string_view rest = server;
    if (rest.starts_with("https://"))
        rest.remove_prefix(8);
    else if (rest.starts_with("http://")) {
        u.tls = false;
        rest.remove_prefix(7);
    } else
        return failure{"the API server address \"" + std::string(server) + "\" does not start with https:// or http://", {}};
    const auto slash = rest.find('/');
    std::string_view authority = rest.substr(0, slash);
    if (slash != std::string_view::npos) {
        u.prefix = std::string(rest.substr(slash));
        while (!u.prefix.empty() && u.prefix.back() == '/')
            u.prefix.pop_back();
    }
    if (authority.starts_with("[")) {
        const auto close = authority.find(']');
        if (close == std::string_view::npos)
            return failure{"the API server address \"" + std::string(server) + "\" has an unclosed '['", {}};
        u.host = std::string(authority.substr(1, close - 1));
        authority.remove_prefix(close + 1);
        if (authority.starts_with(":"))
            u.port = std::string(authority.substr(1));
    } else {
        const auto colon = authority.rfind(':');
        u.host = std::string(authority.substr(0, colon));
        if (colon != std::string_view::npos)
            u.port = std::string(authority.substr(colon + 1));
    }
    if (u.host.empty())
        return failure{"the API server address \"" + std::string(server) + "\" has no host", {}};
    if (u.port.empty())
        u.port = u.tls ? "443" : "80";
    u.host_is_ip = is_ip(u.host);
    return u;
}

std::string query_escape(std::string_view value)
{
    static constexpr char hex[] = "0123456789ABCDEF";
    std::string out;
    for (const unsigned char c : value) {
        if (std::isalnum(c) != 0 || c == '-' || c == '_' || c == '.' || c == '~')
            out += static_cast<char>(c);
        else {
            out += '%';
            out += hex[c >> 4];
            out += hex[c & 15];
        }
    }
    return out;
}

struct connection::impl {
    const rest_config& config;
    const client_options& options;
    std::optional<server_url> url;
    std::string url_error;
    std::optional<proxy_url> proxy; // the tunnel's proxy (kubeconfig proxy-url, else the environment's)
    std::string proxy_error;
    credentials creds;
    net::io_context ioc;
    tcp::resolver resolver{ioc};
    std::unique_ptr<ssl::context> ctx;
    std::unique_ptr<beast::tcp_stream> plain;
    std::unique_ptr<beast::ssl_stream<beast::tcp_stream>> tls;
    beast::flat_buffer buffer;
    bool connected = false;
    const std::atomic<bool>* interrupt = nullptr;
    const std::function<void()>* tick = nullptr; // while streaming: run every ~100 ms
    enum class abort_reason { none, stop, deadline } aborted = abort_reason::none;
    std::vector<std::string> peer_names; // the leaf certificate's SANs, seen during verification
    std::string verify_name;             // the name (or IP) the certificate must carry
    std::string presented_cert;          // the client certificate (PEM) the TLS connection was made with
    bool warned_cleartext = false;       // the http:// credentials warning, once per client

    impl(const rest_config& c, const client_options& o) : config(c), options(o), creds(c)
    {
        auto u = parse_server_url(c.server);
        if (u)
            url = *u;
        else
            url_error = u.error().message;
        if (url) {
            auto p = proxy_for(c.proxy_url, o.proxy_env ? *o.proxy_env : process_proxy_environment(),
                               url->tls ? "https" : "http", url->host, url->port);
            if (p)
                proxy = *p;
            else
                proxy_error = p.error().message;
        }
    }

    beast::tcp_stream& lowest() { return tls ? tls->next_layer() : *plain; }

    void abort_io()
    {
        resolver.cancel();
        if (tls || plain)
            lowest().close();
    }

    // Runs one asynchronous operation to completion on the private io_context, polling `stop` and the
    // interrupt flag every 100 ms (either closes the socket, so the operation ends with an error).
    template <class Start>
    beast::error_code run(Start&& start, const std::atomic<bool>* stop = nullptr,
                          std::chrono::steady_clock::time_point deadline = std::chrono::steady_clock::time_point::max())
    {
        beast::error_code result;
        bool done = false;
        aborted = abort_reason::none;
        start([&result, &done](beast::error_code ec, auto&&...) {
            result = ec;
            done = true;
        });
        ioc.restart();
        auto last_tick = std::chrono::steady_clock::now();
        while (!done) {
            ioc.run_one_for(100ms);
            if (tick != nullptr && *tick && std::chrono::steady_clock::now() - last_tick >= 100ms) {
                last_tick = std::chrono::steady_clock::now();
                (*tick)();
            }
            if (done || aborted != abort_reason::none)
                continue;
            if ((stop != nullptr && stop->load()) || (interrupt != nullptr && interrupt->load()))
                aborted = abort_reason::stop;
            else if (std::chrono::steady_clock::now() > deadline)
                aborted = abort_reason::deadline;
            if (aborted != abort_reason::none)
                abort_io();
        }
        return result;
    }

    void close()
    {
        if (tls || plain) {
            beast::error_code ignored;
            lowest().socket().close(ignored);
            ioc.restart();
            ioc.poll();
        }
        tls.reset();
        plain.reset();
        buffer.clear();
        connected = false;
    }

    std::string unreachable(const std::string& why) const
    {
        return "cannot reach " + config.server +
               (proxy ? " through the proxy " + proxy->redacted() + " (" + proxy->origin + ")" : "") + " (" + why +
               "); is the API server running and is this the right --kubeconfig/--context?";
    }

    result<bool> connect(error_kind& kind);
    result<bool> drop_if_certificate_changed(error_kind& kind);
    void warn_if_cleartext(const std::string& auth);
    result<bool> handshake(error_kind& kind);
    result<bool> make_tls_context(error_kind& kind);
    std::string verify_failure(long code) const;

    template <class Parser>
    result<bool> exchange(const std::string& target, const std::string& auth, std::string_view what,
                          std::optional<Parser>& p, bool header_only, error_kind& kind);
    template <class Parser>
    beast::error_code read(Parser& p, bool header_only, const std::atomic<bool>* stop = nullptr)
    {
        if (tls)
            return header_only ? run([&](auto h) { http::async_read_header(*tls, buffer, p, h); }, stop)
                               : run([&](auto h) { http::async_read(*tls, buffer, p, h); }, stop);
        return header_only ? run([&](auto h) { http::async_read_header(*plain, buffer, p, h); }, stop)
                           : run([&](auto h) { http::async_read(*plain, buffer, p, h); }, stop);
    }
    template <class Parser>
    beast::error_code read_some(Parser& p, const std::atomic<bool>* stop)
    {
        if (tls)
            return run([&](auto h) { http::async_read_some(*tls, buffer, p, h); }, stop);
        return run([&](auto h) { http::async_read_some(*plain, buffer, p, h); }, stop);
    }
    result<bool> read_failure(beast::error_code ec, std::string_view what, error_kind& kind);
};

result<bool> connection::impl::make_tls_context(error_kind& kind)
{
    ctx = std::make_unique<ssl::context>(ssl::context::tls_client);
    SSL_CTX_set_min_proto_version(ctx->native_handle(), TLS1_2_VERSION);
    beast::error_code ec;
    if (config.insecure_skip_tls_verify)
        ctx->set_verify_mode(ssl::verify_none);
    else {
        ctx->set_verify_mode(ssl::verify_peer);
        if (config.ca_pem.empty())
            ctx->set_default_verify_paths(ec);
        else
            ctx->add_certificate_authority(net::buffer(config.ca_pem), ec);
        if (ec) {
            kind = error_kind::tls;
            return failure{"the certificate authority given for " + config.server +
                           " (certificate-authority / certificate-authority-data) does not load: " + ec.message(), {}};
        }
    }
    auto cert = creds.certificate();
    if (!cert) {
        kind = error_kind::unauthorized;
        return cert.error();
    }
    presented_cert = *cert ? (*cert)->cert_pem : std::string();
    if (*cert) {
        ctx->use_certificate_chain(net::buffer((*cert)->cert_pem), ec);
        if (!ec)
            ctx->use_private_key(net::buffer((*cert)->key_pem), ssl::context::pem, ec);
        if (ec) {
            kind = error_kind::tls;
            return failure{"the client certificate or key of " + config.identity() + " does not load (" +
                           ec.message() + ")", {}};
        }
    }
    return true;
}

std::string connection::impl::verify_failure(long code) const
{
    if (code == X509_V_ERR_HOSTNAME_MISMATCH || code == X509_V_ERR_IP_ADDRESS_MISMATCH)
        return "the certificate of " + config.server + " is not valid for " +
               (is_ip(verify_name) ? "IP address " : "the name ") + verify_name + " (it names " +
               joined(peer_names) + "); connect through one of those names, or set tls-server-name in the "
               "kubeconfig's cluster entry to one of them";
    return "cannot verify the certificate of " + config.server + " (" + X509_verify_cert_error_string(code) +
           "); set certificate-authority(-data) in the kubeconfig's cluster entry to the CA that signed the "
           "API server's certificate";
}

result<bool> connection::impl::handshake(error_kind& kind)
{
    tls = std::make_unique<beast::ssl_stream<beast::tcp_stream>>(std::move(*plain), *ctx);
    plain.reset();
    verify_name = config.tls_server_name.empty() ? url->host : config.tls_server_name;
    if (verify_name.size() > 1 && verify_name.back() == '.' && !is_ip(verify_name))
        verify_name.pop_back(); // the absolute form names the same host (Go's VerifyHostname trims it too)
    SSL* ssl_handle = tls->native_handle();
    if (!is_ip(verify_name))
        SSL_set_tlsext_host_name(ssl_handle, verify_name.c_str());
    if (!config.insecure_skip_tls_verify) {
        X509_VERIFY_PARAM* param = SSL_get0_param(ssl_handle);
        // Go's Certificate.VerifyHostname (crypto/x509/verify.go), which client-go's TLS relies on: the
        // subject's CN is never a name (not since Go 1.15), a '*' only as the whole leftmost label matching
        // one label (f*.example.com matches nothing), and an IP only against IP SANs.
        X509_VERIFY_PARAM_set_hostflags(param, X509_CHECK_FLAG_NEVER_CHECK_SUBJECT | X509_CHECK_FLAG_NO_PARTIAL_WILDCARDS);
        if (is_ip(verify_name))
            X509_VERIFY_PARAM_set1_ip_asc(param, verify_name.c_str());
        else
            X509_VERIFY_PARAM_set1_host(param, verify_name.c_str(), 0);
        peer_names.clear();
        tls->set_verify_callback([this](bool preverified, ssl::verify_context& vc) {
            X509_STORE_CTX* store = vc.native_handle();
            if (X509_STORE_CTX_get_error_depth(store) == 0 && peer_names.empty())
                peer_names = subject_alt_names(X509_STORE_CTX_get_current_cert(store));
            return preverified;
        });
    }
    expire_after(lowest(), options.connect_timeout);
    const auto ec = run([&](auto h) { tls->async_handshake(ssl::stream_base::client, h); });
    if (!ec)
        return true;
    const long verify = SSL_get_verify_result(ssl_handle);
    close();
    if (verify != X509_V_OK && !config.insecure_skip_tls_verify) {
        kind = error_kind::tls;
        return failure{verify_failure(verify), {}};
    }
    if (ec == beast::error::timeout || aborted != abort_reason::none) {
        kind = error_kind::unreachable;
        return failure{unreachable("no TLS handshake within " + seconds(options.connect_timeout)), {}};
    }
    kind = error_kind::tls;
    return failure{"the TLS handshake with " + config.server + " failed (" + ec.message() +
                   "); is this an HTTPS port of the API server?", {}};
}

result<bool> connection::impl::connect(error_kind& kind)
{
    kind = error_kind::unreachable;
    if (!url)
        return failure{url_error, {}};
    if (!proxy_error.empty())
        return failure{proxy_error, {}};
    const std::string& dial_host = proxy ? proxy->host : url->host; // through a proxy: the proxy resolves
    const std::string& dial_port = proxy ? proxy->port : url->port;
    tcp::resolver::results_type endpoints;
    auto ec = run(
        [&](auto h) {
            resolver.async_resolve(dial_host, dial_port, [&endpoints, h](beast::error_code e, auto results) mutable {
                endpoints = std::move(results);
                h(e);
            });
        },
        nullptr, std::chrono::steady_clock::now() + options.connect_timeout);
    if (ec)
        return failure{unreachable("cannot resolve " + dial_host + ": " +
                                   (aborted == abort_reason::deadline ? "timed out" : ec.message())), {}};
    if (url->tls) {
        auto made = make_tls_context(kind);
        if (!made)
            return made;
    }
    const auto started = std::chrono::steady_clock::now();
    plain = std::make_unique<beast::tcp_stream>(ioc);
    plain->expires_after(options.connect_timeout);
    ec = run([&](auto h) { plain->async_connect(endpoints, h); });
    if (ec) {
        const bool timed_out = ec == beast::error::timeout;
        close();
        kind = error_kind::unreachable;
        const auto took = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - started);
        std::string why = timed_out ? std::string("no answer") : ec.message();
        if (!why.empty())
            why[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(why[0])));
        return failure{unreachable(why +
                                   (timed_out || took >= 1s ? " after " + seconds(timed_out ? options.connect_timeout : took) : "")), {}};
    }
    if (proxy) {
        plain->expires_after(options.connect_timeout);
        auto tunnel = open_tunnel(*plain, *proxy, url->host, url->port,
                                  [this](const std::function<void(io_handler)>& start) {
                                      return run([&](auto h) { start(io_handler(h)); });
                                  },
                                  seconds(options.connect_timeout));
        if (!tunnel) {
            close();
            kind = error_kind::unreachable;
            return tunnel;
        }
    }
    if (url->tls) {
        auto shaken = handshake(kind);
        if (!shaken)
            return shaken;
    }
    connected = true;
    return true;
}

result<bool> connection::impl::read_failure(beast::error_code ec, std::string_view what, error_kind& kind)
{
    const bool stopped = aborted == abort_reason::stop;
    close();
    if (stopped) {
        kind = error_kind::unreachable;
        return failure{"stopped while " + std::string(what), {}};
    }
    if (ec == beast::error::timeout) {
        kind = error_kind::unreachable;
        return failure{"no reply from " + config.server + " within " + seconds(options.request_timeout) + " while " +
                       std::string(what), {}};
    }
    kind = error_kind::bad_reply;
    if (ec == http::error::body_limit)
        return failure{"the reply to " + std::string(what) + " is larger than " +
                       std::to_string(options.max_body_bytes) + " bytes, the client's limit", {}};
    if (ec == http::error::partial_message || ec == http::error::end_of_stream || ec == net::error::eof ||
        ec == ssl::error::stream_truncated || ec == net::error::connection_reset)
        return failure{"the API server's reply to " + std::string(what) + " was cut off (" + ec.message() + ")", {}};
    if (ec.category() == http::make_error_code(http::error::bad_version).category())
        return failure{"the reply to " + std::string(what) + " from " + config.server + " is not valid HTTP (" +
                       ec.message() + ")", {}};
    kind = error_kind::unreachable;
    return failure{"lost the connection to " + config.server + " while " + std::string(what) + " (" + ec.message() + ")", {}};
}

// An exec plugin that hands out a new client certificate (after a 401, or once the old one expired) is
// obeyed at once: the open connection presented the previous one, so it is closed, as client-go's
// exec.go refreshCredsLocked closes every connection when the certificate changes.
result<bool> connection::impl::drop_if_certificate_changed(error_kind& kind)
{
    if (!connected || !tls)
        return true;
    auto cert = creds.certificate();
    if (!cert) {
        kind = error_kind::unauthorized;
        return cert.error();
    }
    if ((*cert ? (*cert)->cert_pem : std::string()) != presented_cert)
        close();
    return true;
}

// client-go sends a token or a password to an http:// server silently; say so, once per client,
// naming the kind of credential and never the credential.
void connection::impl::warn_if_cleartext(const std::string& auth)
{
    if (warned_cleartext || auth.empty() || !url || url->tls)
        return;
    warned_cleartext = true;
    const std::string what = auth.starts_with("Basic ") ? "the basic-auth password" : "the bearer token";
    std::cerr << "warning: " << config.server << " is an http:// address, so " << what << " of " << config.identity()
              << " is sent unencrypted: anyone on the path can read it and act as that user; use the API server's "
                 "https:// address\n";
}

// Writes the request and reads the reply (or only its header). A kept-alive connection the server has
// closed in the meantime is replaced once, before any byte of the reply arrived (GET is idempotent).
template <class Parser>
result<bool> connection::impl::exchange(const std::string& target, const std::string& auth, std::string_view what,
                                        std::optional<Parser>& p, bool header_only, error_kind& kind)
{
    http::request<http::empty_body> req{http::verb::get, url ? url->prefix + target : target, 11};
    if (auto same = drop_if_certificate_changed(kind); !same)
        return same;
    warn_if_cleartext(auth);
    for (int attempt = 0;; ++attempt) {
        p.emplace();
        if (header_only)
            p->body_limit(boost::none); // a watch: the body is streamed, not held
        else
            p->body_limit(options.max_body_bytes);
        const bool fresh = !connected;
        if (!connected) {
            auto c = connect(kind);
            if (!c)
                return c;
        }
        const std::string port = url->port == (url->tls ? "443" : "80") ? "" : ":" + url->port;
        req.set(http::field::host, (url->host.find(':') != std::string::npos ? "[" + url->host + "]" : url->host) + port);
        req.set(http::field::user_agent,
                options.user_agent.empty() ? std::string("karmada-policy-webhook/") + KPW_VERSION : options.user_agent);
        req.set(http::field::accept, "application/json");
        if (!auth.empty())
            req.set(http::field::authorization, auth);
        req.keep_alive(true);
        expire_after(lowest(), options.request_timeout);
        auto ec = tls ? run([&](auto h) { http::async_write(*tls, req, h); })
                      : run([&](auto h) { http::async_write(*plain, req, h); });
        if (!ec)
            ec = read(*p, header_only);
        if (!ec)
            return true;
        const bool stale = ec == http::error::end_of_stream || ec == net::error::connection_reset ||
                           ec == net::error::broken_pipe || ec == net::error::eof ||
                           ec == ssl::error::stream_truncated; // TLS: closed without close_notify
        if (!fresh && attempt == 0 && stale && aborted == abort_reason::none) {
            close();
            continue;
        }
        return read_failure(ec, what, kind);
    }
}

connection::connection(const rest_config& config, const client_options& options)
    : impl_(std::make_unique<impl>(config, options))
{
    if (config.insecure_skip_tls_verify)
        std::cerr << "warning: insecure-skip-tls-verify is set for " << config.server
                  << ": the API server's certificate is not verified, so anyone on the path can read the "
                     "credentials sent to it\n";
}

connection::~connection()
{
    impl_->close();
}

const std::string& connection::server() const
{
    return impl_->config.server;
}

void connection::interrupt_on(const std::atomic<bool>* flag)
{
    impl_->interrupt = flag;
}

result<http_reply> connection::get(const std::string& target, std::string_view what)
{
    for (int attempt = 0;; ++attempt) {
        auto auth = impl_->creds.authorization();
        if (!auth) {
            last_kind_ = error_kind::unauthorized;
            return auth.error();
        }
        std::optional<http::response_parser<http::string_body>> p;
        auto done = impl_->exchange(target, *auth, what, p, false, last_kind_);
        if (!done)
            return done.error();
        if (!p->get().keep_alive())
            impl_->close();
        const unsigned status = p->get().result_int();
        if (status == 401 && attempt == 0 && impl_->creds.invalidate())
            continue;
        return http_reply{status, std::move(p->get().body())};
    }
}

result<stream_outcome> connection::stream(const std::string& target, std::string_view what,
                                          const std::function<bool(std::string_view)>& on_data,
                                          const std::atomic<bool>& stop, std::chrono::milliseconds idle,
                                          const std::function<void()>& on_tick)
{
    struct untick {
        const std::function<void()>*& t;
        ~untick() { t = nullptr; }
    } reset{impl_->tick};
    for (int attempt = 0;; ++attempt) {
        auto auth = impl_->creds.authorization();
        if (!auth) {
            last_kind_ = error_kind::unauthorized;
            return auth.error();
        }
        std::optional<http::response_parser<http::buffer_body>> parser;
        auto head = impl_->exchange(target, *auth, what, parser, true, last_kind_);
        if (!head)
            return head.error();
        auto& p = *parser;
        impl_->tick = &on_tick;
        stream_outcome out;
        out.status = p.get().result_int();
        std::vector<char> buf(64 * 1024);
        while (!p.is_done()) {
            p.get().body().data = buf.data();
            p.get().body().size = buf.size();
            if (out.status == 200)
                expire_after(impl_->lowest(), idle);
            auto ec = impl_->read_some(p, &stop);
            if (ec == http::error::need_buffer)
                ec = {};
            const std::size_t n = buf.size() - p.get().body().size;
            if (out.status != 200)
                out.body.append(buf.data(), n);
            else if (n > 0 && !on_data({buf.data(), n})) {
                impl_->close();
                return out;
            }
            if (out.body.size() > impl_->options.max_body_bytes) {
                impl_->close();
                last_kind_ = error_kind::bad_reply;
                return failure{"the reply to " + std::string(what) + " is larger than " +
                               std::to_string(impl_->options.max_body_bytes) + " bytes, the client's limit", {}};
            }
            if (!ec)
                continue;
            if (out.status == 200 && (impl_->aborted == impl::abort_reason::stop || ec == beast::error::timeout)) {
                out.ended = ec == beast::error::timeout; // idle for `idle`: as if the server had ended it
                impl_->close();
                return out;
            }
            auto failed = impl_->read_failure(ec, what, last_kind_);
            return failed.error();
        }
        if (!p.get().keep_alive())
            impl_->close();
        if (out.status == 401 && attempt == 0 && impl_->creds.invalidate())
            continue;
        out.ended = true;
        return out;
    }
}

} // namespace kpw::kube::detail
