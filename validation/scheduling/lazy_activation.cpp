// SPDX-License-Identifier: Apache-2.0
#include "scheduling/lazy_activation.hpp"

#include "model/well_known.hpp"

namespace kpw::scheduling {

namespace {

bool lazy(const policy_view& p) { return p.spec->activation_preference == model::activation_preference_lazy; }

// A reconcile by `p` queues the template without ResourceChangeByKarmada.
bool queues_as_user(const policy_view& p) { return !p.settled && !lazy(p); }

} // namespace

bool lazy_skips_binding(const claim_explanation& c, std::span<const policy_view> views, const template_events& events)
{
    if (!events.change || events.user_changed || events.released || c.released_unmatched || !c.policy ||
        !lazy(views[*c.policy]))
        return false;
    if (c.holder) { // the holder's reconcile queues the templates of the bindings it holds
        for (const auto& p : views)
            if (names_policy(*c.holder, p) && queues_as_user(p))
                return false;
        return true;
    }
    for (const auto& candidate : c.candidates) // the waiting list: every policy that matches it
        if (candidate.matched && queues_as_user(views[candidate.policy]))
            return false;
    return true;
}

} // namespace kpw::scheduling
