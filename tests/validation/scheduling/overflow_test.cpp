// SPDX-License-Identifier: Apache-2.0
// Overflow tiers (spec 5): primary fits, primary full, primary unavailable, all tiers short, shared clusters.
#include <doctest/doctest.h>

#include "fixtures.hpp"

using namespace kpw;
using namespace kpw::scheduling;
using namespace kpw::scheduling::test;

namespace {

model::propagation_spec onprem_cloud(model::propagation_spec spec)
{
    spec.placement.cluster_affinities = {
        term("on-prem", {"cluster1"}, {overflow("public-cloud", {"cluster2", "cluster3"})}),
        term("backup", {"backup1"})};
    return spec;
}

std::vector<model::cluster> members(std::int64_t c1, std::int64_t c2, std::int64_t c3, std::int64_t backup = 50)
{
    return {cluster("cluster1", c1), cluster("cluster2", c2), cluster("cluster3", c3), cluster("backup1", backup)};
}

} // namespace

TEST_CASE("primary fits: every replica stays on-prem")
{
    auto d = schedule(onprem_cloud(dynamic_weight_spec()), deployment(6), members(10, 20, 20));
    REQUIRE(d.scheduled);
    CHECK(d.affinity_name == "on-prem");
    CHECK(split(d) == replicas_map{{"cluster1", 6}});
    CHECK(d.clusters[0].tier == "on-prem");
    CHECK(d.clusters[0].available == 10);
}

TEST_CASE("primary partly full: fill it, spill the rest to the cloud tier")
{
    auto d = schedule(onprem_cloud(dynamic_weight_spec()), deployment(10), members(4, 3, 9));
    REQUIRE(d.scheduled);
    CHECK(split(d) == replicas_map{{"cluster1", 4}, {"cluster2", 2}, {"cluster3", 4}});
    REQUIRE(d.clusters.size() == 3);
    CHECK(d.clusters[0].name == "cluster1");
    CHECK(d.clusters[1].tier == "public-cloud");
}

TEST_CASE("primary full (0 available): everything overflows, the term still reports its own name")
{
    auto d = schedule(onprem_cloud(aggregated_spec()), deployment(5), members(0, 3, 9));
    REQUIRE(d.scheduled);
    CHECK(d.affinity_name == "on-prem");
    CHECK(split(d) == replicas_map{{"cluster3", 5}});
    CHECK(d.clusters[0].tier == "public-cloud");
}

TEST_CASE("primary unavailable (tainted or missing): the overflow tier takes the replicas")
{
    auto cs = members(10, 5, 5);
    cs[0].taints = {{"cluster.karmada.io/unreachable", "", "NoSchedule"}};
    auto d = schedule(onprem_cloud(dynamic_weight_spec()), deployment(4), cs);
    REQUIRE(d.scheduled);
    CHECK(d.affinity_name == "on-prem");
    CHECK(split(d) == replicas_map{{"cluster2", 2}, {"cluster3", 2}});
    cs.erase(cs.begin());
    CHECK(split(schedule(onprem_cloud(dynamic_weight_spec()), deployment(4), cs)) ==
          replicas_map{{"cluster2", 2}, {"cluster3", 2}});
}

TEST_CASE("all tiers short: the term fails and the next term is tried")
{
    auto d = schedule(onprem_cloud(dynamic_weight_spec()), deployment(20), members(4, 3, 9, 50));
    REQUIRE(d.scheduled);
    CHECK(d.affinity_name == "backup");
    CHECK(split(d) == replicas_map{{"backup1", 20}});
    CHECK(d.clusters[0].tier == "backup");
    REQUIRE(d.failures.size() == 1);
    CHECK(d.failures[0].str() == "on-prem: Clusters available replicas are not enough to schedule.");
    auto none = schedule(onprem_cloud(dynamic_weight_spec()), deployment(60), members(4, 3, 9, 50));
    CHECK_FALSE(none.scheduled);
    CHECK(none.failures.size() == 2);
}

TEST_CASE("a cluster listed in the primary and an overflow tier belongs to the primary")
{
    auto spec = dynamic_weight_spec();
    spec.placement.cluster_affinities = {
        term("on-prem", {"cluster1", "cluster2"}, {overflow("public-cloud", {"cluster2", "cluster3"})})};
    auto d = schedule(spec, deployment(12), members(4, 4, 9));
    REQUIRE(d.scheduled);
    CHECK(split(d) == replicas_map{{"cluster1", 4}, {"cluster2", 4}, {"cluster3", 4}});
    for (const auto& c : d.clusters)
        CHECK(c.tier == (c.name == "cluster3" ? "public-cloud" : "on-prem"));
}

TEST_CASE("a cluster listed in two overflow tiers belongs to the first")
{
    auto spec = dynamic_weight_spec();
    spec.placement.cluster_affinities = {
        term("on-prem", {"cluster1"}, {overflow("cloud-a", {"cluster2"}), overflow("cloud-b", {"cluster2", "cluster3"})})};
    auto d = schedule(spec, deployment(9), members(2, 3, 10));
    REQUIRE(d.scheduled);
    CHECK(split(d) == replicas_map{{"cluster1", 2}, {"cluster2", 3}, {"cluster3", 4}});
    CHECK(d.clusters[1].tier == "cloud-a");
    CHECK(d.clusters[2].tier == "cloud-b");
}

TEST_CASE("a non-workload ignores overflow tiers: only the primary filters it")
{
    auto w = deployment(0);
    w.api_version = "v1";
    w.kind = "ConfigMap";
    auto d = schedule(onprem_cloud(dynamic_weight_spec()), w, members(0, 3, 9));
    REQUIRE(d.scheduled);
    CHECK(split(d) == replicas_map{{"cluster1", 0}});
}

TEST_CASE("an empty overflow list is plain scheduling: capacity short fails the term")
{
    auto spec = dynamic_weight_spec();
    spec.placement.cluster_affinities = {term("on-prem", {"cluster1"}, {})};
    auto d = schedule(spec, deployment(5), members(4, 3, 9));
    CHECK_FALSE(d.scheduled);
    CHECK(d.failures[0].reason == "failed to scale up: Clusters available replicas 4 are not enough to schedule.");
}

TEST_CASE("unmatched_terms reports affinities that match no cluster of the snapshot")
{
    auto spec = dynamic_weight_spec();
    spec.placement.cluster_affinities = {
        term("dc-shanghai", {"unavailable"}),
        term("on-prem", {"cluster1"}, {overflow("public-cloud", {"cloud-x"})})};
    auto out = unmatched_terms(spec, members(1, 1, 1));
    REQUIRE(out.size() == 2);
    CHECK(out[0].affinity_name == "dc-shanghai");
    CHECK(out[0].field == "spec.placement.clusterAffinities[0]");
    CHECK(out[0].message == "affinity group dc-shanghai matches no cluster of the snapshot (unavailable: not in the snapshot)");
    CHECK(out[1].field == "spec.placement.clusterAffinities[1].overflowAffinities[0]");
    model::propagation_spec plain;
    plain.placement.cluster_affinity = names({"nope"});
    auto single = unmatched_terms(plain, members(1, 1, 1));
    REQUIRE(single.size() == 1);
    CHECK(single[0].field == "spec.placement.clusterAffinity");
    CHECK(unmatched_terms(model::propagation_spec{}, members(1, 1, 1)).empty());
}

// Placements only a binding written without the webhook has: Karmada finds each attempt's term by name.
TEST_CASE("a repeated affinityName: every attempt of that name uses the first term of the name")
{
    auto spec = dynamic_weight_spec();
    spec.placement.cluster_affinities = {term("g0", {"cluster1"}), term("g0", {"cluster2"})};
    auto d = schedule(spec, deployment(4), members(0, 20, 20));
    CHECK_FALSE(d.scheduled); // the second attempt filters by cluster1 again, not cluster2
}

TEST_CASE("an unnamed term: its overflow clusters are feasible, the replicas are not dealt tier by tier")
{
    auto spec = dynamic_weight_spec();
    spec.placement.cluster_affinities = {term("", {"cluster1"}, {overflow("burst", {"cluster2"})})};
    // common.go enableOverflow wants the observed name: one division over both clusters, by capacity.
    auto d = schedule(spec, deployment(6), members(10, 20, 0));
    REQUIRE(d.scheduled);
    CHECK(split(d) == replicas_map{{"cluster1", 2}, {"cluster2", 4}});
    auto named = spec;
    named.placement.cluster_affinities[0].affinity_name = "on-prem";
    CHECK(split(schedule(named, deployment(6), members(10, 20, 0))) == replicas_map{{"cluster1", 6}});
}
