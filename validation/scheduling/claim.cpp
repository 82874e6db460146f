// SPDX-License-Identifier: Apache-2.0
// Resource selector matching, the policy ranking of karmada's resource detector and recorded claims.
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

std::string_view value_of(const model::label_map& m, std::string_view key)
{
    auto it = m.find(key);
    return it == m.end() ? std::string_view() : std::string_view(it->second);
}

} // namespace

std::string_view match_priority_name(match_priority p)
{
    switch (p) {
    case match_priority::name: return "name";
    case match_priority::label_selector: return "labelSelector";
    case match_priority::match_all: return "matchAll";
    case match_priority::mismatch: break;
    }
    return "mismatch";
}

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

std::string policy_label(const policy_view& p)
{
    if (p.cluster_scoped)
        return "ClusterPropagationPolicy " + std::string(p.name);
    return "PropagationPolicy " + std::string(p.ns) + '/' + std::string(p.name);
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

// karmada: pkg/detector/policy.go propagateResource steps 1 and 2 (the PP keys win over the CPP keys;
// a partial set of keys is no claim).
std::optional<model::policy_claim> recorded_claim(const model::workload& w)
{
    const auto pp_ns = value_of(w.annotations, model::pp_namespace_annotation);
    const auto pp_name = value_of(w.annotations, model::pp_name_annotation);
    const auto pp_id = value_of(w.labels, model::pp_permanent_id_label);
    if (!pp_ns.empty() && !pp_name.empty() && !pp_id.empty())
        return model::policy_claim{false, std::string(pp_ns), std::string(pp_name), std::string(pp_id)};
    const auto cpp_name = value_of(w.annotations, model::cpp_name_annotation);
    const auto cpp_id = value_of(w.labels, model::cpp_permanent_id_label);
    if (!cpp_name.empty() && !cpp_id.empty())
        return model::policy_claim{true, {}, std::string(cpp_name), std::string(cpp_id)};
    return std::nullopt;
}

// karmada: getAndApplyPolicy / getAndApplyClusterPolicy fetch the claimed policy by namespace and name;
// the permanent id is not compared.
std::optional<std::size_t> view_named(const std::optional<model::policy_claim>& claim, std::span<const policy_view> views)
{
    for (std::size_t i = 0; claim && i < views.size(); ++i)
        if (names_policy(*claim, views[i]))
            return i;
    return std::nullopt;
}

bool names_policy(const model::policy_claim& claim, const policy_view& p)
{
    if (claim.cluster_policy != p.cluster_scoped || claim.name != p.name)
        return false;
    return p.cluster_scoped || claim.namespace_ == p.ns;
}

preemption_verdict preemption_blocker(const policy_view& by, const policy_view& holder, const model::workload& w,
                                      bool preemption_gate)
{
    const std::int32_t mine = by.spec->priority.value_or(0), theirs = holder.spec->priority.value_or(0);
    if (by.cluster_scoped && !holder.cluster_scoped)
        return {"", "a ClusterPropagationPolicy never preempts a PropagationPolicy"};
    // A PropagationPolicy preempts a ClusterPropagationPolicy whatever the priorities.
    if (by.cluster_scoped == holder.cluster_scoped && mine <= theirs)
        return {"spec.priority", "preemption needs a strictly higher spec.priority (" + std::to_string(mine) +
                                     " is not above " + std::to_string(theirs) +
                                     "; the selector match does not count)"};
    if (by.spec->preemption != model::preemption_always)
        return {"spec.preemption", "its spec.preemption is " +
                                       (by.spec->preemption.empty() ? std::string(model::preemption_never)
                                                                    : by.spec->preemption) +
                                       ", not Always"};
    if (!preemption_gate)
        return {"spec.preemption", "the PropagationPolicyPreemption feature gate is off (its default)"};
    // The detector preempts for a policy when the policy's own event is reconciled
    // (HandlePropagationPolicyCreationOrUpdate -> handlePropagationPolicyPreemption, preemption.go); a
    // template's event never preempts. A policy the change leaves as it is has no such event now.
    if (by.settled)
        return {"", "it is not created or changed here, and the detector preempts only when a policy is created or "
                    "updated (preemption.go)"};
    // Preemption fetches the templates its selectors name (preemption.go fetchResourceTemplate).
    if (best_match(*by.spec, w) != match_priority::name)
        return {"spec.resourceSelectors", "preemption only reaches the templates its resource selectors name"};
    return {};
}

} // namespace kpw::scheduling
