// SPDX-License-Identifier: Apache-2.0
#include "scheduling/lazy_activation.hpp"

#include <optional>
#include <utility>

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
        const auto holder = view_named(c.holder, views);
        return !holder || !queues_as_user(views[*holder]);
    }
    // The waiting list: the first reconciled policy that matches the template takes it off the list as it
    // queues it (GetMatching, RemoveWaiting), so the later ones never see it. Live the two reconcilers race;
    // the order taken is the oracle's: PropagationPolicies, then ClusterPropagationPolicies, each as applied.
    const auto before = [&](std::size_t a, std::size_t b) {
        return std::pair(views[a].cluster_scoped, a) < std::pair(views[b].cluster_scoped, b);
    };
    std::optional<std::size_t> first;
    for (const auto& candidate : c.candidates)
        if (candidate.matched && !views[candidate.policy].settled && (!first || before(candidate.policy, *first)))
            first = candidate.policy;
    return !first || lazy(views[*first]);
}

} // namespace kpw::scheduling
