// SPDX-License-Identifier: Apache-2.0
// WorkloadRebalancer's trigger (karmada pkg/controllers/workloadrebalancer) and GenerateBindingName.
#include "controllers/rebalancer.hpp"

#include "scheduling/binding_pairing.hpp"

#include <algorithm>
#include <cctype>

namespace kpw::controllers {

namespace {

std::string sort_key(const workload_reference& w)
{
    return w.api_version + " " + w.kind + " " + w.namespace_ + " " + w.name;
}

model::binding* find_binding(std::vector<model::binding>& bindings, const workload_reference& w)
{
    const std::string name = scheduling::generate_binding_name(w.kind, w.name);
    const std::string_view kind =
        w.namespace_.empty() ? model::kind_cluster_resource_binding : model::kind_resource_binding;
    auto it = std::find_if(bindings.begin(), bindings.end(), [&](const model::binding& b) {
        return b.kind == kind && b.namespace_ == w.namespace_ && b.name == name;
    });
    return it != bindings.end() ? &*it : nullptr;
}

} // namespace

std::vector<observed_workload> run_rebalancer(std::span<const workload_reference> workloads, model::timestamp created,
                                              std::vector<model::binding>& bindings)
{
    std::vector<workload_reference> distinct;
    for (const auto& w : workloads)
        if (std::find(distinct.begin(), distinct.end(), w) == distinct.end())
            distinct.push_back(w);
    std::sort(distinct.begin(), distinct.end(),
              [](const workload_reference& a, const workload_reference& b) { return sort_key(a) < sort_key(b); });
    std::vector<observed_workload> out;
    for (const auto& w : distinct) {
        model::binding* b = find_binding(bindings, w);
        if (b == nullptr) {
            out.push_back({w, "Failed", "ReferencedBindingNotFound"});
            continue;
        }
        // needTriggerReschedule: nil, or the rebalancer's creation strictly after the old trigger.
        if (!b->reschedule_triggered_at || created > *b->reschedule_triggered_at) {
            b->reschedule_triggered_at = created;
            ++b->generation;
        }
        out.push_back({w, "Successful", ""});
    }
    return out;
}

} // namespace kpw::controllers
