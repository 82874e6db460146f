// SPDX-License-Identifier: Apache-2.0
// The placement diff model: added / removed / changed workloads, moves, the plan line and the summary.
#include <doctest/doctest.h>

#include "lint/diff.hpp"

using namespace kpw::lint;

namespace {

const workload_key web{"apps/v1", "Deployment", "shop", "web"};
const workload_key api{"apps/v1", "Deployment", "shop", "api"};

placed_workload scheduled(const workload_key& w, std::string policy, std::string group,
                          std::vector<placed_cluster> clusters)
{
    std::int64_t total = 0;
    for (const auto& c : clusters)
        total += c.replicas;
    return {w, total, {true, std::move(policy), std::move(group), true, std::move(clusters), {}}};
}

placed_workload unschedulable(const workload_key& w, std::string policy)
{
    return {w, 6, {true, std::move(policy), "", false, {}, {"idc: no cluster fits"}}};
}

const placed_workload web_on_idc = scheduled(web, "PropagationPolicy shop/web", "idc", {{"idc-east-1", 6, "idc", 6}});

} // namespace

TEST_CASE("the same placements on both sides are unchanged, and capacity alone is no change")
{
    placed_workload again = web_on_idc;
    again.where.clusters[0].available = 60;
    const std::vector before{web_on_idc}, after{again};
    const placement_diff d = diff_placements(before, after);
    CHECK(d.changes.empty());
    CHECK(d.unchanged == 1);
    CHECK(diff_summary_line(d) == "0 workloads change placement, 1 unchanged");
}

TEST_CASE("replicas moving to an overflow tier read like a terraform plan line, with the moves")
{
    const std::vector before{web_on_idc};
    const std::vector after{scheduled(web, "PropagationPolicy shop/web", "idc",
                                      {{"idc-east-1", 4, "idc", 6}, {"cloud-east-1", 2, "public-cloud", 30}})};
    const placement_diff d = diff_placements(before, after);
    REQUIRE(d.changes.size() == 1);
    const workload_change& c = d.changes[0];
    CHECK(c.kind == change_kind::changed);
    CHECK(change_detail(c) == "idc-east-1 6 → 4, + cloud-east-1 2 (public-cloud)");
    REQUIRE(c.moves.size() == 2);
    CHECK((c.moves[0].cluster == "idc-east-1" && c.moves[0].from == 6 && c.moves[0].to == 4));
    CHECK((c.moves[1].cluster == "cloud-east-1" && c.moves[1].from == 0 && c.moves[1].to == 2));
    CHECK(diff_summary_line(d) == "1 workload changes placement, 0 unchanged");
}

TEST_CASE("a workload claimed only after is added, one claimed only before is removed")
{
    const std::vector before{web_on_idc};
    const std::vector after{scheduled(api, "PropagationPolicy shop/api", "idc", {{"idc-east-2", 2, "idc", {}}})};
    const placement_diff d = diff_placements(before, after);
    REQUIRE(d.changes.size() == 2);
    // Workload order (namespace, then name), whichever side they come from.
    CHECK(d.changes[0].workload.name == "api");
    CHECK(d.changes[0].kind == change_kind::added);
    CHECK(change_sign(d.changes[0].kind) == '+');
    CHECK(change_detail(d.changes[0]) == "claimed by PropagationPolicy shop/api, + idc-east-2 2 (idc)");
    CHECK(d.changes[1].kind == change_kind::removed);
    CHECK(change_detail(d.changes[1]) == "no longer claimed (was PropagationPolicy shop/web), - idc-east-1 6 (idc)");
    CHECK(d.changes[1].moves.size() == 1);
}

TEST_CASE("another policy claiming the workload is a change even when the clusters stay")
{
    placed_workload claimed = web_on_idc;
    claimed.where.policy = "ClusterPropagationPolicy everything";
    const std::vector before{web_on_idc}, after{claimed};
    const placement_diff d = diff_placements(before, after);
    REQUIRE(d.changes.size() == 1);
    CHECK(d.changes[0].moves.empty());
    CHECK(change_detail(d.changes[0]) == "policy PropagationPolicy shop/web → ClusterPropagationPolicy everything");
}

TEST_CASE("a group change names both groups; a tier change with the same replicas shows the tiers")
{
    const std::vector before{web_on_idc};
    const std::vector group{scheduled(web, "PropagationPolicy shop/web", "cloud", {{"cloud-east-1", 6, "cloud", {}}})};
    const placement_diff d = diff_placements(before, group);
    REQUIRE(d.changes.size() == 1);
    CHECK(change_detail(d.changes[0]) == "group idc → cloud, - idc-east-1 6 (idc), + cloud-east-1 6 (cloud)");

    const std::vector tier{scheduled(web, "PropagationPolicy shop/web", "idc", {{"idc-east-1", 6, "burst", {}}})};
    const placement_diff t = diff_placements(before, tier);
    REQUIRE(t.changes.size() == 1);
    CHECK(t.changes[0].moves.empty());
    CHECK(change_detail(t.changes[0]) == "idc-east-1 6 (idc → burst)");
}

TEST_CASE("scheduled to unschedulable and back are counted apart")
{
    const std::vector before{web_on_idc, unschedulable(api, "PropagationPolicy shop/api")};
    const std::vector after{unschedulable(web, "PropagationPolicy shop/web"),
                            scheduled(api, "PropagationPolicy shop/api", "idc", {{"idc-east-2", 6, "idc", {}}})};
    const placement_diff d = diff_placements(before, after);
    REQUIRE(d.changes.size() == 2);
    CHECK(d.becomes_unschedulable == 1);
    CHECK(d.becomes_schedulable == 1);
    CHECK(change_detail(d.changes[1]) == "scheduled → unschedulable, - idc-east-1 6 (idc)");
    CHECK(change_detail(d.changes[0]) == "unschedulable → scheduled, + idc-east-2 6 (idc)");
    CHECK(diff_summary_line(d) ==
          "2 workloads change placement, 1 becomes unschedulable, 1 becomes schedulable, 0 unchanged");
}

TEST_CASE("a workload no policy claims on either side is not counted")
{
    const std::vector<placed_workload> before{{api, 1, {}}}, after{{api, 1, {}}};
    const placement_diff d = diff_placements(before, after);
    CHECK(d.changes.empty());
    CHECK(d.unchanged == 0);
}
