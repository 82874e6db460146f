// SPDX-License-Identifier: Apache-2.0
#include "scheduling/deprioritised.hpp"

#include "model/well_known.hpp"

namespace kpw::scheduling {

namespace {

// policyv1alpha1 ExplicitPriority: spec.priority, 0 when unset.
std::int32_t explicit_priority(const model::policy& p) { return p.spec.priority.value_or(0); }

} // namespace

std::optional<lowered_priority> lowered(const model::policy& before, const model::policy& updated)
{
    if (explicit_priority(updated) >= explicit_priority(before))
        return std::nullopt;
    return lowered_priority{&updated, explicit_priority(before)};
}

bool requeued_by_priority_cut(const model::policy& candidate, std::span<const lowered_priority> cuts)
{
    if (!candidate.spec.priority || candidate.spec.preemption != model::preemption_always)
        return false;
    for (const auto& cut : cuts) {
        const model::policy& p = *cut.updated;
        if (p.kind != candidate.kind || (p.kind == model::kind_propagation_policy && p.metadata.ns != candidate.metadata.ns))
            continue;
        const std::int32_t priority = *candidate.spec.priority;
        if (priority > explicit_priority(p) && priority < cut.before)
            return true;
    }
    return false;
}

} // namespace kpw::scheduling
