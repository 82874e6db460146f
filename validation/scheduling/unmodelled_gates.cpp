// SPDX-License-Identifier: Apache-2.0
#include "scheduling/unmodelled_gates.hpp"

#include "model/object_label.hpp"

namespace kpw::scheduling {

namespace {

std::string group_of(const std::optional<model::workload_affinity_term>& term, const model::workload& w)
{
    if (!term)
        return {};
    auto it = w.labels.find(term->group_by_label_key);
    return it == w.labels.end() ? std::string() : term->group_by_label_key + "=" + it->second;
}

} // namespace

workload_affinity_groups affinity_groups_of(const model::placement& placement, const model::workload& w)
{
    if (!placement.workload_affinity)
        return {};
    return {group_of(placement.workload_affinity->affinity, w), group_of(placement.workload_affinity->anti_affinity, w)};
}

std::optional<std::string> workload_affinity_not_predicted(const model::placement& placement,
                                                           const model::workload& w,
                                                           const settings::feature_gates& gates, bool shared)
{
    if (!gates.workload_affinity() || !shared)
        return std::nullopt;
    const auto groups = affinity_groups_of(placement, w);
    if (groups.empty())
        return std::nullopt;
    std::string which;
    if (!groups.affinity_group.empty())
        which = "affinity group " + groups.affinity_group;
    if (!groups.anti_affinity_group.empty())
        which += (which.empty() ? "" : " and ") + std::string("anti-affinity group ") + groups.anti_affinity_group;
    return model::object_label(w.kind, w.namespace_, w.name) + ": with the WorkloadAffinity gate on, its binding has " +
           which + ", and karmada-scheduler's WorkloadAffinity and WorkloadAntiAffinity filters keep it to (away "
           "from) the clusters that other bindings of those groups in namespace " + w.namespace_ +
           " hold; the dry run schedules it alone, as with the gate off, so it may name clusters Karmada rejects";
}

std::optional<std::string> assumed_workloads_not_predicted(int workloads_scheduled, const settings::feature_gates& gates)
{
    if (!gates.scheduling_overcommit_protection() || workloads_scheduled < 2)
        return std::nullopt;
    return "with the SchedulingOvercommitProtection gate on, karmada-scheduler's general estimator subtracts what it "
           "has assigned to other bindings that the clusters' resourceSummary does not show yet; the dry run "
           "estimates each of these " + std::to_string(workloads_scheduled) +
           " workloads alone, as with the gate off, so where several land on the same clusters Karmada may see less "
           "room than predicted (and which is short depends on the order its queue takes them)";
}

} // namespace kpw::scheduling
