// SPDX-License-Identifier: Apache-2.0
// The cluster controller's Ready -> taint rules (day2-semantics §4.2), one test per row, and the event text.
#include <doctest/doctest.h>

#include "controllers/cluster_taints.hpp"
#include "controllers/taint_syntax.hpp"

using namespace kpw;
using controllers::taint_cluster_by_condition;

namespace {

const model::taint not_ready{"cluster.karmada.io/not-ready", "", "NoSchedule"};
const model::taint unreachable{"cluster.karmada.io/unreachable", "", "NoSchedule"};

model::cluster with_ready(std::string status, std::vector<model::taint> taints)
{
    model::cluster c;
    c.name = "member1";
    if (!status.empty())
        model::set_condition(c, {"Ready", status, "", ""});
    c.taints = std::move(taints);
    return c;
}

std::vector<std::string> keys(const std::vector<model::taint>& taints)
{
    std::vector<std::string> out;
    for (const auto& t : taints)
        out.push_back(controllers::taint_spec_string({t.key, "", t.effect}));
    return out;
}

} // namespace

TEST_CASE("no Ready condition: a new cluster gets not-ready:NoSchedule, stamped now")
{
    auto u = taint_cluster_by_condition(with_ready("", {}), 500);
    CHECK(u.changed);
    CHECK(keys(u.taints) == std::vector<std::string>{"cluster.karmada.io/not-ready:NoSchedule"});
    CHECK(u.taints[0].time_added == 500);
    CHECK(u.event == "Taint cluster succeed: cluster now has taints([{Key:cluster.karmada.io/not-ready,"
                     "Effect:NoSchedule}]).");
}

TEST_CASE("Ready False: not-ready added at the end, unreachable removed")
{
    auto u = taint_cluster_by_condition(with_ready("False", {{"a", "b", "NoSchedule"}, unreachable}), 500);
    CHECK(keys(u.taints) == std::vector<std::string>{"a:NoSchedule", "cluster.karmada.io/not-ready:NoSchedule"});
    CHECK(u.event == "Taint cluster succeed: cluster now has taints([{Key:a,Value:b,Effect:NoSchedule},"
                     "{Key:cluster.karmada.io/not-ready,Effect:NoSchedule}]).");
}

TEST_CASE("Ready Unknown: unreachable added, not-ready removed")
{
    auto u = taint_cluster_by_condition(with_ready("Unknown", {not_ready}), 500);
    CHECK(keys(u.taints) == std::vector<std::string>{"cluster.karmada.io/unreachable:NoSchedule"});
}

TEST_CASE("Ready True: both removed, and the event says there are none")
{
    auto u = taint_cluster_by_condition(with_ready("True", {not_ready, unreachable}), 500);
    CHECK(u.taints.empty());
    CHECK(u.event == "Taint cluster succeed: cluster now does not have taints.");
}

TEST_CASE("a taint present by key and effect is kept as it is: no change, no event")
{
    model::taint old{"cluster.karmada.io/not-ready", "x", "NoSchedule"};
    old.time_added = 7;
    auto u = taint_cluster_by_condition(with_ready("False", {old}), 500);
    CHECK_FALSE(u.changed);
    CHECK(u.event.empty());
    CHECK(u.taints[0].time_added == 7);
    CHECK_FALSE(taint_cluster_by_condition(with_ready("True", {}), 500).changed);
}
