// SPDX-License-Identifier: Apache-2.0
// The scheduler pipeline on a re-schedule: locality, pass-through, eviction, observed term, keep vs clear.
#include <doctest/doctest.h>

#include "reschedule_fixtures.hpp"

using namespace kpw;
using namespace kpw::scheduling;
using namespace kpw::scheduling::test;

namespace {

const settings::feature_gates gates;

model::cluster tainted(std::string name, std::int64_t available, std::string key, std::string effect)
{
    auto c = cluster(std::move(name), available);
    c.taints = {{std::move(key), "", std::move(effect)}};
    return c;
}

model::propagation_spec example_c_spec()
{
    auto spec = aggregated_spec();
    spec.placement.cluster_affinities = {term("primary", {"member1"}), term("backup", {"member2", "member3"})};
    return spec;
}

// Example C's binding after the taint manager evicted member1.
model::binding example_c_binding()
{
    auto b = bound(example_c_spec().placement, 6, {});
    b.scheduler_observing_affinity_name = "primary";
    model::graceful_eviction_task task;
    task.from_cluster = "member1";
    task.replicas = 6;
    b.graceful_eviction_tasks = {task};
    return b;
}

model::propagation_spec one_cluster_spread(model::propagation_spec spec)
{
    spec.placement.spread_constraints = {{"cluster", "", 1, 1}};
    return spec;
}

} // namespace

TEST_CASE("example C end to end: rule 2 fires, primary fails, backup takes 3/3 and becomes observed")
{
    std::vector<model::cluster> cs{tainted("member1", 10, "maintenance", "NoExecute"), cluster("member2", 4),
                                   cluster("member3", 3)};
    auto b = example_c_binding();
    auto out = reschedule(b, snapshot(cs), {}, gates, 5000);
    CHECK(out.verdict.fired == trigger::replicas_changed);
    REQUIRE(out.acted);
    CHECK(split(out.after.clusters) == replicas_map{{"member2", 3}, {"member3", 3}});
    CHECK(out.after.scheduler_observing_affinity_name == "backup");
    REQUIRE(out.after.scheduled);
    CHECK(*out.after.scheduled ==
          model::scheduled_condition{"True", "Success", "Binding has been scheduled successfully."});
    CHECK(out.after.last_scheduled_time == 5000);
    CHECK(out.after.scheduler_observed_generation == b.generation);
    CHECK(out.after.annotations.at(std::string(model::applied_placement_annotation)) == model::go_json(*b.placement));
}

TEST_CASE("clusterAffinities: all terms fail and the first error is a FitError, so the result is cleared")
{
    std::vector<model::cluster> cs{tainted("member1", 10, "maintenance", "NoExecute"), cluster("member2", 2),
                                   cluster("member3", 2)};
    auto b = example_c_binding();
    b.clusters = {{"member1", 3, {}}}; // still listed, but evicting
    b.replicas = 6;
    auto out = reschedule(b, snapshot(cs), {}, gates, 5000);
    REQUIRE(out.acted);
    CHECK_FALSE(out.result.scheduled);
    CHECK(out.after.clusters.empty());
    CHECK(out.after.scheduled->reason == "NoClusterFit");
    CHECK(out.after.scheduler_observing_affinity_name == "primary");
    CHECK(out.after.last_scheduled_time == 1000);
}

TEST_CASE("clusterAffinities: all remaining terms fail on capacity first, so the result is kept")
{
    std::vector<model::cluster> cs{cluster("member1", 1), cluster("member2", 1)};
    auto b = bound(example_c_spec().placement, 5, {{"member2", 2, {}}}); // member2 holds 1 + 2 < 5
    b.placement->cluster_affinities = {term("a", {"member1"}), term("b", {"member2"})};
    b.annotations[std::string(model::applied_placement_annotation)] = model::go_json(*b.placement);
    b.scheduler_observing_affinity_name = "b";
    auto out = reschedule(b, snapshot(cs), {}, gates, 5000);
    REQUIRE(out.acted);
    REQUIRE(out.result.groups.size() == 1); // the loop starts at the observed term b
    CHECK(out.result.groups[0].affinity_name == "b");
    CHECK(out.result.keeps_previous);
    CHECK(out.after.clusters == b.clusters);
    CHECK(out.after.scheduled->reason == "Unschedulable");
    CHECK(out.after.annotations == b.annotations);
}

TEST_CASE("single affinity: a FitError clears the result, a capacity error keeps it")
{
    std::vector<model::cluster> cs{cluster("member1", 1), cluster("member2", 1)};
    auto spec = dynamic_weight_spec();
    spec.placement.cluster_affinity = names({"member1"});
    auto prev = previous({{"member1", 2, {}}});
    auto keep = schedule(spec, deployment(10), snapshot(cs), {}, &prev);
    CHECK(keep.condition_reason == "Unschedulable");
    CHECK(keep.keeps_previous);
    cs[0].deleting = true;
    auto clear = schedule(spec, deployment(10), snapshot(cs), {}, &prev);
    CHECK(clear.condition_reason == "NoClusterFit");
    CHECK(clear.condition_message == "0/2 clusters are available: 1 cluster(s) did not match the placement cluster "
                                     "affinity constraint.");
    CHECK_FALSE(clear.keeps_previous);
}

TEST_CASE("the observed term is sticky, Fresh included; an unknown name starts from index 0")
{
    // v1.16.0-v1.18.2 scheduler.go scheduleResourceBindingWithClusterAffinities: getAffinityIndex only.
    std::vector<model::cluster> cs{cluster("member1", 10), cluster("member2", 10)};
    auto spec = aggregated_spec();
    spec.placement.cluster_affinities = {term("a", {"member1"}), term("b", {"member2"})};
    auto prev = previous({{"member2", 2, {}}}, "b");
    auto sticky = schedule(spec, deployment(4, "a"), snapshot(cs), {}, &prev);
    CHECK(sticky.affinity_name == "b");
    CHECK(split(sticky) == replicas_map{{"member2", 4}});
    prev.fresh = true;
    auto fresh = schedule(spec, deployment(4, "a"), snapshot(cs), {}, &prev);
    CHECK(fresh.affinity_name == "b");
    CHECK(split(fresh) == replicas_map{{"member2", 4}});
    prev.fresh = false;
    prev.observed_affinity_name = "unknown";
    CHECK(schedule(spec, deployment(4, "a"), snapshot(cs), {}, &prev).affinity_name == "a");
}

TEST_CASE("a WorkloadRebalancer's trigger re-schedules a binding observed in group 2 within group 2")
{
    // rescheduleTriggeredAt after lastScheduledTime: rule 3 fires and the division is Fresh, but the
    // clusterAffinities walk starts at the observed term (helper.go:99 getAffinityIndex), although
    // group 1 could host the workload.
    std::vector<model::cluster> cs{cluster("member1", 10), cluster("member2", 10)};
    auto spec = dynamic_weight_spec();
    spec.placement.cluster_affinities = {term("group-1", {"member1"}), term("group-2", {"member2"})};
    auto b = bound(spec.placement, 4, {{"member2", 4, {}}});
    b.scheduler_observing_affinity_name = "group-2";
    b.reschedule_triggered_at = 2000;
    auto out = reschedule(b, snapshot(cs), {}, gates, 5000);
    CHECK(out.verdict.fired == trigger::reschedule_triggered);
    CHECK(out.verdict.fresh);
    REQUIRE(out.acted);
    CHECK(out.after.scheduler_observing_affinity_name == "group-2");
    CHECK(split(out.after.clusters) == replicas_map{{"member2", 4}});
    CHECK(out.after.last_scheduled_time == 5000);
}

TEST_CASE("ClusterLocality keeps a current cluster under a one-cluster spread selection")
{
    std::vector<model::cluster> cs{cluster("member1", 5), cluster("member2", 10)};
    auto spec = one_cluster_spread(dynamic_weight_spec());
    CHECK(split(schedule(spec, deployment(3, "a"), snapshot(cs))) == replicas_map{{"member2", 3}});
    auto prev = previous({{"member1", 2, {}}});
    auto d = schedule(spec, deployment(3, "a"), snapshot(cs), {}, &prev);
    CHECK(split(d) == replicas_map{{"member1", 3}});
    REQUIRE(d.candidates.size() == 2);
    CHECK(d.candidates[0].name == "member1");
    CHECK(d.candidates[0].available == 7); // estimate 5 + current 2
}

TEST_CASE("the capacity swap still replaces a current cluster that lacks room (day2 §0 item 12)")
{
    std::vector<model::cluster> cs{cluster("member1", 0), cluster("member2", 10)};
    auto prev = previous({{"member1", 2, {}}});
    auto d = schedule(one_cluster_spread(dynamic_weight_spec()), deployment(3, "a"), snapshot(cs), {}, &prev);
    CHECK(split(d) == replicas_map{{"member2", 3}});
}

TEST_CASE("a newly tainted current cluster, or one that lost the API, passes; a new one does not")
{
    auto no_api = cluster("member3", 5);
    no_api.api_enablements.clear();
    std::vector<model::cluster> cs{tainted("member1", 5, "maintenance", "NoSchedule"), cluster("member2", 5), no_api};
    auto spec = duplicated_spec();
    CHECK(split(schedule(spec, deployment(2), snapshot(cs))) == replicas_map{{"member2", 2}});
    auto prev = previous({{"member1", 2, {}}, {"member3", 2, {}}});
    CHECK(split(schedule(spec, deployment(2), snapshot(cs), {}, &prev)) ==
          replicas_map{{"member1", 2}, {"member2", 2}, {"member3", 2}});
}

TEST_CASE("ClusterEviction rejects a cluster with a graceful-eviction task, current or not")
{
    std::vector<model::cluster> cs{cluster("member1", 5), cluster("member2", 5)};
    auto prev = previous({{"member1", 2, {}}});
    prev.evicting = {"member1"};
    auto d = schedule(duplicated_spec(), deployment(2), snapshot(cs), {}, &prev);
    CHECK(split(d) == replicas_map{{"member2", 2}});
}

// scheduling-semantics §6 (assignment_test.go, empty uid): Steady scale up / down needs the division
// helper's Steady mode in assign.cpp; the pipeline hands it allocatable and current replicas.
TEST_CASE("Steady DynamicWeight scale down 12 to 6 from 2/4/6 gives 1/2/3")
{
    std::vector<model::cluster> cs{cluster("m1", 10), cluster("m2", 10), cluster("m3", 10)};
    auto prev = previous({{"m1", 2, {}}, {"m2", 4, {}}, {"m3", 6, {}}});
    auto d = schedule(dynamic_weight_spec(), deployment(6), snapshot(cs), {}, &prev);
    CHECK(split(d) == replicas_map{{"m1", 1}, {"m2", 2}, {"m3", 3}});
}

TEST_CASE("Steady DynamicWeight scale up 12 to 24 adds 4/4/4 to 2/4/6")
{
    std::vector<model::cluster> cs{cluster("m1", 10), cluster("m2", 10), cluster("m3", 10)};
    auto prev = previous({{"m1", 2, {}}, {"m2", 4, {}}, {"m3", 6, {}}});
    auto d = schedule(dynamic_weight_spec(), deployment(24), snapshot(cs), {}, &prev);
    CHECK(split(d) == replicas_map{{"m1", 6}, {"m2", 8}, {"m3", 10}});
}

TEST_CASE("Steady Aggregated scale up 12 to 24 keeps used clusters first: 7/12/5")
{
    std::vector<model::cluster> cs{cluster("m1", 4), cluster("m2", 6), cluster("m3", 8)};
    auto prev = previous({{"m1", 4, {}}, {"m2", 8, {}}});
    auto d = schedule(aggregated_spec(), deployment(24), snapshot(cs), {}, &prev);
    CHECK(split(d) == replicas_map{{"m1", 7}, {"m2", 12}, {"m3", 5}});
}

TEST_CASE("Steady Aggregated scale down 12 to 6 keeps the bigger cluster")
{
    std::vector<model::cluster> cs{cluster("m1", 4), cluster("m2", 6), cluster("m3", 8)};
    auto prev = previous({{"m1", 4, {}}, {"m2", 8, {}}});
    auto d = schedule(aggregated_spec(), deployment(6), snapshot(cs), {}, &prev);
    CHECK(split(d) == replicas_map{{"m2", 6}});
}

TEST_CASE("overflow re-absorb: tier 0 takes min(replicas, estimate + current) again")
{
    auto spec = dynamic_weight_spec();
    spec.placement.cluster_affinities = {term("primary", {"member1"}, {overflow("cloud", {"member2"})})};
    auto prev = previous({{"member1", 2, {}}, {"member2", 3, {}}}, "primary");
    std::vector<model::cluster> full{cluster("member1", 0), cluster("member2", 10)};
    CHECK(split(schedule(spec, deployment(3, "a"), snapshot(full), {}, &prev)) ==
          replicas_map{{"member1", 2}, {"member2", 1}});
    std::vector<model::cluster> recovered{cluster("member1", 10), cluster("member2", 10)};
    CHECK(split(schedule(spec, deployment(6, "a"), snapshot(recovered), {}, &prev)) == replicas_map{{"member1", 6}});
}

TEST_CASE("clusterAffinities: [] written in a binding: no term is tried, only the Success condition is written")
{
    auto placement = aggregated_spec().placement;
    placement.cluster_affinities.explicitly_empty = true;
    auto b = bound(placement, 4, {{"member2", 4, {}}});
    b.annotations.erase(std::string(model::applied_placement_annotation)); // placement changed
    b.scheduled = model::scheduled_condition{"False", "Unschedulable", "0/2 clusters are available"};
    auto out = reschedule(b, snapshot(std::vector<model::cluster>{cluster("member1", 9), cluster("member2", 9)}),
                          {}, gates, 5000);
    CHECK(out.verdict.fired == trigger::placement_changed);
    CHECK_FALSE(out.acted); // no attempt, no event
    CHECK(split(out.after.clusters) == replicas_map{{"member2", 4}});
    CHECK_FALSE(out.after.annotations.contains(std::string(model::applied_placement_annotation)));
    REQUIRE(out.after.scheduled);
    CHECK(*out.after.scheduled ==
          model::scheduled_condition{"True", "Success", "Binding has been scheduled successfully."});
    // Without the explicit list (a policy's placement) the same binding is scheduled as usual.
    placement.cluster_affinities.explicitly_empty = false;
    b.placement = placement;
    CHECK(reschedule(b, snapshot(std::vector<model::cluster>{cluster("member1", 9), cluster("member2", 9)}), {},
                     gates, 5000)
              .acted);
}

TEST_CASE("a Fresh re-schedule of a 0-replica workload with requests: no estimate, two clusters wrap to -2")
{
    // karmada: core/util.go calAvailableReplicas returns MaxInt32 for every cluster when spec.replicas is 0
    // (no components), uncapped; dynamicFreshScale sums them in int32 (conformance case
    // reschedule-fresh-zero-replicas-available-overflow).
    std::vector<model::cluster> cs{cluster("member1", 10), cluster("member2", 10)};
    auto spec = aggregated_spec();
    auto w = deployment(0, "a");
    w.has_requirements = true;
    auto prev = previous({});
    auto steady = schedule(spec, w, snapshot(cs), {}, &prev);
    CHECK(steady.scheduled);
    CHECK(steady.clusters.empty());
    prev.fresh = true;
    auto fresh = schedule(spec, w, snapshot(cs), {}, &prev);
    CHECK_FALSE(fresh.scheduled);
    CHECK(fresh.condition_reason == "Unschedulable");
    CHECK(fresh.condition_message ==
          "failed to assign replicas: failed to do fresh scale: Clusters available replicas -2 are not enough to schedule.");
    cs.push_back(cluster("member3", 10)); // three wrap to MaxInt32 - 2: enough for 0
    auto three = schedule(spec, w, snapshot(cs), {}, &prev);
    CHECK(three.scheduled);
    CHECK(three.clusters.empty());
}
