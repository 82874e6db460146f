// SPDX-License-Identifier: Apache-2.0
// Multi-component scheduling: when it applies (gate + spread constraint) and what it writes into the binding.
#include "scheduling/component_sets.hpp"

#include <string>
#include <vector>

#include "scheduling/strategy.hpp"

namespace kpw::scheduling {

model::workload scheduled_form(model::workload w, const settings::feature_gates& gates)
{
    if (!gates.multiple_pod_templates_scheduling()) {
        w.components.clear();
    } else if (!w.components.empty()) {
        w.replicas = 0;
        w.has_requirements = false;
        w.request.clear();
    }
    return w;
}

bool multi_template_applicable(const model::propagation_spec& spec, const model::workload& w,
                               const settings::feature_gates& gates)
{
    if (!gates.multiple_pod_templates_scheduling() || w.components.empty())
        return false;
    if (w.components.size() < 2 && !settings::has(gates.release(), settings::changes::single_component_sets))
        return false; // v1.16 and v1.17: `len(spec.Components) < 2` (estimation.go)
    return spread_of(spec.placement).one_cluster;
}

std::vector<model::target_cluster> component_targets(const std::vector<std::string>& selected,
                                                     const model::workload& w, const model::propagation_spec& spec,
                                                     const settings::feature_gates& gates)
{
    bool record = w.components.size() > 1 && multi_template_applicable(spec, w, gates);
    std::vector<model::target_cluster> out;
    out.reserve(selected.size());
    for (const auto& name : selected) {
        model::target_cluster t{name, 0, {}};
        if (record)
            for (const auto& c : w.components)
                t.components.push_back({c.name, c.replicas});
        out.push_back(std::move(t));
    }
    return out;
}

} // namespace kpw::scheduling
