// SPDX-License-Identifier: Apache-2.0
// fake_apiserver: an in-process Kubernetes API server for tests, on 127.0.0.1 (HTTPS with a CA of its
// own, or plain HTTP): discovery, collections with limit/continue pagination (tokens that can be made
// to expire: 410), get by name, watch streams fed by the test (events, bookmarks, 410 ERRORs, garbage,
// broken streams), bearer-token checks (401), forbidden resources (403), canned and stalled replies, and
// a record of every request. One thread accepts, one thread per connection; stop() joins them all.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <map>
#include <set>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace kpw::test {

struct recorded_request {
    std::string method;
    std::string target;                        // as sent: path?query
    std::string path;                          // without the query
    std::map<std::string, std::string> query;  // percent-decoded
    std::string user_agent, authorization, accept;
    std::string client_cn; // the subject CN of the client certificate presented, "" for none
};

// A resource the server serves: discovery lists it, its collection can hold objects.
struct fake_resource {
    std::string group; // "" = core (/api/v1)
    std::string version;
    std::string resource; // plural
    std::string kind;
    bool namespaced = false;
};

// A reply given instead of the normal one for requests to an exact path.
struct canned_reply {
    unsigned status = 200;
    std::string body;
    std::size_t cut_after = static_cast<std::size_t>(-1); // send only this many body bytes, then close
};

class fake_apiserver {
public:
    struct options {
        bool tls = true;
        unsigned short port = 0;                        // 0: an ephemeral port
        std::vector<std::string> dns_names{"localhost"}; // the serving certificate's SANs
        std::vector<std::string> ip_addresses{"127.0.0.1"};
        // When set, the serving certificate has this subject CN and exactly dns_names / ip_addresses as its
        // SANs, none required and any pattern allowed (host name checks: a CN alone, partial wildcards).
        std::string serving_common_name;
        // Client certificates signed by this CA (PEM) are asked for, not required (as kube-apiserver's
        // --client-ca-file); see accept_client_names().
        std::string client_ca_pem;
    };

    fake_apiserver(); // HTTPS, ephemeral port, certificate for localhost and 127.0.0.1
    explicit fake_apiserver(options o);
    ~fake_apiserver(); // stop()
    fake_apiserver(const fake_apiserver&) = delete;
    fake_apiserver& operator=(const fake_apiserver&) = delete;

    // Listens (again, on the same port after a stop()); the state (objects, settings) is kept. Throws
    // std::runtime_error when the port cannot be bound.
    void start();
    // Closes the listener and every connection (watches break), joins every thread.
    void stop();

    unsigned short port() const { return port_; }
    std::string url() const; // https://127.0.0.1:<port>
    const std::string& ca_pem() const { return ca_pem_; }

    // Serving
    void add_resource(const fake_resource& r);
    // Adds or replaces an object (JSON text with metadata.name, and metadata.namespace when namespaced);
    // sets its metadata.resourceVersion and sends ADDED or MODIFIED to the watches of its resource.
    void put(const std::string& resource, const std::string& object_json);
    // Removes an object and sends DELETED.
    void remove(const std::string& resource, const std::string& namespace_, const std::string& name);
    std::string resource_version() const; // the server's current resourceVersion

    // Watch streams of `resource` (every open one): raw lines are sent as they are (garbage), a
    // bookmark carries the current resourceVersion, gone() sends an ERROR event with a 410 Status.
    void send_line(const std::string& resource, const std::string& line);
    void send_bookmark(const std::string& resource);
    void send_gone(const std::string& resource);
    // Closes the open watches of `resource`: mid_event leaves half an event on the wire first.
    void break_watches(const std::string& resource, bool mid_event = false);
    // Ends the open watches of `resource` cleanly (the last chunk), as the server's timeout does.
    void end_watches(const std::string& resource);
    // A watch from a resourceVersion older than this gets a 410 ERROR event at once.
    void compact();
    std::size_t open_watches() const;

    // Continue tokens issued so far get 410 Gone ("continue parameter is too old").
    void expire_continue_tokens();
    // Only "Authorization: Bearer <token>" is let in; "" lets everyone in.
    void require_token(const std::string& token);
    // 403 with a Status whose message is `message` for every request on `resource`.
    void forbid(const std::string& resource, const std::string& message);
    // Requests to exactly `path` get `reply` instead.
    void respond(const std::string& path, const canned_reply& reply);
    // Requests to exactly `path` are read and never answered (until stop()).
    void stall(const std::string& path);
    // Called with each request before it is answered (without the server's lock held).
    void on_request(std::function<void(const recorded_request&)> hook);

    std::vector<recorded_request> requests() const;
    std::size_t connections() const; // TCP connections accepted since construction

    // Only a request over a connection whose client certificate (options.client_ca_pem) has one of
    // these subject CNs is let in (401 otherwise); empty lets everyone in. Takes effect at once.
    void accept_client_names(std::set<std::string> names);

private:
    struct collection;
    struct watcher;
    struct conn;

    void accept_loop();
    template <class Stream>
    void serve(Stream& stream, conn& c);
    template <class Stream>
    void serve_watch(Stream& stream, conn& c, const recorded_request& req, const std::string& resource,
                     const std::string& namespace_);
    void serve_connection(std::shared_ptr<conn> c);
    struct reply {
        reply() = default;
        reply(unsigned s, std::string b, std::size_t cut = static_cast<std::size_t>(-1))
            : status(s), body(std::move(b)), cut_after(cut)
        {
        }
        unsigned status = 200;
        std::string body;
        std::size_t cut_after = static_cast<std::size_t>(-1);
        bool stall = false, watch = false;
        std::string resource, namespace_;
    };
    reply handle(const recorded_request& req);
    reply handle_discovery(const recorded_request& req);
    reply handle_list(const recorded_request& req, collection& c, const std::string& namespace_);
    // Sends `line` to the open watches of `resource`.
    void notify(const std::string& resource, const std::string& line);
    // An object's change: kept, so that a watch from an older resourceVersion gets it too (as
    // kube-apiserver's watch cache replays what came after the version the client listed at).
    void record(const std::string& resource, const std::string& line);

    options options_;
    unsigned short port_ = 0;
    std::string ca_pem_, crt_pem_, key_pem_;

    mutable std::mutex mutex_;
    std::condition_variable changed_;
    bool stopping_ = false;
    std::uint64_t rv_ = 100;
    std::uint64_t compacted_ = 0;
    std::uint64_t token_epoch_ = 1;
    std::string token_;
    std::map<std::string, std::unique_ptr<collection>> collections_; // by plural resource
    std::map<std::string, std::string> forbidden_;
    std::map<std::string, canned_reply> canned_;
    std::vector<std::string> stalled_;
    std::function<void(const recorded_request&)> hook_;
    std::vector<recorded_request> requests_;
    std::vector<std::shared_ptr<watcher>> watchers_;
    struct change {
        std::string resource;
        std::uint64_t rv;
        std::string line;
    };
    std::vector<change> history_;
    std::vector<std::shared_ptr<conn>> conns_;
    std::size_t accepted_ = 0;
    std::set<std::string> client_names_;

    struct net_state;
    std::unique_ptr<net_state> net_;
    std::thread acceptor_;
    std::vector<std::thread> threads_;
};

// Polls `condition` every 5 ms until it holds or `timeout` passes; returns its last value.
bool eventually(const std::function<bool()>& condition, std::chrono::milliseconds timeout = std::chrono::seconds(10));

// Test certificates made by hand (the certs library insists on what a webhook needs): PEM pairs.
struct test_pem {
    std::string crt, key;
};
test_pem make_test_ca(const std::string& common_name = "kpw-test-ca");
// Signed by `ca`: subject CN `common_name`, the SANs exactly as given (DNS names may be any pattern),
// extendedKeyUsage clientAuth when `client`, else serverAuth. Throws std::runtime_error on an OpenSSL error.
test_pem issue_test_certificate(const test_pem& ca, const std::string& common_name,
                                const std::vector<std::string>& dns_names = {},
                                const std::vector<std::string>& ip_addresses = {}, bool client = false);

} // namespace kpw::test
