// SPDX-License-Identifier: Apache-2.0
#include "scheduling/binding_build.hpp"

#include <algorithm>

#include "scheduling/component_sets.hpp"

namespace kpw::scheduling {

namespace {

constexpr std::string_view priority_class_api = "scheduling.k8s.io/v1";

bool holds_priority_class(std::span<const model::workload> objects, const std::string& name)
{
    return std::any_of(objects.begin(), objects.end(), [&](const model::workload& o) {
        return o.api_version == priority_class_api && o.kind == "PriorityClass" && o.namespace_.empty() && o.name == name;
    });
}

// BuildResourceBinding's error for the priority class, or "" when it reads one.
std::string priority_error(const model::schedule_priority& p, std::span<const model::workload> objects)
{
    if (p.priority_class_source == "KubePriorityClass")
        return holds_priority_class(objects, p.priority_class_name)
                   ? std::string()
                   : "priorityclasses.scheduling.k8s.io \"" + p.priority_class_name + "\" not found";
    if (p.priority_class_source == "PodPriorityClass")
        return "priority class source is PodPriorityClass, but PodPriorityClass is not supported yet";
    if (p.priority_class_source == "FederatedPriorityClass")
        return "priority class source is FederatedPriorityClass, but FederatedPriorityClass is not supported yet";
    return "unsupported priority class source";
}

} // namespace

std::optional<build_failure> binding_build_failure(const model::workload& w, const model::propagation_spec& spec,
                                                   const settings::feature_gates& gates,
                                                   std::span<const model::workload> objects)
{
    if (const auto* interpreter = detector_failure(w, gates))
        return build_failure{"template-not-interpretable",
                             "Karmada's resource interpreter fails on it: " + interpreter->message, interpreter->where, ""};
    if (w.namespace_.empty() || !gates.priority_based_scheduling() || !spec.schedule_priority)
        return std::nullopt;
    const std::string error = priority_error(*spec.schedule_priority, objects);
    if (error.empty())
        return std::nullopt;
    const auto& priority = *spec.schedule_priority;
    if (priority.priority_class_source != "KubePriorityClass")
        return build_failure{"priority-class-not-found",
                             "with PriorityBasedScheduling on the detector reads the policy's spec.schedulePriority "
                             "and fails: \"" + error + "\"; KubePriorityClass is the only source it reads",
                             {}, "spec.schedulePriority.priorityClassSource"};
    return build_failure{"priority-class-not-found",
                         "with PriorityBasedScheduling on the detector reads the policy's spec.schedulePriority, and "
                         "karmada-apiserver has no PriorityClass \"" + priority.priority_class_name +
                             "\" (none among the inputs): \"" + error +
                             "\"; create the PriorityClass there, or name one that exists",
                         {}, "spec.schedulePriority.priorityClassName"};
}

} // namespace kpw::scheduling
