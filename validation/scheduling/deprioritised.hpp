// SPDX-License-Identifier: Apache-2.0
// The policies a priority cut re-queues: after an update lowers one policy's priority, others may preempt.
#pragma once

#include <cstdint>
#include <optional>
#include <span>

#include "model/policy.hpp"

namespace kpw::scheduling {

// An admitted update that lowered a policy's explicit priority (spec.priority, 0 when unset).
struct lowered_priority {
    const model::policy* updated = nullptr; // the new version
    std::int32_t before = 0;
};

// The update lowers `updated`'s explicit priority: the entry for it, or nothing.
std::optional<lowered_priority> lowered(const model::policy& before, const model::policy& updated);

// karmada: pkg/detector/preemption.go HandleDeprioritizedPropagationPolicy and
// HandleDeprioritizedClusterPropagationPolicy, called from the update event handlers (detector.go:1024-1026
// of v1.18.2) when the PropagationPolicyPreemption gate is on: the policies of the lowered one's kind (and
// namespace, for a PropagationPolicy) that set spec.priority, preempt Always, and whose priority lies strictly
// between the new and the old are re-queued, and reconciled as if updated: each may now preempt what a
// policy of lower priority holds. Whether `candidate` is one of them for any of `cuts`.
bool requeued_by_priority_cut(const model::policy& candidate, std::span<const lowered_priority> cuts);

} // namespace kpw::scheduling
