// SPDX-License-Identifier: Apache-2.0
// Apportionment per strategy: ties, remainders and zero-capacity clusters (spec 3.7-3.9).
#include <doctest/doctest.h>

#include "fixtures.hpp"

using namespace kpw;
using namespace kpw::scheduling;
using namespace kpw::scheduling::test;

namespace {

std::vector<model::cluster> three(std::int64_t a, std::int64_t b, std::int64_t c)
{
    return {cluster("member1", a), cluster("member2", b), cluster("member3", c)};
}

} // namespace

TEST_CASE("strategy is read from the placement as karmada-scheduler reads it")
{
    model::placement p;
    CHECK(strategy_of(p) == strategy::duplicated);
    p.replica_scheduling = model::replica_scheduling_strategy{};
    // The CRD defaults the type to Divided; the preference has the webhook's Weighted only in a policy.
    CHECK(strategy_of(p) == strategy::unsupported);
    p.replica_scheduling->replica_division_preference = "Weighted";
    CHECK(strategy_of(p) == strategy::static_weight);
    p.replica_scheduling->replica_division_preference = "Aggregated";
    CHECK(strategy_of(p) == strategy::aggregated);
    p.replica_scheduling = divided("Weighted", "AvailableReplicas");
    CHECK(strategy_of(p) == strategy::dynamic_weight);
    p.replica_scheduling->replica_scheduling_type = "Duplicated";
    CHECK(strategy_of(p) == strategy::duplicated);
}

TEST_CASE("Divided without a division preference fails the assignment with Karmada's error")
{
    // A binding written without the webhook (the detector copies the policy's defaulted placement).
    auto spec = duplicated_spec();
    spec.placement.replica_scheduling = model::replica_scheduling_strategy{};
    spec.placement.replica_scheduling->replica_scheduling_type = "Divided";
    auto d = schedule(spec, deployment(4), three(5, 5, 5));
    CHECK_FALSE(d.scheduled);
    CHECK(d.message == "unsupported replica scheduling strategy, replicaSchedulingType: "
                       "Divided, replicaDivisionPreference: , please try another scheduling strategy");
    CHECK(d.condition_reason == "SchedulerError"); // a plain error, not an UnschedulableError
}

TEST_CASE("duplicated: every cluster gets the full count, a zero-capacity cluster too")
{
    auto d = schedule(duplicated_spec(), deployment(4), three(0, 2, 9));
    REQUIRE(d.scheduled);
    CHECK(split(d) == replicas_map{{"member1", 4}, {"member2", 4}, {"member3", 4}});
    CHECK_FALSE(d.tie);
    // No replicaScheduling at all is Duplicated.
    CHECK(split(schedule(model::propagation_spec{}, deployment(2), three(1, 1, 1))).size() == 3);
}

TEST_CASE("duplicated: a non-workload is propagated everywhere without a replica count")
{
    auto w = deployment(0);
    w.api_version = "v1";
    w.kind = "ConfigMap";
    auto d = schedule(duplicated_spec(), w, three(0, 0, 0));
    REQUIRE(d.scheduled);
    CHECK(d.non_workload);
    CHECK(split(d) == replicas_map{{"member1", 0}, {"member2", 0}, {"member3", 0}});
    CHECK(d.message.find("not a workload") == 0);
}

TEST_CASE("a workload with 0 replicas but a request is scheduled to nothing")
{
    auto w = deployment(0);
    w.request = {{"cpu", 100}};
    w.has_requirements = true;
    auto d = schedule(duplicated_spec(), w, three(5, 5, 5));
    CHECK(d.scheduled);
    CHECK(d.clusters.empty());
}

TEST_CASE("static weight: no weightPreference means equal weights; the remainder is a tie")
{
    auto spec = static_weight_spec({});
    spec.placement.replica_scheduling->weight_preference.reset();
    auto d = schedule(spec, deployment(5), three(1, 1, 1));
    CHECK(split(d) == replicas_map{{"member1", 2}, {"member2", 2}, {"member3", 1}});
    CHECK(d.tie);
    CHECK(d.tie_between == std::vector<std::string>{"member1", "member3"});
}

TEST_CASE("static weight: a cluster no rule matches is left out; zero capacity is ignored")
{
    auto d = schedule(static_weight_spec({{"member1", 3}, {"member2", 1}}), deployment(8), three(0, 0, 100));
    REQUIRE(d.scheduled);
    CHECK(split(d) == replicas_map{{"member1", 6}, {"member2", 2}});
}

TEST_CASE("static weight: the maximum matching rule wins, and no positive weight means weight 1")
{
    auto spec = static_weight_spec({{"member1", 1}, {"member2", 1}});
    model::cluster_affinity everyone;
    spec.placement.replica_scheduling->weight_preference->static_weight_list.push_back({everyone, 2});
    // member1 and member2 match weight 1 and 2: 2 wins; member3 matches only the 2.
    CHECK(split(schedule(spec, deployment(6), three(1, 1, 1))) ==
          replicas_map{{"member1", 2}, {"member2", 2}, {"member3", 2}});
    auto none = static_weight_spec({{"other", 5}});
    CHECK(split(schedule(none, deployment(3), three(1, 1, 1))) ==
          replicas_map{{"member1", 1}, {"member2", 1}, {"member3", 1}});
}

TEST_CASE("dynamic weight: proportional to available replicas, 7 over 10:4 is 5/2")
{
    std::vector<model::cluster> cs{cluster("member1", 10), cluster("member2", 4)};
    CHECK(split(schedule(dynamic_weight_spec(), deployment(7), cs)) == replicas_map{{"member1", 5}, {"member2", 2}});
}

TEST_CASE("dynamic weight: equal capacities split a remainder by name and flag the tie")
{
    auto d = schedule(dynamic_weight_spec(), deployment(10), three(5, 5, 5));
    CHECK(split(d) == replicas_map{{"member1", 4}, {"member2", 3}, {"member3", 3}});
    CHECK(d.tie);
    CHECK(d.tie_between == std::vector<std::string>{"member1", "member3"});
}

TEST_CASE("dynamic weight: a zero-capacity cluster gets nothing and short capacity fails")
{
    CHECK(split(schedule(dynamic_weight_spec(), deployment(6), three(0, 6, 6))) ==
          replicas_map{{"member2", 3}, {"member3", 3}});
    auto d = schedule(dynamic_weight_spec(), deployment(13), three(0, 6, 6));
    CHECK_FALSE(d.scheduled);
    CHECK(d.message == "failed to scale up: Clusters available replicas 12 are not enough to schedule.");
}

TEST_CASE("aggregated: Webster over the shortest prefix, not greedy: 12 over 10 and 8 is 7/5")
{
    std::vector<model::cluster> cs{cluster("member1", 10), cluster("member2", 8)};
    CHECK(split(schedule(aggregated_spec(), deployment(12), cs)) == replicas_map{{"member1", 7}, {"member2", 5}});
    // The biggest cluster alone when it suffices.
    CHECK(split(schedule(aggregated_spec(), deployment(5), three(10, 8, 6))) == replicas_map{{"member1", 5}});
}

TEST_CASE("aggregated: equal capacities keep name order in the prefix; the split is a tie")
{
    auto d = schedule(aggregated_spec(), deployment(11), three(8, 8, 8));
    CHECK(split(d) == replicas_map{{"member1", 6}, {"member2", 5}});
    CHECK(d.tie);
}

TEST_CASE("aggregated: zero-capacity clusters are never in the prefix; short capacity fails")
{
    CHECK(split(schedule(aggregated_spec(), deployment(3), three(0, 0, 5))) == replicas_map{{"member3", 3}});
    auto d = schedule(aggregated_spec(), deployment(6), three(0, 0, 5));
    CHECK_FALSE(d.scheduled);
    CHECK(d.message == "failed to scale up: Clusters available replicas 5 are not enough to schedule.");
}

TEST_CASE("the decision lists every candidate with its available replicas for the table")
{
    auto d = schedule(aggregated_spec(), deployment(3), three(0, 4, 5));
    REQUIRE(d.candidates.size() == 3);
    CHECK(d.candidates[0].name == "member3");
    CHECK(d.candidates[0].available == 5);
    CHECK(d.candidates[0].replicas == 3);
    CHECK(d.candidates[2].name == "member1");
    CHECK(d.candidates[2].replicas == 0);
    CHECK(d.message.find("not karmada-scheduler-estimator") != std::string::npos);
}
