// SPDX-License-Identifier: Apache-2.0
// kube::client against the in-process fake API server: discovery, list with pagination, get, watch, and
// the failures a user meets (unreachable, TLS, 401, 403, 404, timeouts, garbage, truncation).
#include "kube/client.hpp"

#include <doctest/doctest.h>

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <rapidjson/document.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <filesystem>
#include <iostream>
#include <set>
#include <sstream>
#include <thread>

#include "fake_apiserver.hpp"
#include "support/temp_dir.hpp"
#include "version.hpp"

using namespace kpw::kube;
using kpw::test::canned_reply;
using kpw::test::eventually;
using kpw::test::fake_apiserver;
using kpw::test::fake_resource;
using namespace std::chrono_literals;

namespace {

const fake_resource clusters_def{"cluster.karmada.io", "v1alpha1", "clusters", "Cluster", false};
const fake_resource deployments_def{"apps", "v1", "deployments", "Deployment", true};
const api_resource clusters{"cluster.karmada.io", "v1alpha1", "clusters", "Cluster", false, {}};
const api_resource deployments{"apps", "v1", "deployments", "Deployment", true, {}};

rest_config config_for(const fake_apiserver& s)
{
    rest_config c;
    c.server = s.url();
    c.ca_pem = s.ca_pem();
    c.token = "secret-token";
    c.context_name = "test";
    c.user_name = "alice";
    c.source = "test kubeconfig";
    return c;
}

std::string cluster(int i)
{
    return R"({"metadata":{"name":"member)" + std::to_string(i) + R"("},"spec":{"syncMode":"Push","n":)" +
           std::to_string(i) + "}}";
}

std::string deployment(const std::string& ns, const std::string& name)
{
    return R"({"metadata":{"name":")" + name + R"(","namespace":")" + ns + R"("},"spec":{"replicas":2}})";
}

struct served {
    fake_apiserver server;
    served(fake_apiserver::options o = {}) : server(o)
    {
        server.add_resource(clusters_def);
        server.add_resource(deployments_def);
        server.start();
    }
};

// A port nothing listens on: bound once, then closed.
unsigned short closed_port()
{
    boost::asio::io_context ioc;
    boost::asio::ip::tcp::acceptor a(ioc, {boost::asio::ip::make_address("127.0.0.1"), 0});
    return a.local_endpoint().port();
}

bool contains(const std::string& text, const std::string& part)
{
    return text.find(part) != std::string::npos;
}

} // namespace

TEST_CASE("client: a list of 1,050 objects comes page by page and reads as kubectl's List")
{
    served s;
    for (int i = 0; i < 1050; ++i)
        s.server.put("clusters", cluster(i));
    client_options o;
    o.page_size = 400;
    client c(config_for(s.server), o);
    auto listed = c.list(clusters);
    REQUIRE_MESSAGE(listed.ok(), (listed.ok() ? "" : listed.error().message));
    CHECK(listed->items == 1050);
    CHECK(listed->resource_version == s.server.resource_version());

    std::vector<std::string> continues;
    for (const auto& r : s.server.requests())
        if (r.path == "/apis/cluster.karmada.io/v1alpha1/clusters") {
            CHECK(r.query.at("limit") == "400");
            continues.push_back(r.query.count("continue") ? r.query.at("continue") : "");
        }
    REQUIRE(continues.size() == 3);
    CHECK(continues[0].empty());
    CHECK(continues[1] == "e1/o400=="); // escaped on the wire, decoded by the server
    CHECK(continues[2] == "e1/o800==");

    rapidjson::Document d;
    d.Parse(listed->json.c_str());
    REQUIRE_FALSE(d.HasParseError());
    CHECK(std::string(d["apiVersion"].GetString()) == "v1");
    CHECK(std::string(d["kind"].GetString()) == "List");
    CHECK(std::string(d["metadata"]["resourceVersion"].GetString()) == listed->resource_version);
    REQUIRE(d["items"].Size() == 1050);
    std::set<std::string> names;
    for (const auto& item : d["items"].GetArray()) {
        CHECK(std::string(item["apiVersion"].GetString()) == "cluster.karmada.io/v1alpha1");
        CHECK(std::string(item["kind"].GetString()) == "Cluster");
        CHECK(std::string(item["spec"]["syncMode"].GetString()) == "Push");
        names.insert(item["metadata"]["name"].GetString());
    }
    CHECK(names.size() == 1050);
    CHECK(s.server.connections() == 1); // one kept-alive connection for the three pages
}

TEST_CASE("client: 10,000 objects are listed whole")
{
    served s;
    for (int i = 0; i < 10000; ++i)
        s.server.put("deployments", deployment(std::string("ns").append(std::to_string(i % 7)),
                                               std::string("d").append(std::to_string(i))));
    client c(config_for(s.server));
    auto listed = c.list(deployments);
    REQUIRE(listed.ok());
    CHECK(listed->items == 10000);
    rapidjson::Document d;
    d.Parse(listed->json.c_str());
    REQUIRE(d["items"].Size() == 10000);
    CHECK(std::string(d["items"][9999]["kind"].GetString()) == "Deployment");

    auto one_namespace = c.list(deployments, "ns3");
    REQUIRE(one_namespace.ok());
    CHECK(one_namespace->items == 1429);
    CHECK(s.server.requests().back().path == "/apis/apps/v1/namespaces/ns3/deployments");
}

TEST_CASE("client: a continue token that expires restarts the list once from the beginning")
{
    served s;
    for (int i = 0; i < 25; ++i)
        s.server.put("clusters", cluster(i));
    int pages = 0;
    s.server.on_request([&](const kpw::test::recorded_request& r) {
        if (r.query.count("continue") && ++pages == 1)
            s.server.expire_continue_tokens(); // the second page's token is now too old
    });
    client_options o;
    o.page_size = 10;
    client c(config_for(s.server), o);
    auto listed = c.list(clusters);
    REQUIRE_MESSAGE(listed.ok(), (listed.ok() ? "" : listed.error().message));
    CHECK(listed->items == 25); // no duplicates from the abandoned first attempt
    CHECK(s.server.requests().size() == 5); // page 1, page 2 (410), pages 1-3 again

    s.server.on_request([&](const kpw::test::recorded_request& r) {
        if (r.query.count("continue"))
            s.server.expire_continue_tokens(); // every token expires: the one restart is not enough
    });
    auto again = c.list(clusters);
    REQUIRE_FALSE(again.ok());
    CHECK(c.last_error_kind() == error_kind::gone);
}

TEST_CASE("client: headers carry the User-Agent, Accept and the bearer token")
{
    served s;
    client c(config_for(s.server));
    REQUIRE(c.list(clusters).ok());
    const auto r = s.server.requests().back();
    CHECK(r.user_agent == std::string("karmada-policy-webhook/") + KPW_VERSION);
    CHECK(r.accept == "application/json");
    CHECK(r.authorization == "Bearer secret-token");

    client_options o;
    o.user_agent = "kpw-test/1";
    client named(config_for(s.server), o);
    REQUIRE(named.list(clusters).ok());
    CHECK(s.server.requests().back().user_agent == "kpw-test/1");
}

TEST_CASE("client: discovery finds a kind, misses an unknown kind or group version, and caches")
{
    served s;
    client c(config_for(s.server));
    auto found = c.resolve("cluster.karmada.io/v1alpha1", "Cluster");
    REQUIRE(found.ok());
    REQUIRE(found->has_value());
    CHECK((*found)->resource == "clusters"); // not the clusters/status subresource
    CHECK_FALSE((*found)->namespaced);
    CHECK((*found)->api_version() == "cluster.karmada.io/v1alpha1");
    CHECK((*found)->path() == "/apis/cluster.karmada.io/v1alpha1/clusters");

    auto deploy = c.resolve("apps/v1", "Deployment");
    REQUIRE(deploy.ok());
    REQUIRE(deploy->has_value());
    CHECK((*deploy)->namespaced);
    CHECK((*deploy)->path("web") == "/apis/apps/v1/namespaces/web/deployments");

    const auto before = s.server.requests().size();
    auto again = c.resolve("cluster.karmada.io/v1alpha1", "Cluster");
    auto other_kind = c.resolve("cluster.karmada.io/v1alpha1", "ClusterTaintPolicy");
    REQUIRE(again.ok());
    REQUIRE(other_kind.ok());
    CHECK(again->has_value());
    CHECK_FALSE(other_kind->has_value());
    CHECK(s.server.requests().size() == before); // both answered from the cache

    auto missing_group = c.resolve("policy.karmada.io/v1alpha1", "PropagationPolicy");
    REQUIRE(missing_group.ok());
    CHECK_FALSE(missing_group->has_value());
    CHECK(s.server.requests().back().path == "/apis/policy.karmada.io/v1alpha1");

    auto core = c.resolve("v1", "ConfigMap");
    REQUIRE(core.ok());
    CHECK_FALSE(core->has_value());
    CHECK(s.server.requests().back().path == "/api/v1");
}

TEST_CASE("client: get returns the object with apiVersion and kind, nullopt on 404")
{
    served s;
    s.server.put("deployments", deployment("web", "nginx"));
    client c(config_for(s.server));
    auto got = c.get(deployments, "web", "nginx");
    REQUIRE(got.ok());
    REQUIRE(got->has_value());
    CHECK((*got)->starts_with(R"({"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"nginx")"));
    auto missing = c.get(deployments, "web", "absent");
    REQUIRE(missing.ok());
    CHECK_FALSE(missing->has_value());
    CHECK(s.server.requests().back().path == "/apis/apps/v1/namespaces/web/deployments/absent");
}

TEST_CASE("client: a 401 re-reads the token file and succeeds with the rotated token")
{
    served s;
    kpw::test::temp_dir dir;
    const auto file = dir.write("token", "old-token\n");
    s.server.require_token("old-token");
    rest_config config = config_for(s.server);
    config.token.clear();
    config.token_file = file.string();
    client c(config);
    REQUIRE(c.list(clusters).ok());

    s.server.require_token("new-token"); // the kubelet rotated the service account token
    dir.write("token", "new-token\n");
    auto listed = c.list(clusters);
    REQUIRE_MESSAGE(listed.ok(), (listed.ok() ? "" : listed.error().message));
    const auto r = s.server.requests();
    REQUIRE(r.size() == 3);
    CHECK(r[1].authorization == "Bearer old-token");
    CHECK(r[2].authorization == "Bearer new-token");
}

TEST_CASE("client: a 401 with a static token fails once, naming the identity but not the token")
{
    served s;
    s.server.require_token("the-right-one");
    client c(config_for(s.server));
    auto listed = c.list(clusters);
    REQUIRE_FALSE(listed.ok());
    CHECK(c.last_error_kind() == error_kind::unauthorized);
    const auto& m = listed.error().message;
    CHECK(contains(m, "the API server rejected the credentials of user alice in context test (test kubeconfig) "
                      "(401 Unauthorized) while listing clusters.cluster.karmada.io"));
    CHECK_FALSE(contains(m, "secret-token"));
    CHECK(s.server.requests().size() == 1); // nothing could change: no retry
}

TEST_CASE("client: a 403 names the verb, the resource, the namespace, the identity and the server's reason")
{
    served s;
    s.server.forbid("deployments", "deployments.apps is forbidden: User \"alice\" cannot list resource \"deployments\" "
                                   "in API group \"apps\" in the namespace \"web\"");
    client c(config_for(s.server));
    auto listed = c.list(deployments, "web");
    REQUIRE_FALSE(listed.ok());
    CHECK(c.last_error_kind() == error_kind::forbidden);
    const auto& m = listed.error().message;
    CHECK(contains(m, "user alice in context test (test kubeconfig) may not list deployments.apps in namespace web "
                      "(403 Forbidden)"));
    CHECK(contains(m, "the server said \"deployments.apps is forbidden: User \"alice\" cannot list resource"));
}

TEST_CASE("client: a 404 collection is not_found; an unserved Karmada group asks whether this is karmada-apiserver")
{
    served s;
    client c(config_for(s.server));
    const api_resource unknown{"example.com", "v1", "widgets", "Widget", false, {}};
    auto listed = c.list(unknown);
    REQUIRE_FALSE(listed.ok());
    CHECK(c.last_error_kind() == error_kind::not_found);
    CHECK(contains(listed.error().message, "widgets.example.com (404 Not Found)"));

    s.server.respond("/apis/work.karmada.io/v1alpha2", {500, R"({"kind":"Status","message":"etcd is down"})"});
    auto resolved = c.resolve("work.karmada.io/v1alpha2", "ResourceBinding");
    REQUIRE_FALSE(resolved.ok());
    CHECK(c.last_error_kind() == error_kind::server);
    CHECK(contains(resolved.error().message, "etcd is down"));
    CHECK(contains(resolved.error().message, "is this karmada-apiserver?"));

    // Refused credentials on a Karmada group are what they are, not a hint at the wrong server.
    s.server.require_token("someone-else");
    resolved = c.resolve("cluster.karmada.io/v1alpha1", "Cluster");
    REQUIRE_FALSE(resolved.ok());
    CHECK(c.last_error_kind() == error_kind::unauthorized);
    CHECK_FALSE(contains(resolved.error().message, "is this karmada-apiserver?"));
}

TEST_CASE("client: a closed port fails fast as unreachable with kubectl's hint")
{
    const unsigned short port = closed_port();
    rest_config config;
    config.server = "https://127.0.0.1:" + std::to_string(port);
    client c(config);
    const auto started = std::chrono::steady_clock::now();
    auto listed = c.list(clusters);
    REQUIRE_FALSE(listed.ok());
    CHECK(std::chrono::steady_clock::now() - started < 2s);
    CHECK(c.last_error_kind() == error_kind::unreachable);
    CHECK(listed.error().message == "cannot reach " + config.server + " (connection refused); is the API server "
                                                                       "running and is this the right --kubeconfig/--context?");
}

TEST_CASE("client: a certificate from another CA fails TLS verification and says what to set")
{
    served s;
    fake_apiserver other;
    rest_config config = config_for(s.server);
    config.ca_pem = other.ca_pem();
    client c(config);
    auto listed = c.list(clusters);
    REQUIRE_FALSE(listed.ok());
    CHECK(c.last_error_kind() == error_kind::tls);
    CHECK(contains(listed.error().message, "cannot verify the certificate of " + config.server));
    CHECK(contains(listed.error().message, "certificate-authority"));
    CHECK(s.server.requests().empty());
}

TEST_CASE("client: a certificate without the server's name fails and names what it lacks and what it has")
{
    fake_apiserver::options o;
    o.ip_addresses = {};
    o.dns_names = {"karmada-apiserver.karmada-system.svc"};
    served s(o);
    rest_config config = config_for(s.server);
    client c(config);
    auto listed = c.list(clusters);
    REQUIRE_FALSE(listed.ok());
    CHECK(c.last_error_kind() == error_kind::tls);
    CHECK(contains(listed.error().message, "is not valid for IP address 127.0.0.1 (it names "
                                           "DNS:karmada-apiserver.karmada-system.svc)"));
    CHECK(contains(listed.error().message, "tls-server-name"));

    config.tls_server_name = "wrong.example";
    client named_wrong(config);
    auto wrong = named_wrong.list(clusters);
    REQUIRE_FALSE(wrong.ok());
    CHECK(contains(wrong.error().message, "is not valid for the name wrong.example"));

    config.tls_server_name = "karmada-apiserver.karmada-system.svc";
    client named(config);
    CHECK(named.list(clusters).ok());
}

TEST_CASE("client: insecure-skip-tls-verify connects without the CA")
{
    served s;
    rest_config config = config_for(s.server);
    config.ca_pem.clear();
    config.insecure_skip_tls_verify = true;
    client c(config);
    CHECK(c.list(clusters).ok());
}

TEST_CASE("client: plain http:// servers work (loopback tests)")
{
    fake_apiserver::options o;
    o.tls = false;
    served s(o);
    s.server.put("clusters", cluster(1));
    client c(config_for(s.server));
    auto listed = c.list(clusters);
    REQUIRE(listed.ok());
    CHECK(listed->items == 1);
}

TEST_CASE("client: a server that never replies fails at the request timeout")
{
    served s;
    s.server.stall("/apis/cluster.karmada.io/v1alpha1/clusters");
    client_options o;
    o.request_timeout = 300ms;
    client c(config_for(s.server), o);
    const auto started = std::chrono::steady_clock::now();
    auto listed = c.list(clusters);
    const auto took = std::chrono::steady_clock::now() - started;
    REQUIRE_FALSE(listed.ok());
    CHECK(took >= 300ms);
    CHECK(took < 3s);
    CHECK(c.last_error_kind() == error_kind::unreachable);
    CHECK(contains(listed.error().message, "no reply from " + s.server.url() + " within 300 ms while listing clusters"));
}

TEST_CASE("client: garbage, a wrong shape, a truncated body and an oversized body are bad replies")
{
    served s;
    const std::string path = "/apis/cluster.karmada.io/v1alpha1/clusters";
    client_options o;
    o.max_body_bytes = 4096;
    client c(config_for(s.server), o);

    s.server.respond(path, {200, "<html>not json</html>"});
    auto garbage = c.list(clusters);
    REQUIRE_FALSE(garbage.ok());
    CHECK(c.last_error_kind() == error_kind::bad_reply);
    CHECK(contains(garbage.error().message, "is not JSON"));

    s.server.respond(path, {200, R"({"kind":"Status"})"});
    auto shape = c.list(clusters);
    REQUIRE_FALSE(shape.ok());
    CHECK(contains(shape.error().message, "no items array"));

    const std::string body = R"({"kind":"ClusterList","metadata":{},"items":[{"metadata":{"name":"a"}}]})";
    s.server.respond(path, {200, body, 20});
    auto cut = c.list(clusters);
    REQUIRE_FALSE(cut.ok());
    CHECK(c.last_error_kind() == error_kind::bad_reply);
    CHECK(contains(cut.error().message, "was cut off"));

    s.server.respond(path, {200, R"({"items":[)" + std::string(5000, ' ') + "]}"});
    auto large = c.list(clusters);
    REQUIRE_FALSE(large.ok());
    CHECK(contains(large.error().message, "larger than 4096 bytes"));

    s.server.respond(path, {200, R"({"kind":"ClusterList","metadata":{"resourceVersion":"7"},"items":[]})"});
    auto fine = c.list(clusters); // the client recovers on a new connection
    REQUIRE(fine.ok());
    CHECK(fine->resource_version == "7");
}

TEST_CASE("client: a connection the server closed is replaced for the next request")
{
    fake_apiserver::options o;
    served s(o);
    client c(config_for(s.server));
    REQUIRE(c.list(clusters).ok());
    s.server.stop();
    s.server.start(); // same port: the kept-alive connection is gone
    auto again = c.list(clusters);
    REQUIRE_MESSAGE(again.ok(), (again.ok() ? "" : again.error().message));
    CHECK(s.server.connections() == 2);
}

TEST_CASE("client: watch delivers events in order, bookmarks included, until stopped")
{
    served s;
    s.server.put("clusters", cluster(1));
    client c(config_for(s.server));
    auto listed = c.list(clusters);
    REQUIRE(listed.ok());
    std::atomic<bool> stop{false};
    std::vector<watch_event> events;
    std::mutex m;
    kpw::result<bool> outcome = kpw::failure{"not run", {}};
    std::thread t([&] {
        outcome = c.watch(
            clusters, {}, listed->resource_version,
            [&](const watch_event& e) {
                std::lock_guard lock(m);
                events.push_back(e);
            },
            stop);
    });
    REQUIRE(eventually([&] { return s.server.open_watches() == 1; }));
    s.server.put("clusters", cluster(2));
    s.server.put("clusters", cluster(1));
    s.server.send_bookmark("clusters");
    s.server.remove("clusters", "", "member2");
    REQUIRE(eventually([&] {
        std::lock_guard lock(m);
        return events.size() == 4;
    }));
    stop = true;
    t.join();
    REQUIRE(outcome.ok());
    CHECK_FALSE(*outcome); // stopped, not ended by the server
    CHECK(events[0].type == watch_event::kind::added);
    CHECK(events[0].name == "member2");
    CHECK(events[0].object.starts_with(R"({"apiVersion":"cluster.karmada.io/v1alpha1","kind":"Cluster")"));
    CHECK(events[1].type == watch_event::kind::modified);
    CHECK(events[2].type == watch_event::kind::bookmark);
    CHECK(events[3].type == watch_event::kind::deleted);
    CHECK(events[3].resource_version == s.server.resource_version());
    const auto r = s.server.requests().back();
    CHECK(r.query.at("watch") == "1");
    CHECK(r.query.at("resourceVersion") == listed->resource_version);
    CHECK(r.query.at("allowWatchBookmarks") == "true");
}

namespace {

// Runs a watch on its own thread until it returns; the test acts on the server meanwhile.
struct watch_run {
    client& c;
    std::atomic<bool> stop{false};
    std::atomic<int> events{0};
    kpw::result<bool> outcome = kpw::failure{"not run", {}};
    std::thread t;
    explicit watch_run(client& cl, const std::string& rv) : c(cl)
    {
        t = std::thread([this, rv] { outcome = c.watch(clusters, {}, rv, [this](const watch_event&) { ++events; }, stop); });
    }
    ~watch_run()
    {
        stop = true;
        if (t.joinable())
            t.join();
    }
    void join() { t.join(); }
};

} // namespace

TEST_CASE("client: a watch that breaks mid-event, sends garbage or a 410 ERROR ends as a failure of its kind")
{
    served s;
    client c(config_for(s.server));

    SUBCASE("broken between events")
    {
        watch_run w(c, s.server.resource_version());
        REQUIRE(eventually([&] { return s.server.open_watches() == 1; }));
        s.server.break_watches("clusters", false);
        w.join();
        REQUIRE_FALSE(w.outcome.ok());
        CHECK(contains(w.outcome.error().message, "cut off"));
    }
    SUBCASE("broken mid-event")
    {
        watch_run w(c, s.server.resource_version());
        REQUIRE(eventually([&] { return s.server.open_watches() == 1; }));
        s.server.put("clusters", cluster(3));
        REQUIRE(eventually([&] { return w.events == 1; }));
        s.server.break_watches("clusters", true);
        w.join();
        REQUIRE_FALSE(w.outcome.ok());
        CHECK(contains(w.outcome.error().message, "watching clusters.cluster.karmada.io"));
    }
    SUBCASE("garbage line")
    {
        watch_run w(c, s.server.resource_version());
        REQUIRE(eventually([&] { return s.server.open_watches() == 1; }));
        s.server.send_line("clusters", "{\"type\":\"ADDED\",\"object\":");
        w.join();
        REQUIRE_FALSE(w.outcome.ok());
        CHECK(c.last_error_kind() == error_kind::undecodable); // the reflector re-lists, unlike after a cut
        CHECK(contains(w.outcome.error().message, "garbage"));
    }
    SUBCASE("429 ERROR event, and a 429 reply")
    {
        watch_run w(c, s.server.resource_version());
        REQUIRE(eventually([&] { return s.server.open_watches() == 1; }));
        s.server.send_line("clusters", R"({"type":"ERROR","object":{"kind":"Status","apiVersion":"v1","status":"Failure",)"
                                       R"("message":"too many requests","reason":"TooManyRequests","code":429}})");
        w.join();
        REQUIRE_FALSE(w.outcome.ok());
        CHECK(c.last_error_kind() == error_kind::throttled); // the reflector backs off and watches again
        s.server.respond("/apis/cluster.karmada.io/v1alpha1/clusters", {429, R"({"kind":"Status","code":429})"});
        auto listed = c.list(clusters);
        REQUIRE_FALSE(listed.ok());
        CHECK(c.last_error_kind() == error_kind::throttled);
        CHECK(contains(listed.error().message, "429 Too Many Requests"));
    }
    SUBCASE("410 ERROR event")
    {
        watch_run w(c, s.server.resource_version());
        REQUIRE(eventually([&] { return s.server.open_watches() == 1; }));
        s.server.send_gone("clusters");
        w.join();
        REQUIRE_FALSE(w.outcome.ok());
        CHECK(c.last_error_kind() == error_kind::gone);
        CHECK(contains(w.outcome.error().message, "(410)"));
    }
    SUBCASE("a compacted resourceVersion")
    {
        s.server.put("clusters", cluster(4));
        const std::string old = "100";
        s.server.compact();
        watch_run w(c, old);
        w.join();
        REQUIRE_FALSE(w.outcome.ok());
        CHECK(c.last_error_kind() == error_kind::gone);
    }
    SUBCASE("the server ends the stream cleanly")
    {
        watch_run w(c, s.server.resource_version());
        REQUIRE(eventually([&] { return s.server.open_watches() == 1; }));
        s.server.end_watches("clusters");
        w.join();
        REQUIRE(w.outcome.ok());
        CHECK(*w.outcome);
    }
}

TEST_CASE("client: a request timeout of 0 or milliseconds::max() (--request-timeout 0) means no deadline")
{
    served s;
    s.server.put("clusters", cluster(1));
    for (const auto timeout : {std::chrono::milliseconds::max(), std::chrono::milliseconds::zero()}) {
        CAPTURE(timeout.count());
        client_options o;
        o.request_timeout = timeout; // kube_flags maps --request-timeout 0 to milliseconds::max()
        client c(config_for(s.server), o);
        auto listed = c.list(clusters);
        REQUIRE_MESSAGE(listed.ok(), (listed.ok() ? "" : listed.error().message));
        CHECK(listed->items == 1);
        auto got = c.get(clusters, {}, "member1");
        REQUIRE_MESSAGE(got.ok(), (got.ok() ? "" : got.error().message));
        CHECK(got->has_value());

        std::atomic<bool> stop{false};
        std::atomic<int> events{0};
        kpw::result<bool> outcome = kpw::failure{"not run", {}};
        std::thread t([&] {
            outcome = c.watch(clusters, {}, listed->resource_version, [&](const watch_event&) { ++events; }, stop);
        });
        const bool opened = eventually([&] { return s.server.open_watches() == 1; }, 5s);
        if (opened)
            s.server.put("clusters", cluster(2));
        CHECK(eventually([&] { return events.load() >= 1; }, 5s));
        stop = true;
        t.join();
        REQUIRE_MESSAGE(outcome.ok(), (outcome.ok() ? "" : outcome.error().message));
        CHECK(opened);
        s.server.remove("clusters", "", "member2");
    }
}

namespace {

// A server whose certificate says `common_name` and names exactly `dns_names`, and a config for it
// that checks the certificate against `server_name`.
struct named_server {
    fake_apiserver server;
    rest_config config;
    named_server(const std::string& common_name, std::vector<std::string> dns_names, const std::string& server_name)
        : server([&] {
              fake_apiserver::options o;
              o.serving_common_name = common_name;
              o.dns_names = std::move(dns_names);
              o.ip_addresses = {};
              return o;
          }())
    {
        server.add_resource(clusters_def);
        server.start();
        config = config_for(server);
        config.tls_server_name = server_name;
    }
};

} // namespace

TEST_CASE("client: host names are checked as Go's VerifyHostname: no CN fallback, no partial wildcards")
{
    SUBCASE("the right CN without a subjectAltName is refused")
    {
        named_server n("api.example.test", {}, "api.example.test");
        client c(n.config);
        auto listed = c.list(clusters);
        REQUIRE_FALSE(listed.ok());
        CHECK(c.last_error_kind() == error_kind::tls);
        CHECK(contains(listed.error().message, "is not valid for the name api.example.test (it names no "
                                               "subjectAltName)"));
        CHECK(n.server.requests().empty());
    }
    SUBCASE("a partial wildcard matches nothing")
    {
        named_server n("wildcard", {"f*.example.test"}, "foo.example.test");
        client c(n.config);
        auto listed = c.list(clusters);
        REQUIRE_FALSE(listed.ok());
        CHECK(c.last_error_kind() == error_kind::tls);
        CHECK(contains(listed.error().message, "is not valid for the name foo.example.test (it names "
                                               "DNS:f*.example.test)"));
    }
    SUBCASE("a whole leftmost wildcard matches one label, not two")
    {
        named_server n("wildcard", {"*.example.test"}, "api.example.test");
        client c(n.config);
        auto listed = c.list(clusters);
        CHECK_MESSAGE(listed.ok(), (listed.ok() ? "" : listed.error().message));

        n.config.tls_server_name = "api.example.test."; // the absolute form of the same name
        client absolute(n.config);
        auto same = absolute.list(clusters);
        CHECK_MESSAGE(same.ok(), (same.ok() ? "" : same.error().message));

        n.config.tls_server_name = "a.b.example.test";
        client deeper(n.config);
        auto refused = deeper.list(clusters);
        REQUIRE_FALSE(refused.ok());
        CHECK(contains(refused.error().message, "is not valid for the name a.b.example.test"));
    }
}

namespace {

// Collects what is written to std::cerr while it lives.
struct captured_stderr {
    std::ostringstream text;
    std::streambuf* old = std::cerr.rdbuf(text.rdbuf());
    ~captured_stderr() { std::cerr.rdbuf(old); }
};

std::size_t count_of(const std::string& text, const std::string& part)
{
    std::size_t n = 0;
    for (auto at = text.find(part); at != std::string::npos; at = text.find(part, at + 1))
        ++n;
    return n;
}

} // namespace

TEST_CASE("client: credentials sent to an http:// server are warned about once, naming the kind but not the secret")
{
    fake_apiserver::options o;
    o.tls = false;
    served plain(o);
    served tls;

    SUBCASE("a bearer token over http://")
    {
        captured_stderr err;
        client c(config_for(plain.server));
        REQUIRE(c.list(clusters).ok());
        REQUIRE(c.list(clusters).ok());
        const std::string text = err.text.str();
        CHECK(count_of(text, "warning: ") == 1);
        CHECK(contains(text, "warning: " + plain.server.url() + " is an http:// address, so the bearer token of "
                                                                  "user alice in context test (test kubeconfig) is sent "
                                                                  "unencrypted"));
        CHECK(contains(text, "use the API server's https:// address"));
        CHECK_FALSE(contains(text, "secret-token"));
    }
    SUBCASE("basic auth over http://")
    {
        captured_stderr err;
        rest_config config = config_for(plain.server);
        config.token.clear();
        config.username = "admin";
        config.password = "pa55word";
        client c(config);
        REQUIRE(c.list(clusters).ok());
        CHECK(contains(err.text.str(), "so the basic-auth password of user alice"));
        CHECK_FALSE(contains(err.text.str(), "pa55word"));
    }
    SUBCASE("no credentials over http://, or a token over https://: no warning")
    {
        captured_stderr err;
        rest_config anonymous = config_for(plain.server);
        anonymous.token.clear();
        client a(anonymous);
        REQUIRE(a.list(clusters).ok());
        client b(config_for(tls.server));
        REQUIRE(b.list(clusters).ok());
        CHECK(err.text.str().empty());
    }
}

TEST_CASE("client: a client certificate an exec plugin re-issues after a 401 is presented on a new connection")
{
    const auto client_ca = kpw::test::make_test_ca("client-ca");
    const auto first = kpw::test::issue_test_certificate(client_ca, "alice-1", {}, {}, true);
    const auto second = kpw::test::issue_test_certificate(client_ca, "alice-2", {}, {}, true);
    fake_apiserver::options o;
    o.client_ca_pem = client_ca.crt;
    served s(o);
    s.server.accept_client_names({"alice-1"});

    // The plugin hands out the first certificate on its first run, the second on every later one.
    kpw::test::temp_dir dir;
    const auto credential = [](const kpw::test::test_pem& pem) {
        rapidjson::StringBuffer b;
        rapidjson::Writer<rapidjson::StringBuffer> w(b);
        w.StartObject();
        w.Key("apiVersion");
        w.String("client.authentication.k8s.io/v1");
        w.Key("kind");
        w.String("ExecCredential");
        w.Key("status");
        w.StartObject();
        w.Key("clientCertificateData");
        w.String(pem.crt.c_str());
        w.Key("clientKeyData");
        w.String(pem.key.c_str());
        w.EndObject();
        w.EndObject();
        return std::string(b.GetString()) + "\n";
    };
    dir.write("first.json", credential(first));
    dir.write("second.json", credential(second));
    const auto plugin = dir.write("plugin", "#!/bin/sh\nD='" + dir.path.string() + "'\n"
                                            "if [ -e \"$D/ran\" ]; then cat \"$D/second.json\"; else : > \"$D/ran\"; cat \"$D/first.json\"; fi\n");
    std::filesystem::permissions(plugin, std::filesystem::perms::owner_all);

    rest_config config = config_for(s.server);
    config.token.clear();
    config.exec = exec_config{.api_version = "client.authentication.k8s.io/v1",
                              .command = plugin.string(),
                              .args = {},
                              .env = {},
                              .install_hint = "",
                              .provide_cluster_info = false,
                              .interactive_mode = "Never"};
    client c(config);
    auto before = c.list(clusters);
    REQUIRE_MESSAGE(before.ok(), (before.ok() ? "" : before.error().message));

    s.server.accept_client_names({"alice-2"}); // the first certificate was revoked
    auto after = c.list(clusters);
    REQUIRE_MESSAGE(after.ok(), (after.ok() ? "" : after.error().message));
    std::vector<std::string> presented;
    for (const auto& r : s.server.requests())
        presented.push_back(r.client_cn);
    CHECK(presented == std::vector<std::string>{"alice-1", "alice-1", "alice-2"}); // the 401, then the retry
    CHECK(s.server.connections() == 2);
}
