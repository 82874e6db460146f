// SPDX-License-Identifier: Apache-2.0
// activationPreference: Lazy in a change: when the detector claims a template for a Lazy policy but leaves its
// binding alone (neither creates nor updates it).
#pragma once

#include <span>

#include "scheduling/claim.hpp"

namespace kpw::scheduling {

// How the change reached one template, as far as the detector's queue tells (ResourceChangeByKarmada).
struct template_events {
    bool change = false;       // a change to policies on a running Karmada (plan, lint --base); false: a first apply
    bool user_changed = false; // a user created or changed the template in this change (a user's update event)
    bool released = false;     // a deleted policy's cleanup took its claim off (an update event without a claim)
};

// karmada: pkg/detector/detector.go ApplyPolicy skips BuildResourceBinding ("Skip refresh Binding") when the
// template was queued as Karmada's own change and the policy that claims it is Lazy. A policy's reconcile
// queues the templates it matches in the waiting list (unclaimed) and those of the bindings it holds with
// ResourceChangeByKarmada = its own preference (enqueueResourceTemplateForPolicyChange); a claim written by
// Karmada queues with ResourceChangeByKarmada only while a Lazy policy claims the template (OnUpdate,
// isClaimedByLazyPolicy); a claim taken off (deletion, cleanPPUnmatchedRBs), a user's change and a new
// template queue without. So the binding is left alone when `c.policy` is Lazy and no queueing without
// the flag reaches the template: not user-changed, not released, and no reconciled (not settled) policy
// that is not Lazy queues it: its holder, or, while it was unclaimed, the first reconciled policy that
// matches it (its handler takes it off the waiting list; the later ones never see it). Live the
// PropagationPolicy and ClusterPropagationPolicy reconcilers race; "first" is PropagationPolicies before
// ClusterPropagationPolicies, each in the views' order (the order applied), as the oracle runs them.
bool lazy_skips_binding(const claim_explanation& c, std::span<const policy_view> views, const template_events& events);

} // namespace kpw::scheduling
