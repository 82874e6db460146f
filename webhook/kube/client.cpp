// SPDX-License-Identifier: Apache-2.0
#include "kube/client.hpp"

#include <map>
#include <mutex>

#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include "kube/connection.hpp"
#include "kube/json_text.hpp"

namespace kpw::kube {

namespace {

using detail::member;
using detail::string_member;

// "clusters.cluster.karmada.io", "pods": how kubectl names a resource in its messages.
std::string resource_name(const api_resource& r)
{
    return r.group.empty() ? r.resource : r.resource + "." + r.group;
}

std::string where(const api_resource& r, std::string_view namespace_)
{
    return r.namespaced && !namespace_.empty() ? " in namespace " + std::string(namespace_) : "";
}

std::string group_version_path(std::string_view group, std::string_view version)
{
    return group.empty() ? "/api/" + std::string(version) : "/apis/" + std::string(group) + "/" + std::string(version);
}

bool is_karmada_group(std::string_view group)
{
    return group == "cluster.karmada.io" || group == "policy.karmada.io" || group == "work.karmada.io";
}

// A string member's text without a copy, "" when missing or not a string.
std::string_view string_view_member(const rapidjson::Value& v, const char* name)
{
    const rapidjson::Value* m = member(v, name);
    return m != nullptr && m->IsString() ? std::string_view(m->GetString(), m->GetStringLength()) : std::string_view();
}

// The message of a Kubernetes Status body, "" when the body is not one.
std::string status_message(const std::string& body)
{
    rapidjson::Document doc;
    std::string ignored;
    if (!detail::parse_json(doc, body, ignored))
        return {};
    return string_member(doc, "message");
}

} // namespace

std::string api_resource::path(std::string_view namespace_) const
{
    std::string out = via + group_version_path(group, version);
    if (namespaced && !namespace_.empty())
        out += "/namespaces/" + std::string(namespace_);
    return out + "/" + resource;
}

struct client::impl {
    rest_config config;
    client_options options;
    detail::connection conn;
    std::map<std::string, std::vector<api_resource>> discovered; // "group/version" -> its resources
    error_kind last = error_kind::server;

    impl(rest_config c, client_options o) : config(std::move(c)), options(std::move(o)), conn(config, options) {}

    failure fail(error_kind kind, std::string message)
    {
        last = kind;
        return failure{std::move(message), {}};
    }

    // A transport failure from the connection, its kind kept.
    failure fail(const failure& f)
    {
        last = conn.last_kind();
        return f;
    }

    // The failure for a reply that is not 200. `verb` "list", `what` "listing clusters.cluster.karmada.io".
    failure status_failure(const detail::http_reply& reply, std::string_view verb, const std::string& resource,
                           std::string_view namespace_, std::string_view what)
    {
        const std::string said = status_message(reply.body);
        const std::string server_said = said.empty() ? "" : ": the server said \"" + detail::excerpt(said, 300) + "\"";
        switch (reply.status) {
        case 401:
            return fail(error_kind::unauthorized, "the API server rejected the credentials of " + config.identity() +
                                                      " (401 Unauthorized) while " + std::string(what) +
                                                      "; check the token or client certificate of that user");
        case 403:
            return fail(error_kind::forbidden,
                        config.identity() + " may not " + std::string(verb) + " " + resource +
                            (namespace_.empty() ? " (all namespaces)" : " in namespace " + std::string(namespace_)) +
                            " (403 Forbidden)" + server_said + "; grant that verb on that resource to this identity");
        case 404:
            return fail(error_kind::not_found, "the API server has no " + resource + " (404 Not Found) while " +
                                                   std::string(what) + server_said);
        case 410:
            return fail(error_kind::gone, "the API server answered 410 Gone while " + std::string(what) + server_said);
        case 429:
            return fail(error_kind::throttled, "the API server answered 429 Too Many Requests while " +
                                                   std::string(what) + server_said);
        default:
            return fail(error_kind::server, "the API server answered " + std::to_string(reply.status) + " while " +
                                                std::string(what) + server_said);
        }
    }

    result<detail::http_reply> get(const std::string& target, std::string_view what)
    {
        auto reply = conn.get(target, what);
        if (!reply)
            return fail(reply.error());
        return reply;
    }

    result<std::vector<api_resource>*> discover(std::string_view group, std::string_view version);
    result<std::string> list_page(const api_resource& r, const std::string& target, const std::string& what,
                                  std::string_view namespace_, rapidjson::Document& page);
};

result<std::vector<api_resource>*> client::impl::discover(std::string_view group, std::string_view version)
{
    const std::string key = std::string(group) + "/" + std::string(version);
    if (auto it = discovered.find(key); it != discovered.end())
        return &it->second;
    const std::string gv = group.empty() ? std::string(version) : key;
    const std::string what = "discovering the resources of " + gv;
    auto reply = get(group_version_path(group, version), what);
    if (!reply)
        return reply.error();
    if (reply->status == 404)
        return static_cast<std::vector<api_resource>*>(nullptr);
    if (reply->status != 200)
        return status_failure(*reply, "get", "API group version " + gv, {}, what);
    rapidjson::Document doc;
    std::string error;
    if (!detail::parse_json(doc, reply->body, error))
        return fail(error_kind::bad_reply, "the API server's reply to " + what + " is not JSON (" + error + ")");
    const rapidjson::Value* resources = member(doc, "resources");
    if (resources == nullptr || !resources->IsArray())
        return fail(error_kind::bad_reply, "the API server's reply to " + what + " has no resources list");
    std::vector<api_resource> found;
    for (const auto& item : resources->GetArray()) {
        api_resource r{std::string(group), std::string(version), string_member(item, "name"), string_member(item, "kind"), false, {}};
        const rapidjson::Value* namespaced = member(item, "namespaced");
        r.namespaced = namespaced != nullptr && namespaced->IsBool() && namespaced->GetBool();
        if (!r.resource.empty() && r.resource.find('/') == std::string::npos && !r.kind.empty())
            found.push_back(std::move(r));
    }
    return &discovered.emplace(key, std::move(found)).first->second;
}

client::client(rest_config config, client_options options)
    : impl_(std::make_unique<impl>(std::move(config), std::move(options)))
{
}

client::~client() = default;

const rest_config& client::config() const
{
    return impl_->config;
}

error_kind client::last_error_kind() const
{
    return impl_->last;
}

void client::interrupt_on(const std::atomic<bool>* flag)
{
    impl_->conn.interrupt_on(flag);
}

result<std::optional<api_resource>> client::resolve(std::string_view api_version, std::string_view kind)
{
    const auto slash = api_version.find('/');
    const std::string_view group = slash == std::string_view::npos ? std::string_view() : api_version.substr(0, slash);
    const std::string_view version = slash == std::string_view::npos ? api_version : api_version.substr(slash + 1);
    auto resources = impl_->discover(group, version);
    if (!resources) {
        // Only an answer that is not Karmada's discovery document suggests the wrong server; a refused
        // certificate or credential says what it says.
        const error_kind k = last_error_kind();
        if (is_karmada_group(group) && (k == error_kind::not_found || k == error_kind::bad_reply || k == error_kind::server))
            return failure{resources.error().message + "; is this karmada-apiserver?", {}};
        return resources.error();
    }
    if (*resources == nullptr)
        return std::optional<api_resource>();
    for (const api_resource& r : **resources)
        if (r.kind == kind)
            return std::optional<api_resource>(r);
    return std::optional<api_resource>();
}

// One page: its items are left in `page`; returns the continue token ("" on the last page).
result<std::string> client::impl::list_page(const api_resource& r, const std::string& target, const std::string& what,
                                            std::string_view namespace_, rapidjson::Document& page)
{
    auto reply = get(target, what);
    if (!reply)
        return reply.error();
    if (reply->status != 200)
        return status_failure(*reply, "list", resource_name(r), namespace_, what);
    std::string error;
    if (!detail::parse_json(page, reply->body, error))
        return fail(error_kind::bad_reply, "the API server's reply to " + what + " is not JSON (" + error + "): " +
                                               detail::excerpt(reply->body));
    const rapidjson::Value* items = member(page, "items");
    if (items == nullptr || !(items->IsArray() || items->IsNull()))
        return fail(error_kind::bad_reply, "the API server's reply to " + what + " is not a list (no items array): " +
                                               detail::excerpt(reply->body));
    const rapidjson::Value* metadata = member(page, "metadata");
    return metadata != nullptr ? string_member(*metadata, "continue") : std::string();
}

result<client::list_each_reply> client::list_each(const api_resource& r, std::string_view namespace_,
                                                  std::string_view label_selector,
                                                  const std::function<bool(const list_item&)>& on_item,
                                                  const std::function<void()>& on_restart)
{
    const std::string what = "listing " + resource_name(r) + where(r, namespace_);
    const std::string base = r.path(namespace_) + "?limit=" + std::to_string(impl_->options.page_size) +
                             (label_selector.empty() ? "" : "&labelSelector=" + detail::query_escape(label_selector));
    rapidjson::StringBuffer item_text; // one item at a time, its buffer reused
    for (int restart = 0;; ++restart) {
        list_each_reply reply;
        std::string token;
        bool restarted = false;
        do {
            rapidjson::Document page;
            auto next = impl_->list_page(r, token.empty() ? base : base + "&continue=" + detail::query_escape(token),
                                         what, namespace_, page);
            if (!next && impl_->last == error_kind::gone && !token.empty() && restart == 0) {
                restarted = true; // the continue token expired: list again from the start, once
                break;
            }
            if (!next)
                return next.error();
            token = *next;
            if (const rapidjson::Value* metadata = member(page, "metadata"))
                reply.resource_version = string_member(*metadata, "resourceVersion");
            if (page["items"].IsArray())
                for (auto& item : page["items"].GetArray()) {
                    detail::fill_type_meta(item, page.GetAllocator(), r.api_version(), r.kind);
                    item_text.Clear();
                    rapidjson::Writer<rapidjson::StringBuffer> writer(item_text);
                    item.Accept(writer);
                    ++reply.items;
                    list_item each;
                    if (const rapidjson::Value* metadata = member(item, "metadata")) {
                        each.has_metadata = true;
                        each.namespace_ = string_view_member(*metadata, "namespace");
                        each.name = string_view_member(*metadata, "name");
                    }
                    each.json = std::string_view(item_text.GetString(), item_text.GetSize());
                    if (!on_item(each)) {
                        reply.stopped = true;
                        return reply;
                    }
                }
        } while (!token.empty());
        if (!restarted)
            return reply;
        if (on_restart)
            on_restart();
    }
}

result<client::list_reply> client::list(const api_resource& r, std::string_view namespace_, std::string_view label_selector)
{
    const std::string what = "listing " + resource_name(r) + where(r, namespace_);
    std::string items;
    bool too_large = false;
    auto listed = list_each(
        r, namespace_, label_selector,
        [&](const list_item& item) {
            items += items.empty() ? "" : ",";
            items += item.json;
            too_large = items.size() > impl_->options.max_body_bytes;
            return !too_large;
        },
        [&] { items.clear(); });
    if (!listed)
        return listed.error();
    if (too_large)
        return impl_->fail(error_kind::bad_reply, what + " gave more than " + std::to_string(impl_->options.max_body_bytes) +
                                                      " bytes, the client's limit");
    list_reply reply;
    reply.resource_version = std::move(listed->resource_version);
    reply.items = listed->items;
    rapidjson::StringBuffer rv;
    rapidjson::Writer<rapidjson::StringBuffer> rv_writer(rv);
    rv_writer.String(reply.resource_version.c_str(), static_cast<rapidjson::SizeType>(reply.resource_version.size()));
    reply.json.reserve(items.size() + rv.GetSize() + 96);
    reply.json = R"({"apiVersion":"v1","kind":"List","metadata":{"resourceVersion":)";
    reply.json.append(rv.GetString(), rv.GetSize());
    reply.json += R"(},"items":[)";
    reply.json += items;
    reply.json += "]}";
    return reply;
}

result<std::optional<std::string>> client::get(const api_resource& r, std::string_view namespace_, std::string_view name)
{
    const std::string what = "getting " + resource_name(r) + " " + std::string(name) + where(r, namespace_);
    auto reply = impl_->get(r.path(namespace_) + "/" + detail::query_escape(name), what);
    if (!reply)
        return reply.error();
    if (reply->status == 404)
        return std::optional<std::string>();
    if (reply->status != 200)
        return impl_->status_failure(*reply, "get", resource_name(r), namespace_, what);
    rapidjson::Document doc;
    std::string error;
    if (!detail::parse_json(doc, reply->body, error))
        return impl_->fail(error_kind::bad_reply, "the API server's reply to " + what + " is not JSON (" + error +
                                                      "): " + detail::excerpt(reply->body));
    if (!doc.IsObject())
        return impl_->fail(error_kind::bad_reply, "the API server's reply to " + what + " is " +
                                                      detail::type_name(doc) + ", not an object");
    detail::fill_type_meta(doc, doc.GetAllocator(), r.api_version(), r.kind);
    return std::optional<std::string>(detail::to_json(doc));
}

result<bool> client::watch(const api_resource& r, std::string_view namespace_, std::string_view resource_version,
                           const std::function<void(const watch_event&)>& on_event, const std::atomic<bool>& stop)
{
    return watch(r, namespace_, resource_version, on_event, stop, {});
}

result<bool> client::watch(const api_resource& r, std::string_view namespace_, std::string_view resource_version,
                           const std::function<void(const watch_event&)>& on_event, const std::atomic<bool>& stop,
                           const std::function<void()>& on_tick)
{
    const std::string what = "watching " + resource_name(r) + where(r, namespace_);
    const std::string target = r.path(namespace_) + "?watch=1&resourceVersion=" + detail::query_escape(resource_version) +
                               "&allowWatchBookmarks=true";
    std::string pending;
    std::optional<failure> broken; // a line that is not an event, or an ERROR event
    const auto on_data = [&](std::string_view data) {
        pending.append(data);
        std::size_t start = 0;
        for (auto nl = pending.find('\n'); nl != std::string::npos; nl = pending.find('\n', start)) {
            const std::string_view line(pending.data() + start, nl - start);
            start = nl + 1;
            if (line.find_first_not_of(" \r\t") == std::string_view::npos)
                continue;
            auto event = decode_watch_event(line, r.api_version(), r.kind);
            if (!event) {
                broken = impl_->fail(error_kind::undecodable,
                                     "the API server sent garbage while " + what + ": " + event.error().message);
                return false;
            }
            if (event->type == watch_event::kind::error) {
                broken = impl_->fail(event->code == 410   ? error_kind::gone
                                     : event->code == 429 ? error_kind::throttled
                                                          : error_kind::server,
                                     "the API server ended the watch with an error (" + std::to_string(event->code) +
                                         ") while " + what + ": " + detail::excerpt(event->message, 300));
                return false;
            }
            on_event(*event);
        }
        pending.erase(0, start);
        return pending.size() <= impl_->options.max_body_bytes;
    };
    auto outcome = impl_->conn.stream(target, what, on_data, stop, std::chrono::minutes(5), on_tick);
    if (!outcome)
        return impl_->fail(outcome.error());
    if (broken)
        return *broken;
    if (outcome->status != 200)
        return impl_->status_failure({outcome->status, outcome->body}, "watch", resource_name(r), namespace_, what);
    if (!outcome->ended)
        return pending.size() > impl_->options.max_body_bytes
                   ? result<bool>(impl_->fail(error_kind::undecodable, "a line of the watch stream is larger than the "
                                                                     "client's limit while " + what))
                   : result<bool>(false);
    if (pending.find_first_not_of(" \r\t") != std::string::npos)
        return impl_->fail(error_kind::bad_reply, "the watch stream ended in the middle of an event while " + what);
    return true;
}

} // namespace kpw::kube
