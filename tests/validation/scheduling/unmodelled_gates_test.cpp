// SPDX-License-Identifier: Apache-2.0
// The gates under which one binding's schedule depends on others': when the dry run says it leaves them out.
#include <doctest/doctest.h>

#include "fixtures.hpp"
#include "scheduling/unmodelled_gates.hpp"

using namespace kpw;
using namespace kpw::scheduling;

namespace {

model::workload labelled(model::label_map labels)
{
    auto w = scheduling::test::deployment(2);
    w.labels = std::move(labels);
    return w;
}

model::placement grouped_by(std::string affinity_key, std::string anti_key)
{
    model::placement p;
    model::workload_affinity wa;
    if (!affinity_key.empty())
        wa.affinity = model::workload_affinity_term{std::move(affinity_key)};
    if (!anti_key.empty())
        wa.anti_affinity = model::workload_affinity_term{std::move(anti_key)};
    p.workload_affinity = wa;
    return p;
}

settings::feature_gates with(std::string_view gate)
{
    settings::feature_gates g;
    g.set(gate, true);
    return g;
}

} // namespace

TEST_CASE("affinity groups are the template's label values under the policy's keys (getWorkloadAffinityGroups)")
{
    auto w = labelled({{"app", "web"}, {"team", "pay"}});
    auto groups = affinity_groups_of(grouped_by("app", "team"), w);
    CHECK(groups.affinity_group == "app=web");
    CHECK(groups.anti_affinity_group == "team=pay");
    CHECK(affinity_groups_of(grouped_by("tier", ""), w).empty()); // no such label: no group
    CHECK(affinity_groups_of(model::placement{}, w).empty());    // no workloadAffinity
}

TEST_CASE("workload-affinity-not-predicted: only with the gate, a group, and another binding that may share it")
{
    auto w = labelled({{"app", "web"}});
    const auto p = grouped_by("app", "");
    CHECK_FALSE(workload_affinity_not_predicted(p, w, settings::feature_gates{}, true));
    CHECK_FALSE(workload_affinity_not_predicted(p, w, with("WorkloadAffinity"), false));
    CHECK_FALSE(workload_affinity_not_predicted(grouped_by("tier", ""), w, with("WorkloadAffinity"), true));
    auto text = workload_affinity_not_predicted(p, w, with("WorkloadAffinity"), true);
    REQUIRE(text);
    CHECK(text->find("affinity group app=web") != std::string::npos);
    CHECK(text->find("Deployment default/web") == 0);
}

TEST_CASE("assumed-workloads-not-predicted: SchedulingOvercommitProtection with two workloads or more")
{
    CHECK_FALSE(assumed_workloads_not_predicted(5, settings::feature_gates{}));
    CHECK_FALSE(assumed_workloads_not_predicted(1, with("SchedulingOvercommitProtection")));
    auto text = assumed_workloads_not_predicted(2, with("SchedulingOvercommitProtection"));
    REQUIRE(text);
    CHECK(text->find("these 2 workloads") != std::string::npos);
    // v1.17.1 has no such gate: it is never on there.
    CHECK_FALSE(assumed_workloads_not_predicted(2, settings::feature_gates(settings::karmada_release::v1_17_1)));
}
