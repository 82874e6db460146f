// SPDX-License-Identifier: Apache-2.0
// client: the few calls of the Kubernetes API this tool makes (discovery, list, get, watch), over
// Beast + OpenSSL, synchronous, with a deadline on every step.
#pragma once

#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.hpp"
#include "kube/kubeconfig.hpp"
#include "kube/proxy_rules.hpp"
#include "kube/watch_event.hpp"

namespace kpw::kube {

struct client_options {
    std::chrono::milliseconds connect_timeout{10'000}; // TCP connect + TLS handshake
    std::chrono::milliseconds request_timeout{30'000}; // one request: write, then the whole reply; 0 or
                                                       // milliseconds::max(): no limit (connect_timeout stays)
    std::string user_agent;                            // default: karmada-policy-webhook/<version>
    std::size_t page_size = 500;                       // list ?limit=, as kubectl's --chunk-size
    std::size_t max_body_bytes = 512u << 20;           // a reply larger than this is an error, not an OOM
    // HTTPS_PROXY / HTTP_PROXY / NO_PROXY, used when the kubeconfig has no proxy-url (Go's rules:
    // kube/proxy_rules.hpp). nullopt: the process's environment, read when a connection is made.
    std::optional<proxy_environment> proxy_env;
};

// A resource as discovery names it: /apis/<group>/<version>/[namespaces/<ns>/]<resource>.
struct api_resource {
    std::string group;    // "" for the core group (/api/v1)
    std::string version;
    std::string resource; // plural: "clusters", "deployments"
    std::string kind;     // "Cluster"
    bool namespaced = false;
    // Where the request goes through: "" the server itself, or a proxy path of it, such as Karmada's cluster
    // proxy to a member's API server ("/apis/cluster.karmada.io/v1alpha1/clusters/idc-1/proxy").
    std::string via;

    std::string api_version() const { return group.empty() ? version : group + "/" + version; }
    // The collection path; `namespace_` is ignored for cluster-scoped resources, "" = all namespaces.
    std::string path(std::string_view namespace_ = {}) const;
};

// What went wrong, for messages and exit codes: the message names the verb, the resource, the
// server and (for 401/403) the identity, and says what would help.
enum class error_kind {
    unreachable,     // DNS, connect, TLS handshake, timeout: exit 2
    tls,             // certificate verification / server name mismatch
    unauthorized,    // 401 (after one credential refresh)
    forbidden,       // 403
    not_found,       // 404 on a collection or an unserved API group/version
    gone,            // 410: a watch or a continue token expired; re-list
    throttled,       // 429 Too Many Requests (a reply or a watch's ERROR event): back off, then try again
    undecodable,     // a watch stream line that is not an event, or too long: re-list (client-go's decode error)
    bad_reply,       // not JSON, not the shape asked for, too large, truncated
    server,          // any other status
};



class client {
public:
    client(rest_config config, client_options options = {});
    ~client();
    client(const client&) = delete;
    client& operator=(const client&) = delete;

    const rest_config& config() const;

    // Discovery: the resource serving (apiVersion, kind), or nullopt when the server does not serve it
    // (the group/version is absent, or the kind is not in it). Results are cached per group/version.
    result<std::optional<api_resource>> resolve(std::string_view api_version, std::string_view kind);

    // Every object of a collection, page by page (limit/continue; a 410 on a continue token restarts
    // the list once from the beginning). The result is one JSON text shaped as `kubectl get -o json`
    // prints it: {"apiVersion":"v1","kind":"List","metadata":{"resourceVersion":...},"items":[...]}
    // with each item's apiVersion and kind filled in (the API server omits them for built-in types).
    struct list_reply {
        std::string json;
        std::string resource_version; // of the last page: where a watch starts
        std::size_t items = 0;
    };
    result<list_reply> list(const api_resource& r, std::string_view namespace_ = {},
                            std::string_view label_selector = {});

    // The same list item by item, holding one page at a time (serve's live snapshot keeps a decoded
    // form of each object, never the list's text: issue 38). `on_item` gets each item, its JSON text
    // with apiVersion and kind filled in, valid until it returns; returning false stops the list (no
    // further page is asked for; the reply says `stopped`). `on_restart` runs when a 410 on a continue
    // token restarts the list from the beginning (once): the items given so far are void.
    struct list_item {
        std::string_view namespace_, name; // metadata's
        bool has_metadata = false;
        std::string_view json;
    };
    struct list_each_reply {
        std::string resource_version; // of the last page read
        std::size_t items = 0;
        bool stopped = false; // on_item returned false
    };
    result<list_each_reply> list_each(const api_resource& r, std::string_view namespace_, std::string_view label_selector,
                                      const std::function<bool(const list_item&)>& on_item,
                                      const std::function<void()>& on_restart);

    // One object as JSON (apiVersion and kind filled in), nullopt on 404.
    result<std::optional<std::string>> get(const api_resource& r, std::string_view namespace_, std::string_view name);

    // A watch from `resource_version` (allowWatchBookmarks=true, timeoutSeconds chosen by the server).
    // Calls `on_event` for each event until the server ends the stream (returns ok), `stop` becomes
    // true, or a failure (410 is error_kind::gone: the caller re-lists).
    result<bool> watch(const api_resource& r, std::string_view namespace_, std::string_view resource_version,
                       const std::function<void(const watch_event&)>& on_event, const std::atomic<bool>& stop);
    // The same, and `on_tick` runs on this thread about every 100 ms while the stream is open, events or
    // not (the reflector hands over a coalesced burst from it). Returns true when the server ended the
    // stream, false when `stop` did. ERROR events are not given to on_event: they end the watch as a
    // failure (code 410: error_kind::gone, 429: throttled); a line that is not an event is undecodable,
    // and a stream cut off (reset, truncated) is a transport failure (bad_reply or unreachable).
    result<bool> watch(const api_resource& r, std::string_view namespace_, std::string_view resource_version,
                       const std::function<void(const watch_event&)>& on_event, const std::atomic<bool>& stop,
                       const std::function<void()>& on_tick);

    // The last failure's kind (for exit codes and for the reflector's 410 handling).
    error_kind last_error_kind() const;

    // While *flag is true, every call in progress (connect, list, get, watch) fails within ~100 ms and
    // new calls fail at once; nullptr detaches. The flag must outlive the client or be detached first.
    void interrupt_on(const std::atomic<bool>* flag);

private:
    struct impl;
    std::unique_ptr<impl> impl_;
};

} // namespace kpw::kube
