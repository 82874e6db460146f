// SPDX-License-Identifier: Apache-2.0
// server::live_snapshot against the fake API server: each --live-workloads kind is resolved by discovery
// (irregular plurals, a CRD's own plural), a kind the server does not serve holds nothing back and is
// picked up once its CRD is installed, and discovery is retried while the server is away.
#include "server/live_snapshot.hpp"

#include <doctest/doctest.h>

#include "webhook/kube/fake_apiserver.hpp"

using namespace kpw;
using kpw::test::eventually;
using kpw::test::fake_apiserver;
using namespace std::chrono_literals;

namespace {

const test::fake_resource clusters{"cluster.karmada.io", "v1alpha1", "clusters", "Cluster", false};
const test::fake_resource deployments{"apps", "v1", "deployments", "Deployment", true};
const test::fake_resource gateways{"gateway.networking.k8s.io", "v1", "gateways", "Gateway", true};
const test::fake_resource foozles{"example.com", "v1", "foozles", "Foo", true}; // not the English guess at all

std::string object(const std::string& api_version, const std::string& kind, const std::string& name)
{
    return R"({"apiVersion":")" + api_version + R"(","kind":")" + kind + R"(","metadata":{"name":")" + name +
           R"(","namespace":"web"},"spec":{"replicas":1}})";
}

struct plane {
    fake_apiserver api;
    server::metrics stats{"test"};
    server::logger log{0};
    std::shared_ptr<snapshot::holder> target = std::make_shared<snapshot::holder>();
    std::unique_ptr<server::live_snapshot> live;

    explicit plane(std::initializer_list<test::fake_resource> served)
    {
        for (const auto& r : served)
            api.add_resource(r);
        api.start();
        api.put("clusters", R"({"metadata":{"name":"member1"},"spec":{"syncMode":"Push"}})");
    }

    void start(const std::vector<std::string>& kinds, server::live_snapshot_options o = fast())
    {
        kube::rest_config config;
        config.server = api.url();
        config.ca_pem = api.ca_pem();
        kube::client_options copts;
        copts.connect_timeout = 2s;
        live = std::make_unique<server::live_snapshot>(config, copts, kinds, target, stats, log, o);
        live->start();
    }

    static server::live_snapshot_options fast()
    {
        server::live_snapshot_options o;
        o.discovery_backoff.initial = 20ms;
        o.discovery_backoff.cap = 100ms;
        o.rediscover = 100ms;
        return o;
    }

    std::size_t workloads() const
    {
        const auto s = target->current();
        return s ? s->workloads.size() : 0;
    }
    bool published() const { return target->current() != nullptr && target->current()->clusters.size() == 1; }
    bool metric(const std::string& line) const { return stats.render().find(line + "\n") != std::string::npos; }
    bool requested(const std::string& path) const
    {
        for (const auto& r : api.requests())
            if (r.path == path)
                return true;
        return false;
    }
};

} // namespace

TEST_CASE("live_snapshot: workload kinds are resolved by discovery: Gateway as gateways, a CRD's Foo as foozles")
{
    plane p({clusters, gateways, foozles});
    p.api.put("gateways", object("gateway.networking.k8s.io/v1", "Gateway", "edge"));
    p.api.put("foozles", object("example.com/v1", "Foo", "f1"));
    p.start({"gateway.networking.k8s.io/v1/Gateway", "example.com/v1/Foo"});
    REQUIRE(eventually([&] { return p.published() && p.workloads() == 2; }));
    CHECK(p.requested("/apis/gateway.networking.k8s.io/v1/gateways"));
    CHECK(p.requested("/apis/example.com/v1/foozles"));
    CHECK_FALSE(p.requested("/apis/gateway.networking.k8s.io/v1/gatewaies"));
    CHECK(p.metric(R"(karmada_policy_webhook_live_workload_kind_served{kind="example.com/v1/Foo"} 1)"));
    CHECK(p.metric(R"(karmada_policy_webhook_live_watch_state{resource="foozles.example.com",state="synced"} 1)"));
    // Watched as any other collection: a Foo added later is a known workload.
    p.api.put("foozles", object("example.com/v1", "Foo", "f2"));
    CHECK(eventually([&] { return p.workloads() == 3; }));
}

TEST_CASE("live_snapshot: a kind the server does not serve holds nothing back and is taken up once served")
{
    plane p({clusters, deployments});
    p.api.put("deployments", object("apps/v1", "Deployment", "nginx"));
    p.start({"apps/v1/Deployment", "example.com/v1/Foo"});
    // The Cluster snapshot is published, with the kinds that are served.
    REQUIRE(eventually([&] { return p.published() && p.workloads() == 1; }));
    CHECK(p.metric(R"(karmada_policy_webhook_live_workload_kind_served{kind="example.com/v1/Foo"} 0)"));
    CHECK(p.metric(R"(karmada_policy_webhook_live_workload_kind_served{kind="apps/v1/Deployment"} 1)"));
    // Its CRD installed later: discovery is asked again and its workloads arrive.
    p.api.add_resource(foozles);
    p.api.put("foozles", object("example.com/v1", "Foo", "f1"));
    REQUIRE(eventually([&] { return p.workloads() == 2; }));
    CHECK(p.metric(R"(karmada_policy_webhook_live_workload_kind_served{kind="example.com/v1/Foo"} 1)"));
}

TEST_CASE("live_snapshot: discovery is retried while the API server is away")
{
    plane p({clusters, gateways});
    p.api.put("gateways", object("gateway.networking.k8s.io/v1", "Gateway", "edge"));
    p.api.stop();
    p.start({"gateway.networking.k8s.io/v1/Gateway"});
    // Nothing to publish yet, and the kind is not called unserved for a server that cannot be reached.
    CHECK_FALSE(eventually([&] { return p.target->current() != nullptr; }, 300ms));
    CHECK(p.stats.render().find("live_workload_kind_served") == std::string::npos);
    p.api.start();
    REQUIRE(eventually([&] { return p.published() && p.workloads() == 1; }));
}

TEST_CASE("live_snapshot: --live-workloads is checked for its syntax only")
{
    const auto r = server::workload_resource("gateway.networking.k8s.io/v1/Gateway");
    REQUIRE(r);
    CHECK(r->group == "gateway.networking.k8s.io");
    CHECK(r->version == "v1");
    CHECK(r->kind == "Gateway");
    CHECK(r->resource.empty()); // discovery's to say
    CHECK(server::workload_resource("v1/Service"));
    for (const char* bad : {"Deployment", "apps/v1/", "/Deployment", "apps/v1/Deploy ment", "apps/v1/Deploy\"ment",
                            "a/b/c/Kind", "apps/v1/9Kind", "apps_x/v1/Kind"}) {
        CAPTURE(bad);
        const auto e = server::workload_resource(bad);
        REQUIRE_FALSE(e);
        CHECK(e.error().message.find("expected apiVersion/Kind") != std::string::npos);
    }
}
