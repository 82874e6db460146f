// SPDX-License-Identifier: Apache-2.0
// Multi-component scheduling: when it applies (gate + spread constraint) and what it writes into the binding.
#include "scheduling/component_sets.hpp"

#include <string>
#include <vector>

#include "model/components.hpp"
#include "scheduling/strategy.hpp"

namespace kpw::scheduling {

namespace {

// A RayService before its customization: no replica hook at all (settings::changes::ray_service_replicas).
bool without_replica_hook(const model::workload& w, const settings::feature_gates& gates)
{
    return w.interpreter == model::replica_interpreter::ray_service &&
           !settings::has(gates.release(), settings::changes::ray_service_replicas);
}

} // namespace

model::workload scheduled_form(model::workload w, const settings::feature_gates& gates)
{
    if (without_replica_hook(w, gates)) {
        w.replicas = 0; // no replica hook for the kind in this release: GetReplicas is never called
        w.has_requirements = false;
        w.request.clear();
        w.claim.reset();
    }
    if (!gates.multiple_pod_templates_scheduling()) {
        w.components.clear();
    } else if (!w.components.empty()) {
        w.replicas = 0;
        w.has_requirements = false;
        w.request.clear();
    }
    return w;
}

const model::interpretation_failure* detector_failure(const model::workload& w, const settings::feature_gates& gates)
{
    if (gates.multiple_pod_templates_scheduling() && model::has_component_interpreter(w.api_version, w.kind))
        return w.components_failure ? &*w.components_failure : nullptr;
    return w.replicas_failure && !without_replica_hook(w, gates) ? &*w.replicas_failure : nullptr;
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
