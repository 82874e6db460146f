// SPDX-License-Identifier: Apache-2.0
// Resource selector matching and the policy ranking of karmada's resource detector.
#include "scheduling/claim.hpp"

#include "scheduling/filter.hpp"

namespace kpw::scheduling {

namespace {

// true when `a` outranks `b` (both match; same kind of policy).
bool outranks(const policy_view& a, match_priority pa, const policy_view& b, match_priority pb)
{
    std::int32_t prio_a = a.spec->priority.value_or(0), prio_b = b.spec->priority.value_or(0);
    if (prio_a != prio_b)
        return prio_a > prio_b;
    if (pa != pb)
        return pa > pb;
    return a.name < b.name;
}

} // namespace

match_priority selector_match(const model::resource_selector& s, const model::workload& w)
{
    if (s.api_version != w.api_version || s.kind != w.kind)
        return match_priority::mismatch;
    if (!s.ns.empty() && s.ns != w.namespace_)
        return match_priority::mismatch;
    if (!s.name.empty())
        return s.name == w.name ? match_priority::name : match_priority::mismatch;
    if (s.label_selector)
        return selector_matches(*s.label_selector, w.labels) ? match_priority::label_selector
                                                             : match_priority::mismatch;
    return match_priority::match_all;
}

match_priority best_match(const model::propagation_spec& spec, const model::workload& w)
{
    match_priority best = match_priority::mismatch;
    for (const auto& s : spec.resource_selectors) {
        auto p = selector_match(s, w);
        if (p > best)
            best = p;
    }
    return best;
}

std::optional<std::size_t> claiming_policy(std::span<const policy_view> policies, const model::workload& w)
{
    std::optional<std::size_t> best[2]; // [0] namespaced, [1] cluster-scoped
    match_priority best_prio[2] = {match_priority::mismatch, match_priority::mismatch};
    for (std::size_t i = 0; i < policies.size(); ++i) {
        const auto& p = policies[i];
        // A PropagationPolicy only ever claims objects of its own namespace.
        if (!p.cluster_scoped && p.ns != w.namespace_)
            continue;
        auto prio = best_match(*p.spec, w);
        if (prio == match_priority::mismatch)
            continue;
        int k = p.cluster_scoped ? 1 : 0;
        if (!best[k] || outranks(p, prio, policies[*best[k]], best_prio[k])) {
            best[k] = i;
            best_prio[k] = prio;
        }
    }
    return best[0] ? best[0] : best[1];
}

} // namespace kpw::scheduling
