// SPDX-License-Identifier: Apache-2.0
// Explain output: one outcome per group tried, a row per cluster, what bounds it, why it got no more.
#include <doctest/doctest.h>

#include "explain_rows.hpp"
#include "fixtures.hpp"

using namespace kpw;
using namespace kpw::scheduling;
using namespace kpw::scheduling::test;

namespace {

options explaining()
{
    options o;
    o.explain = true;
    return o;
}

model::cluster with_resources(std::string name, std::int64_t cpu, std::int64_t pods)
{
    auto c = cluster(std::move(name), pods);
    c.resource_summary->allocatable["cpu"] = model::quantity::from_int(cpu);
    c.resource_summary->allocatable["memory"] = model::quantity::from_int(std::int64_t(1) << 40);
    return c;
}

model::spread_constraint by_cluster(std::int64_t max, std::int64_t min)
{
    return {"cluster", "", max, min};
}

// member1, member2 and member3, room for 10, 8 and 5 pods.
std::vector<model::cluster> three_members()
{
    return {cluster("member1", 10), cluster("member2", 8), cluster("member3", 5)};
}

// The spec spread over one or two clusters.
model::propagation_spec on_two_clusters(model::propagation_spec spec)
{
    spec.placement.spread_constraints = {by_cluster(2, 1)};
    return spec;
}

} // namespace

TEST_CASE("considered rows are left out without explain, and group outcomes are always there")
{
    std::vector<model::cluster> cs{cluster("member1", 5)};
    auto d = schedule(dynamic_weight_spec(), deployment(2), snapshot(cs));
    REQUIRE(d.groups.size() == 1);
    CHECK(d.groups[0].outcome == "scheduled");
    CHECK(d.groups[0].considered.empty());
}

TEST_CASE("a cluster the spread selection leaves out says so")
{
    const std::vector<model::cluster> cs = three_members();
    auto d = schedule(on_two_clusters(dynamic_weight_spec()), deployment(6, "a"), snapshot(cs), explaining());
    REQUIRE(d.scheduled);
    const auto& g = d.groups.at(0);
    REQUIRE(g.considered.size() == 3);
    CHECK(row(g, "member3").passed);
    CHECK(row(g, "member3").available == 5);
    CHECK(row(g, "member3").replicas == 0);
    CHECK(row(g, "member3").left_out == "spread selection");
    CHECK(row(g, "member1").replicas + row(g, "member2").replicas == 6);
    CHECK(row(g, "member1").left_out.empty());
    CHECK(row(g, "member1").bound_by == "pods");
}

TEST_CASE("an overflow tier that is not needed is named as such")
{
    std::vector<model::cluster> cs{cluster("member1", 10), cluster("member2", 5)};
    auto spec = dynamic_weight_spec();
    spec.placement.cluster_affinities = {term("primary", {"member1"}, {overflow("burst", {"member2"})})};
    auto d = schedule(spec, deployment(4, "a"), snapshot(cs), explaining());
    REQUIRE(d.scheduled);
    const auto& g = d.groups.at(0);
    CHECK(row(g, "member1").tier == "primary");
    CHECK(row(g, "member1").replicas == 4);
    CHECK(row(g, "member2").tier == "burst");
    CHECK(row(g, "member2").left_out == "tier not needed");
}

TEST_CASE("a selected cluster receives a non-workload with no replica count; an unselected one is left out")
{
    const std::vector<model::cluster> cs = three_members();
    auto d = schedule(on_two_clusters(duplicated_spec()), deployment(0, "a"), snapshot(cs), explaining());
    REQUIRE(d.scheduled);
    const auto& g = d.groups.at(0);
    CHECK(row(g, "member1").receives_object);
    CHECK(row(g, "member2").receives_object);
    CHECK(row(g, "member1").replicas == 0);
    CHECK_FALSE(row(g, "member3").receives_object);
    CHECK(row(g, "member3").left_out == "spread selection");
}

TEST_CASE("a workload of 0 replicas with requirements is assigned nowhere, for want of replicas")
{
    std::vector<model::cluster> cs{cluster("member1", 10), cluster("member2", 8)};
    auto w = deployment(0, "a");
    w.has_requirements = true; // a nodeSelector, say: ReplicaRequirements makes it a workload
    auto d = schedule(duplicated_spec(), w, snapshot(cs), explaining());
    REQUIRE(d.scheduled);
    CHECK(d.clusters.empty());
    CHECK(row(d.groups.at(0), "member1").left_out == "0 replicas to assign");
    CHECK_FALSE(row(d.groups.at(0), "member1").receives_object);
}

TEST_CASE("without a uid, the tie-breaker and Webster rounding are told apart")
{
    std::vector<model::cluster> cs{cluster("a", 5), cluster("b", 5), cluster("c", 5)};
    auto spec = static_weight_spec({{"a", 1}, {"b", 1}, {"c", 1}});
    auto d = schedule(spec, deployment(1), snapshot(cs), explaining());
    REQUIRE(d.scheduled);
    const auto& g = d.groups.at(0);
    CHECK(row(g, "a").replicas == 1);
    CHECK(row(g, "a").left_out == "tie-breaker");
    CHECK(row(g, "b").left_out == "Webster rounding");
    CHECK(row(g, "c").left_out == "tie-breaker");
}

TEST_CASE("a static-weight cluster no rule weighs is left out with weight 0")
{
    std::vector<model::cluster> cs{cluster("a", 5), cluster("b", 5)};
    auto d = schedule(static_weight_spec({{"a", 1}}), deployment(2, "a"), snapshot(cs), explaining());
    CHECK(row(d.groups.at(0), "b").left_out == "static weight 0");
    CHECK(row(d.groups.at(0), "a").replicas == 2);
}

TEST_CASE("the resource that bounds an estimate is named")
{
    auto no_summary = cluster("none", 5);
    no_summary.resource_summary.reset();
    std::vector<model::cluster> cs{with_resources("cpu-bound", 2, 100), with_resources("pod-bound", 64, 3), no_summary};
    auto w = deployment(1, "a");
    w.has_requirements = true;
    w.request = {{"cpu", 1000}};
    auto d = schedule(duplicated_spec(), w, snapshot(cs), explaining());
    const auto& g = d.groups.at(0);
    CHECK(row(g, "cpu-bound").available == 2);
    CHECK(row(g, "cpu-bound").bound_by == "cpu");
    CHECK(row(g, "pod-bound").available == 3);
    CHECK(row(g, "pod-bound").bound_by == "pods");
    CHECK(row(g, "none").available == 0);
    CHECK(row(g, "none").bound_by == "no resourceSummary");
}

TEST_CASE("a selection error is a SchedulerError wrapped as failed to select clusters")
{
    std::vector<model::cluster> cs{cluster("member1", 10)};
    auto spec = dynamic_weight_spec();
    spec.placement.spread_constraints = {by_cluster(3, 2)};
    auto d = schedule(spec, deployment(2), snapshot(cs));
    CHECK(d.condition_reason == "SchedulerError");
    CHECK(d.condition_message ==
          "failed to select clusters: the number of feasible clusters is less than spreadConstraint.MinGroups");
    CHECK(d.groups.at(0).outcome == "selection");
}

TEST_CASE("an empty selection is assignReplicas' SchedulerError")
{
    std::vector<model::cluster> cs{cluster("member1", 10)};
    auto spec = duplicated_spec();
    spec.placement.spread_constraints = {by_cluster(0, 1)};
    auto d = schedule(spec, deployment(2), snapshot(cs));
    CHECK(d.condition_reason == "SchedulerError");
    CHECK(d.condition_message == "failed to assign replicas: no clusters available to schedule");
}

TEST_CASE("overflow tiers exhausted is Unschedulable without a number")
{
    std::vector<model::cluster> cs{cluster("member1", 2), cluster("member2", 1)};
    auto spec = dynamic_weight_spec();
    spec.placement.cluster_affinities = {term("primary", {"member1"}, {overflow("burst", {"member2"})})};
    auto d = schedule(spec, deployment(5), snapshot(cs));
    CHECK(d.condition_reason == "Unschedulable");
    CHECK(d.condition_message == "failed to assign replicas: Clusters available replicas are not enough to schedule.");
}

// Needs the division helper's Karmada texts ("failed to scale up: ...") in assign.cpp.
TEST_CASE("example B: capacity is Unschedulable with the scale-up text")
{
    std::vector<model::cluster> cs{cluster("member1", 3), cluster("member2", 4)};
    auto d = schedule(dynamic_weight_spec(), deployment(10), snapshot(cs));
    CHECK(d.condition_reason == "Unschedulable");
    CHECK(d.condition_message ==
          "failed to assign replicas: failed to scale up: Clusters available replicas 7 are not enough to schedule.");
}

TEST_CASE("with clusterAffinities every group tried gets an outcome, and the first error decides")
{
    std::vector<model::cluster> cs{cluster("member1", 1), cluster("member2", 10)};
    auto spec = dynamic_weight_spec();
    spec.placement.cluster_affinities = {term("small", {"member1"}), term("gone", {"missing"})};
    auto d = schedule(spec, deployment(5), snapshot(cs));
    REQUIRE_FALSE(d.scheduled);
    REQUIRE(d.groups.size() == 2);
    CHECK(d.groups[0].outcome == "assignment");
    CHECK(d.groups[1].outcome == "fit-error");
    CHECK(d.groups[1].error == "0/2 clusters are available: 2 cluster(s) did not match the placement cluster "
                               "affinity constraint.");
    CHECK(d.condition_reason == "Unschedulable");
    CHECK(d.condition_message == d.groups[0].error);
}
