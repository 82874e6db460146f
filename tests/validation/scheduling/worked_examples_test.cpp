// SPDX-License-Identifier: Apache-2.0
// Every worked example of scheduling-semantics.md (sections 5.2, 5.3 and 7), with exact replica numbers.
#include <doctest/doctest.h>

#include "fixtures.hpp"

using namespace kpw;
using namespace kpw::scheduling::test;
using scheduling::schedule;

namespace {

std::vector<model::cluster> four_members()
{
    return {cluster("member1", 100), cluster("member2", 100), cluster("member3", 100), cluster("member4", 100)};
}

} // namespace

TEST_CASE("7.1 static weight 2:1:1:1 over 7 replicas with an empty uid gives 3/2/1/1 and is a tie")
{
    auto spec = static_weight_spec({{"member1", 2}, {"member2", 1}, {"member3", 1}, {"member4", 1}});
    auto d = schedule(spec, deployment(7), four_members());
    REQUIRE(d.scheduled);
    CHECK(split(d) == replicas_map{{"member1", 3}, {"member2", 2}, {"member3", 1}, {"member4", 1}});
    CHECK(d.tie);
    CHECK(d.tie_between == std::vector<std::string>{"member2", "member4"});
    CHECK(d.message.find("member2 and member4") != std::string::npos);
}

TEST_CASE("7.1 static weight 2:1:1:1 with a uid hashing odd gives 3/1/1/2 and no tie")
{
    auto spec = static_weight_spec({{"member1", 2}, {"member2", 1}, {"member3", 1}, {"member4", 1}});
    auto d = schedule(spec, deployment(7, "b"), four_members());
    REQUIRE(d.scheduled);
    CHECK(split(d) == replicas_map{{"member1", 3}, {"member2", 1}, {"member3", 1}, {"member4", 2}});
    CHECK_FALSE(d.tie);
    // uid "a" hashes even: the ascending order, as with no uid.
    CHECK(split(schedule(spec, deployment(7, "a"), four_members())) ==
          replicas_map{{"member1", 3}, {"member2", 2}, {"member3", 1}, {"member4", 1}});
}

TEST_CASE("7.2 dynamic weight 12 over available 8/8/10 gives 4/4/4 whatever the uid")
{
    std::vector<model::cluster> cs{cluster("member1", 8), cluster("member2", 8), cluster("member3", 10)};
    auto d = schedule(dynamic_weight_spec(), deployment(12), cs);
    REQUIRE(d.scheduled);
    CHECK(split(d) == replicas_map{{"member1", 4}, {"member2", 4}, {"member3", 4}});
    CHECK_FALSE(d.tie);
}

TEST_CASE("7.3 aggregated 12 over available 6/8/10 gives member3 7 and member2 5")
{
    std::vector<model::cluster> cs{cluster("member1", 6), cluster("member2", 8), cluster("member3", 10)};
    auto d = schedule(aggregated_spec(), deployment(12), cs);
    REQUIRE(d.scheduled);
    CHECK(split(d) == replicas_map{{"member2", 5}, {"member3", 7}});
    CHECK(d.clusters.front().name == "member3");
}

TEST_CASE("7.4 spread by cluster with maxGroups 2: 120 replicas give m3 69 and m2 51, 200 fail")
{
    auto spec = dynamic_weight_spec();
    spec.placement.spread_constraints = {{"cluster", "", 2, 1}};
    std::vector<model::cluster> cs{cluster("m1", 40), cluster("m2", 60), cluster("m3", 80), cluster("m4", 50)};
    auto d = schedule(spec, deployment(120), cs);
    REQUIRE(d.scheduled);
    CHECK(split(d) == replicas_map{{"m2", 51}, {"m3", 69}});

    auto fail = schedule(spec, deployment(200), cs);
    CHECK_FALSE(fail.scheduled);
    REQUIRE(fail.failures.size() == 1);
    CHECK(fail.failures[0].reason == "no enough resource when selecting 2 clusters");
}

TEST_CASE("7.5 region spread picks the region with more clusters and two of its clusters: member3 10, member4 10")
{
    auto spec = dynamic_weight_spec();
    spec.placement.spread_constraints = {{"region", "", 1, 1}, {"cluster", "", 2, 2}};
    std::vector<model::cluster> cs{cluster("member1", 40, "cn-north-1"), cluster("member2", 40, "cn-north-1"),
                                   cluster("member3", 40, "cn-east-3"), cluster("member4", 40, "cn-east-3"),
                                   cluster("member5", 40, "cn-east-3")};
    auto d = schedule(spec, deployment(20), cs);
    REQUIRE(d.scheduled);
    CHECK(split(d) == replicas_map{{"member3", 10}, {"member4", 10}});
}

TEST_CASE("7.6 multiple groups: idc fails on capacity, cloud takes 3/2 by uid order")
{
    auto spec = dynamic_weight_spec();
    spec.placement.cluster_affinities = {term("idc", {"member1"}), term("cloud", {"member2", "member3"})};
    std::vector<model::cluster> cs{cluster("member1", 3), cluster("member2", 10), cluster("member3", 10)};
    auto d = schedule(spec, deployment(5), cs);
    REQUIRE(d.scheduled);
    CHECK(d.affinity_name == "cloud");
    CHECK(split(d) == replicas_map{{"member2", 3}, {"member3", 2}});
    CHECK(d.tie);
    REQUIRE(d.failures.size() == 1);
    CHECK(d.failures[0].str() == "idc: failed to scale up: Clusters available replicas 3 are not enough to schedule.");
    CHECK(split(schedule(spec, deployment(5, "b"), cs)) == replicas_map{{"member2", 2}, {"member3", 3}});
}

TEST_CASE("7.6 the same groups with static weight stay in idc with member1 5 although only 3 fit")
{
    auto spec = static_weight_spec({});
    spec.placement.replica_scheduling->weight_preference.reset();
    spec.placement.cluster_affinities = {term("idc", {"member1"}), term("cloud", {"member2", "member3"})};
    std::vector<model::cluster> cs{cluster("member1", 3), cluster("member2", 10), cluster("member3", 10)};
    auto d = schedule(spec, deployment(5), cs);
    REQUIRE(d.scheduled);
    CHECK(d.affinity_name == "idc");
    CHECK(split(d) == replicas_map{{"member1", 5}});
    CHECK(d.failures.empty());
}

TEST_CASE("5.2 overflow tiers 3/4/50 with 10 replicas fill tier by tier: 3/4/3")
{
    auto spec = dynamic_weight_spec();
    spec.placement.cluster_affinities = {
        term("tier1", {"member1"}, {overflow("tier2", {"member2"}), overflow("tier3", {"member3"})})};
    std::vector<model::cluster> cs{cluster("member1", 3), cluster("member2", 4), cluster("member3", 50)};
    auto d = schedule(spec, deployment(10), cs);
    REQUIRE(d.scheduled);
    CHECK(d.affinity_name == "tier1");
    REQUIRE(d.clusters.size() == 3);
    CHECK(d.clusters[0].name == "member1");
    CHECK(d.clusters[0].replicas == 3);
    CHECK(d.clusters[0].tier == "tier1");
    CHECK(d.clusters[1].name == "member2");
    CHECK(d.clusters[1].replicas == 4);
    CHECK(d.clusters[1].tier == "tier2");
    CHECK(d.clusters[2].name == "member3");
    CHECK(d.clusters[2].replicas == 3);
    CHECK(d.clusters[2].tier == "tier3");
}

TEST_CASE("5.2 a tier of available 6 and 12 receiving 6 splits 2/4 by dynamic weight, 6 on member3 aggregated")
{
    std::vector<model::cluster> cs{cluster("member1", 3), cluster("member2", 6), cluster("member3", 12)};
    auto terms = std::vector<model::cluster_affinity_term>{
        term("primary", {"member1"}, {overflow("cloud", {"member2", "member3"})})};
    auto dyn = dynamic_weight_spec();
    dyn.placement.cluster_affinities = terms;
    CHECK(split(schedule(dyn, deployment(9), cs)) == replicas_map{{"member1", 3}, {"member2", 2}, {"member3", 4}});
    auto agg = aggregated_spec();
    agg.placement.cluster_affinities = terms;
    CHECK(split(schedule(agg, deployment(9), cs)) == replicas_map{{"member1", 3}, {"member3", 6}});
}

TEST_CASE("5.3 maxGroups 1 with the capacity swap drops the primary: member2 gets all 5")
{
    auto spec = dynamic_weight_spec();
    spec.placement.spread_constraints = {{"cluster", "", 1, 1}};
    spec.placement.cluster_affinities = {term("primary", {"member1"}, {overflow("cloud", {"member2"})})};
    std::vector<model::cluster> cs{cluster("member1", 2), cluster("member2", 10)};
    auto d = schedule(spec, deployment(5), cs);
    REQUIRE(d.scheduled);
    CHECK(split(d) == replicas_map{{"member2", 5}});
    CHECK(d.clusters[0].tier == "cloud");
}
