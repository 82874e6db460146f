// SPDX-License-Identifier: Apache-2.0
#include "scheduling/detector_update.hpp"

#include "scheduling/binding_pairing.hpp"
#include "scheduling/reschedule.hpp"

namespace kpw::scheduling {

namespace {

} // namespace

binding_update update_binding(const model::binding& b, const model::workload* w, const claim_explanation* claim,
                              const model::binding* recorded, std::span<const policy_view> views,
                              std::span<const model::policy* const> policies, const settings::feature_gates& gates,
                              std::span<const model::workload> objects, bool template_missing)
{
    binding_update u;
    // The live template's uid: a workload file from git often has none, its binding records it.
    const std::string template_uid = w == nullptr ? std::string() : live_template_uid(*w, recorded);
    u.refused = w != nullptr && !detector_may_update(b, template_uid);
    const bool claimed_now = claim != nullptr && claim->policy.has_value();
    // A holder whose selectors no longer match released the template and this binding (cleanPPUnmatchedRBs):
    // the policy that claims the template now updates it, or none does and the scheduler ignores it. The
    // cleanup checks no owner (policy.go removeRBsClaimMetadata), so a binding another object controls is
    // released too, and then no policy can write it again (ApplyPolicy's owner check).
    const bool released = w != nullptr && claim != nullptr && claim->released_unmatched;
    // `writes`: ApplyPolicy gets as far as writing the binding. It does not when BuildResourceBinding fails
    // for the policy that would write it, which is known only once that policy is: decided twice then.
    bool preempted = false;
    const auto decide = [&](bool writes) {
        preempted = w != nullptr && writes && claimed_now && claim->preempted;
        // ApplyPolicy writes the binding for the template's claim (ClaimPolicyForObject first), whatever the
        // binding's own claim keys say; they name another policy only when the binding does not record this
        // template (its spec.resource names another object, or none: the template's claim is its own then).
        const bool for_template = w != nullptr && writes && claimed_now && recorded != &b;
        u.policy = preempted || released || for_template ? claim->policy : view_named(b.claim, views);
        if (released && !writes)
            u.policy.reset();
        if (!u.policy && !b.claim && w != nullptr && writes && claimed_now)
            u.policy = claim->policy; // pkg/detector ApplyPolicy claims the template and updates its binding
    };
    decide(!u.refused);
    if (w != nullptr) {
        const model::propagation_spec no_policy; // the interpreter's failure alone
        u.build_error = binding_build_failure(*w, u.policy ? policies[*u.policy]->spec : no_policy, gates, objects);
    }
    const bool writes = !u.refused && !u.build_error && !(w == nullptr && template_missing);
    if (!writes)
        decide(false);
    // A binding the detector may not update is scheduled as it stands; so is one whose holder no longer
    // selects its template (getAndApplyPolicy returns before ApplyPolicy). Otherwise the detector builds it
    // from the live template, whose uid seeds Karmada's tie-break.
    const bool holder_unmatched = !preempted && claim != nullptr && claim->holder_unmatched;
    u.applied = !writes || !u.policy || holder_unmatched ? b
                                                         : apply_policy(b, *policies[*u.policy], w, template_uid, gates);
    return u;
}

} // namespace kpw::scheduling
