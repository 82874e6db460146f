// SPDX-License-Identifier: Apache-2.0
// Spread-constraint selection by cluster and by region (spec 3.2-3.6).
#include <doctest/doctest.h>

#include "fixtures.hpp"
#include "model/defaults.hpp"
#include "scheduling/select.hpp"

using namespace kpw;
using namespace kpw::scheduling;
using namespace kpw::scheduling::test;

namespace {

model::spread_constraint by_field(std::string field, std::int64_t min_groups, std::int64_t max_groups)
{
    return {std::move(field), "", max_groups, min_groups};
}

std::vector<model::cluster> regions()
{
    return {cluster("a1", 10, "r-a"), cluster("a2", 10, "r-a"), cluster("b1", 30, "r-b"), cluster("c1", 5, "r-c")};
}

} // namespace

TEST_CASE("spreadByLabel alone fails the group: label spreading is not implemented")
{
    auto spec = dynamic_weight_spec();
    spec.placement.spread_constraints = {{"", "team", 2, 1}};
    auto d = schedule(spec, deployment(2), std::vector<model::cluster>{cluster("m1", 5)});
    CHECK_FALSE(d.scheduled);
    CHECK(d.message == "just support cluster and region spread constraint");
}

TEST_CASE("a cluster constraint without maxGroups fails the group")
{
    auto spec = dynamic_weight_spec();
    spec.placement.spread_constraints = {{"cluster", "", 0, 1}};
    std::vector<model::cluster> cs{cluster("m1", 5), cluster("m2", 5)};
    CHECK(schedule(spec, deployment(2), cs).message == "no enough resource when selecting 0 clusters");
    auto dup = duplicated_spec();
    dup.placement.spread_constraints = spec.placement.spread_constraints;
    CHECK(schedule(dup, deployment(2), cs).message == "no clusters available to schedule");
}

TEST_CASE("a cluster constraint without maxGroups fails selection even for a workload scaled to 0")
{
    // select_clusters_by_cluster.go:39 tests len(selected) == 0, not the replicas (conformance case
    // spread-constraint-empty-selection).
    auto spec = dynamic_weight_spec();
    spec.placement.spread_constraints = {{"cluster", "", 0, 1}};
    auto scaled_to_zero = deployment(0);
    scaled_to_zero.has_requirements = true; // a workload (spec.IsWorkload), not a Duplicated non-workload
    auto d = schedule(spec, scaled_to_zero, std::vector<model::cluster>{cluster("m1", 5)});
    CHECK_FALSE(d.scheduled);
    CHECK(d.message == "no enough resource when selecting 0 clusters");
}

TEST_CASE("a negative cluster maxGroups is Karmada's runtime panic, not a failed group")
{
    // select_clusters_by_cluster.go:31-36: needCnt := min(total, MaxGroups) slices Clusters[:needCnt].
    std::vector<model::cluster> cs{cluster("m1", 5), cluster("m2", 5)};
    for (auto spec : {duplicated_spec(), dynamic_weight_spec()}) {
        spec.placement.spread_constraints = {{"cluster", "", -1, 1}};
        CHECK(selection_may_panic(spec.placement));
        spec.placement.cluster_affinities = {term("first", {"m1", "m2"}), term("second", {"m1", "m2"})};
        auto d = schedule(spec, deployment(2), cs);
        CHECK_FALSE(d.scheduled);
        CHECK(d.karmada_panic == "runtime error: slice bounds out of range [:-1]");
        CHECK(d.message == karmada_panic_text(d.karmada_panic));
        CHECK(d.groups.size() == 1); // the process dies in the first group: the second is never tried
        CHECK(d.condition_reason.empty());
    }
    // Fewer candidates than minGroups fails before the slice: an ordinary error.
    auto spec = duplicated_spec();
    spec.placement.spread_constraints = {{"cluster", "", -1, 3}};
    auto d = schedule(spec, deployment(2), cs);
    CHECK(d.karmada_panic.empty());
    CHECK(d.message == "the number of feasible clusters is less than spreadConstraint.MinGroups");
    // A region constraint takes the by-region path, which never slices by the cluster maxGroups.
    spec.placement.spread_constraints = {{"cluster", "", -1, 1}, {"region", "", 1, 1}};
    CHECK_FALSE(selection_may_panic(spec.placement));
}

TEST_CASE("Divided without a division preference does not ignore spread constraints")
{
    // shouldIgnoreSpreadConstraint compares the preference with "Weighted" exactly; a policy has it from
    // the mutating webhook, a binding written some other way may not (conformance case seed 173).
    model::placement p;
    p.replica_scheduling = model::replica_scheduling_strategy{"Divided", "", std::nullopt};
    p.spread_constraints = {{"cluster", "", -1, 0}};
    CHECK_FALSE(spread_ignored(p));
    CHECK(selection_may_panic(p));
    p.replica_scheduling->replica_division_preference = "Weighted";
    CHECK(spread_ignored(p)); // static weight without weightPreference: every candidate is selected
    CHECK_FALSE(selection_may_panic(p));
}

TEST_CASE("of two cluster constraints the later one selects, as Karmada's map keeps the later")
{
    // Karmada's webhook denies two constraints of one field; a binding written some other way has them, and
    // select_clusters.go's spreadConstraintMap keeps the last (conformance case 172-p139-10).
    std::vector<model::cluster> cs{cluster("m1", 5), cluster("m2", 5), cluster("m3", 5)};
    auto spec = duplicated_spec();
    spec.placement.spread_constraints = {{"cluster", "", 1, 1}, {"cluster", "", 2, 1}};
    auto d = schedule(spec, deployment(2), cs);
    REQUIRE(d.scheduled);
    CHECK(d.clusters.size() == 2);
    spec.placement.spread_constraints = {{"cluster", "", 0, 3}, {"cluster", "", -1, 0}};
    CHECK(selection_may_panic(spec.placement));
    CHECK(schedule(spec, deployment(2), cs).karmada_panic == "runtime error: slice bounds out of range [:-1]");
}

TEST_CASE("a cluster maxGroups below int32 wraps where Karmada narrows it")
{
    // selectClustersByAvailableResource gets int32(needCnt): -4294967295 becomes 1, so one cluster is
    // selected, and the error names the Go int.
    std::vector<model::cluster> cs{cluster("m1", 1), cluster("m2", 1)};
    auto spec = dynamic_weight_spec();
    spec.placement.spread_constraints = {{"cluster", "", -4294967295LL, 1}};
    auto d = schedule(spec, deployment(5), cs);
    CHECK(d.karmada_panic.empty());
    CHECK(d.message == "no enough resource when selecting -4294967295 clusters");
    // Duplicated slices with the Go int itself: the panic names it.
    auto dup = duplicated_spec();
    dup.placement.spread_constraints = spec.placement.spread_constraints;
    CHECK(schedule(dup, deployment(5), cs).karmada_panic == "runtime error: slice bounds out of range [:-4294967295]");
}

TEST_CASE("a constraint is read as written: the webhook's defaults make a field-less one a cluster one")
{
    const std::vector<model::cluster> two{cluster("m1", 5), cluster("m2", 9)};
    auto spec = duplicated_spec();
    spec.placement.spread_constraints = {{"", "", 1, 0}};
    // As a binding written without the webhook carries it: neither cluster nor region.
    auto raw = schedule(spec, deployment(2), two);
    CHECK_FALSE(raw.scheduled);
    CHECK(raw.message == "just support cluster and region spread constraint");
    // As a policy carries it once the mutating webhook has defaulted it (cluster, minGroups 1).
    model::policy p;
    p.spec = spec;
    model::apply_mutating_defaults(p, "default");
    CHECK(split(schedule(p.spec, deployment(2), two)) == replicas_map{{"m2", 2}});
    CHECK_FALSE(scheduling::selection_may_panic(spec.placement)); // no cluster constraint, no slicing
}

TEST_CASE("a region minGroups of 0 counts as 0: the empty set of regions is feasible, then no cluster")
{
    // karmada group_clusters.go: target int64(math.Ceil(replicas / 0.0)); select_groups.go: the empty
    // path meets a cluster minGroups of 0 at once, so no region is chosen.
    auto spec = dynamic_weight_spec();
    spec.placement.spread_constraints = {{"region", "", 2, 0}, {"cluster", "", 3, 0}};
    auto d = schedule(spec, deployment(4), std::vector<model::cluster>{cluster("m1", 8, "r1"), cluster("m2", 8, "r2")});
    CHECK_FALSE(d.scheduled);
    CHECK(d.message ==
          "the number of clusters is less than the cluster spreadConstraint.MinGroups");
}

TEST_CASE("fewer candidates than minGroups fails the group")
{
    auto spec = dynamic_weight_spec();
    spec.placement.spread_constraints = {by_field("cluster", 3, 3)};
    auto d = schedule(spec, deployment(2), std::vector<model::cluster>{cluster("m1", 5), cluster("m2", 5)});
    CHECK(d.message == "the number of feasible clusters is less than spreadConstraint.MinGroups");
}

TEST_CASE("static weight without weightPreference ignores spread constraints; weightPreference {} does not")
{
    auto spec = static_weight_spec({});
    spec.placement.replica_scheduling->weight_preference.reset();
    spec.placement.spread_constraints = {by_field("cluster", 1, 0)};
    std::vector<model::cluster> cs{cluster("m1", 5), cluster("m2", 5)};
    CHECK(split(schedule(spec, deployment(4), cs)) == replicas_map{{"m1", 2}, {"m2", 2}});
    spec.placement.replica_scheduling->weight_preference = model::cluster_preferences{};
    CHECK_FALSE(schedule(spec, deployment(4), cs).scheduled);
}

TEST_CASE("duplicated with maxGroups takes the clusters with most available replicas")
{
    auto spec = duplicated_spec();
    spec.placement.spread_constraints = {by_field("cluster", 1, 2)};
    std::vector<model::cluster> cs{cluster("m1", 1), cluster("m2", 7), cluster("m3", 7), cluster("m4", 3)};
    CHECK(split(schedule(spec, deployment(2), cs)) == replicas_map{{"m2", 2}, {"m3", 2}});
}

TEST_CASE("the capacity swap replaces the last slot with a bigger overflow cluster")
{
    auto spec = dynamic_weight_spec();
    spec.placement.spread_constraints = {by_field("cluster", 1, 2)};
    spec.placement.cluster_affinities = {term("primary", {"m1", "m2"}, {overflow("cloud", {"m3"})})};
    std::vector<model::cluster> cs{cluster("m1", 2), cluster("m2", 3), cluster("m3", 10)};
    auto d = schedule(spec, deployment(8), cs);
    REQUIRE(d.scheduled);
    CHECK(split(d) == replicas_map{{"m2", 3}, {"m3", 5}});
}

TEST_CASE("region selection needs region minGroups regions")
{
    auto spec = dynamic_weight_spec();
    spec.placement.spread_constraints = {by_field("region", 4, 4), by_field("cluster", 1, 4)};
    CHECK(schedule(spec, deployment(4), regions()).message ==
          "the number of feasible region is less than spreadConstraint.MinGroups");
}

TEST_CASE("region maxGroups 0 leaves no feasible path")
{
    auto spec = dynamic_weight_spec();
    spec.placement.spread_constraints = {by_field("region", 1, 0), by_field("cluster", 1, 4)};
    CHECK(schedule(spec, deployment(4), regions()).message ==
          "the number of clusters is less than the cluster spreadConstraint.MinGroups");
}

TEST_CASE("two regions by score: the best pair, its first clusters, then the rest by capacity")
{
    auto spec = dynamic_weight_spec();
    spec.placement.spread_constraints = {by_field("region", 2, 2), by_field("cluster", 2, 3)};
    // Scores (target ceil(30/2) = 15): r-a min(20,15) = 15, r-b 15, r-c 5. Pairs: r-a+r-b wins on weight.
    auto d = schedule(spec, deployment(30), regions());
    REQUIRE(d.scheduled);
    // b1 and a1 first (one per region), then a2 to reach cluster maxGroups 3; Webster 30 over 30:10:10.
    CHECK(split(d) == replicas_map{{"a1", 6}, {"a2", 6}, {"b1", 18}});
}

TEST_CASE("region selection with cluster maxGroups 0 still takes each chosen region's first cluster")
{
    auto spec = duplicated_spec();
    spec.placement.spread_constraints = {by_field("region", 1, 1), by_field("cluster", 1, 0)};
    auto d = schedule(spec, deployment(3), regions());
    REQUIRE(d.scheduled);
    // Duplicated scores count clusters with ≥ 3 available: r-a 2, r-b 1, r-c 1 → r-a; first cluster a1.
    CHECK(split(d) == replicas_map{{"a1", 3}});
}

TEST_CASE("clusters without a region are filtered by a region constraint")
{
    auto spec = duplicated_spec();
    spec.placement.spread_constraints = {by_field("region", 1, 1), by_field("cluster", 1, 1)};
    auto cs = regions();
    cs.push_back(cluster("nowhere", 100));
    auto d = schedule(spec, deployment(1), cs);
    REQUIRE(d.scheduled);
    CHECK(split(d).count("nowhere") == 0);
}
