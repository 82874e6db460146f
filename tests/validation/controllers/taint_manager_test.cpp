// SPDX-License-Identifier: Apache-2.0
// The taint manager (day2-semantics §4.4) and GracefulEvictCluster (§4.5).
#include <doctest/doctest.h>

#include "controllers/evict_cluster.hpp"
#include "controllers/taint_manager.hpp"

using namespace kpw;
using controllers::eviction_verdict;

namespace {

settings::controller_settings eviction_on()
{
    settings::controller_settings s;
    s.gates.set("Failover", true);
    s.enable_no_execute_taint_eviction = true;
    return s;
}

model::cluster tainted(std::optional<model::timestamp> added)
{
    model::cluster c;
    c.name = "idc-east-1";
    model::taint t{"maintenance", "true", "NoExecute"};
    t.time_added = added;
    c.taints = {{"cluster.karmada.io/not-ready", "", "NoSchedule"}, t};
    return c;
}

model::binding on(std::string_view tolerations)
{
    model::binding b;
    b.kind = "ResourceBinding";
    b.namespace_ = "shop";
    b.name = "web-deployment";
    b.generation = 3;
    b.clusters = {{"idc-east-1", 4, {}}, {"cloud-east-1", 2, {}}};
    b.annotations["policy.karmada.io/applied-placement"] =
        R"({"clusterAffinity":{"clusterNames":["idc-east-1"]},"clusterTolerations":)" + std::string(tolerations) + "}";
    return b;
}

} // namespace

TEST_CASE("an untolerated NoExecute taint evicts now")
{
    auto a = controllers::assess_eviction(on("[]"), tainted(100), eviction_on(), 150);
    CHECK(a.verdict == eviction_verdict::evict_now);
}

TEST_CASE("a toleration with seconds evicts at timeAdded + seconds, and now once that has passed")
{
    auto b = on(R"([{"key":"maintenance","operator":"Exists","effect":"NoExecute","tolerationSeconds":300}])");
    auto later = controllers::assess_eviction(b, tainted(100), eviction_on(), 150);
    CHECK(later.verdict == eviction_verdict::evict_at);
    CHECK(later.at == 400);
    CHECK(controllers::assess_eviction(b, tainted(100), eviction_on(), 400).verdict == eviction_verdict::evict_now);
    auto zero = on(R"([{"key":"maintenance","operator":"Exists","tolerationSeconds":0}])");
    CHECK(controllers::assess_eviction(zero, tainted(100), eviction_on(), 100).verdict == eviction_verdict::evict_now);
}

TEST_CASE("a toleration without seconds, or a taint without timeAdded, tolerates forever")
{
    auto forever = on(R"([{"key":"maintenance","operator":"Equal","value":"true"}])");
    CHECK(controllers::assess_eviction(forever, tainted(100), eviction_on(), 150).verdict ==
          eviction_verdict::tolerate_forever);
    auto seconds = on(R"([{"operator":"Exists","tolerationSeconds":10}])");
    CHECK(controllers::assess_eviction(seconds, tainted(std::nullopt), eviction_on(), 150).verdict ==
          eviction_verdict::tolerate_forever);
    auto wrong_value = on(R"([{"key":"maintenance","operator":"Equal","value":"false"}])");
    CHECK(controllers::assess_eviction(wrong_value, tainted(100), eviction_on(), 150).verdict ==
          eviction_verdict::evict_now);
    auto lt = on(R"([{"key":"maintenance","operator":"Lt","value":"5"}])");
    CHECK(controllers::assess_eviction(lt, tainted(100), eviction_on(), 150).verdict == eviction_verdict::evict_now);
}

TEST_CASE("gate off, taint manager off or eviction flag off: inactive, with the reason")
{
    auto s = eviction_on();
    s.gates.set("Failover", false);
    auto gate = controllers::assess_eviction(on("[]"), tainted(1), s, 2);
    CHECK(gate.verdict == eviction_verdict::inactive);
    CHECK(gate.reason == "the taint manager is not running: feature gate Failover is off");
    CHECK_FALSE(controllers::taint_manager_registered(s));
    s = eviction_on();
    s.enable_taint_manager = false;
    CHECK(controllers::assess_eviction(on("[]"), tainted(1), s, 2).reason ==
          "the taint manager is not running: --enable-taint-manager=false");
    s = eviction_on();
    s.enable_no_execute_taint_eviction = false;
    CHECK(controllers::taint_manager_registered(s));
    CHECK(controllers::assess_eviction(on("[]"), tainted(1), s, 2).reason ==
          "the taint manager does not evict: --enable-no-execute-taint-eviction=false");
    CHECK(controllers::assess_eviction(on("[]"), tainted(1), settings::controller_settings{}, 2).verdict ==
          eviction_verdict::inactive);
    model::cluster only_no_schedule = tainted(1);
    only_no_schedule.taints.pop_back();
    CHECK_FALSE(controllers::taint_manager_acts_on(only_no_schedule, eviction_on()));
}

TEST_CASE("a binding not on the cluster, or without its applied placement, is left alone")
{
    auto elsewhere = on("[]");
    elsewhere.clusters = {{"cloud-east-1", 2, {}}};
    CHECK(controllers::assess_eviction(elsewhere, tainted(1), eviction_on(), 2).verdict ==
          eviction_verdict::not_a_target);
    auto bare = on("[]");
    bare.annotations.clear();
    auto a = controllers::assess_eviction(bare, tainted(1), eviction_on(), 2);
    CHECK(a.verdict == eviction_verdict::error);
    CHECK(a.reason == "the applied placement for ResourceBining can not be empty");
}

TEST_CASE("purge mode: the binding's failover.cluster first, else the flag, anything but Directly is Gracefully")
{
    auto s = eviction_on();
    auto b = on("[]");
    CHECK(controllers::eviction_purge_mode(b, s) == "Gracefully");
    s.no_execute_taint_eviction_purge_mode = "Directly";
    CHECK(controllers::eviction_purge_mode(b, s) == "Directly");
    s.no_execute_taint_eviction_purge_mode = "directly";
    CHECK(controllers::eviction_purge_mode(b, s) == "Gracefully");
    b.failover = model::failover_behavior{};
    b.failover->cluster = model::cluster_failover_behavior{};
    s.no_execute_taint_eviction_purge_mode = "Directly";
    CHECK(controllers::eviction_purge_mode(b, s) == "Gracefully");
    b.failover->cluster->purge_mode = "Never";
    CHECK(controllers::eviction_purge_mode(b, s) == "Never");
}

TEST_CASE("evicting moves the entry into a TaintManager task and bumps the generation")
{
    auto b = on("[]");
    auto a = controllers::run_taint_manager(b, tainted(100), eviction_on(), 150);
    CHECK(a.verdict == eviction_verdict::evict_now);
    CHECK(b.clusters == std::vector<model::target_cluster>{{"cloud-east-1", 2, {}}});
    REQUIRE(b.graceful_eviction_tasks.size() == 1);
    const auto& t = b.graceful_eviction_tasks[0];
    CHECK(t.from_cluster == "idc-east-1");
    CHECK(t.replicas == 4);
    CHECK(t.purge_mode == "Gracefully");
    CHECK(t.producer == "TaintManager");
    CHECK(t.reason == "TaintUntolerated");
    CHECK(t.message.empty());
    CHECK_FALSE(t.grace_period_seconds.has_value());
    CHECK_FALSE(t.suppress_deletion.has_value());
    CHECK_FALSE(t.creation_timestamp.has_value());
    CHECK(b.generation == 4);
}

TEST_CASE("GracefulEvictCluster: not a target does nothing; an existing task is not duplicated")
{
    auto b = on("[]");
    controllers::task_options o{"Never", "resource-binding-application-failover-controller", "ApplicationFailure", "",
                                std::nullopt, true};
    CHECK_FALSE(controllers::graceful_evict_cluster(b, "nowhere", o));
    CHECK(b.generation == 3);
    b.graceful_eviction_tasks.push_back({});
    b.graceful_eviction_tasks[0].from_cluster = "cloud-east-1";
    CHECK(controllers::graceful_evict_cluster(b, "cloud-east-1", o));
    CHECK(b.graceful_eviction_tasks.size() == 1);
    CHECK(controllers::graceful_evict_cluster(b, "idc-east-1", o));
    REQUIRE(b.graceful_eviction_tasks.size() == 2);
    CHECK(b.graceful_eviction_tasks[1].suppress_deletion == true);
    CHECK(b.graceful_eviction_tasks[1].reason == "ApplicationFailure");
    CHECK(b.clusters.empty());
}
