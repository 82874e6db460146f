// SPDX-License-Identifier: Apache-2.0
// Admission-only checks: UPDATE immutables (U1, U2) and the permanent-id label (validation-rules §6.1-6.2).
#include "rules/rules.hpp"

namespace kpw::rules {
namespace {

std::string_view label_or_empty(const model::policy& p, std::string_view key)
{
    auto it = p.metadata.labels.find(std::string(key));
    return it == p.metadata.labels.end() ? std::string_view() : std::string_view(it->second);
}

} // namespace

std::string_view permanent_id_label(std::string_view kind)
{
    return kind == model::kind_cluster_propagation_policy ? model::cpp_permanent_id_label
                                                          : model::pp_permanent_id_label;
}

// karmada: pkg/webhook/{propagationpolicy,clusterpropagationpolicy}/validating.go Handle (UPDATE branch)
std::optional<std::string> validate_update(const model::policy& now, const model::policy& old)
{
    if (now.spec.scheduler_name != old.spec.scheduler_name)
        return "the schedulerName should not be updated";
    const std::string_view label = permanent_id_label(now.kind);
    if (label_or_empty(now, label) != label_or_empty(old, label))
        return "label " + std::string(label) + " is immutable, it can only be set by the system during creation";
    return std::nullopt;
}

// karmada: pkg/webhook/{propagationpolicy,clusterpropagationpolicy}/validating.go Handle (label check)
std::optional<std::string> validate_permanent_id(const model::policy& p)
{
    const std::string_view label = permanent_id_label(p.kind);
    if (p.metadata.labels.contains(std::string(label)))
        return std::nullopt; // an empty value is accepted
    return "label " + std::string(label) +
           " is required, it should be set by the mutating admission webhook during creation";
}

} // namespace kpw::rules
