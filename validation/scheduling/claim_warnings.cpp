// SPDX-License-Identifier: Apache-2.0
// claim_warnings: what the claim decisions over all given workloads say about each policy.
#include "scheduling/claim_warnings.hpp"

#include <set>
#include <utility>

#include "model/object_label.hpp"

namespace kpw::scheduling {

namespace {

constexpr std::size_t named_at_most = 3; // workloads named in one message; the rest are counted

std::string workload_label(const model::workload& w)
{
    return model::object_label(w.kind, w.namespace_, w.name);
}

// "Deployment shop/a, Deployment shop/b and 3 more".
std::string listing(const std::vector<std::string>& items)
{
    std::string out;
    for (std::size_t i = 0; i < items.size() && i < named_at_most; ++i)
        out += (i ? ", " : "") + items[i];
    if (items.size() > named_at_most)
        out += " and " + std::to_string(items.size() - named_at_most) + " more";
    return out;
}

bool matches(const claim_explanation& c, std::size_t policy)
{
    for (const auto& cand : c.candidates)
        if (cand.policy == policy && cand.matched)
            return true;
    return false;
}

// Who holds the workload instead of `policy`, or "" when nobody does.
std::string other_holder(std::span<const policy_view> ps, const claim_explanation& c, std::size_t policy)
{
    if (c.policy)
        return *c.policy == policy ? std::string() : policy_label(ps[*c.policy]);
    if (c.holder)
        return c.holder->cluster_policy ? "ClusterPropagationPolicy " + c.holder->name
                                        : "PropagationPolicy " + c.holder->namespace_ + '/' + c.holder->name;
    return {};
}

struct per_policy {
    std::vector<std::string> matched, claimed, lost; // workload labels; lost: "<workload> (to <winner>)"
};

void policy_level(std::span<const policy_view> ps, std::span<const model::workload> ws,
                  std::span<const claim_explanation> claims, std::vector<claim_warning>& out)
{
    std::vector<per_policy> seen(ps.size());
    for (std::size_t i = 0; i < ws.size(); ++i)
        for (std::size_t p = 0; p < ps.size(); ++p) {
            if (!matches(claims[i], p))
                continue;
            seen[p].matched.push_back(workload_label(ws[i]));
            if (claims[i].policy == p)
                seen[p].claimed.push_back(workload_label(ws[i]));
            else if (auto other = other_holder(ps, claims[i], p); !other.empty() && !claims[i].ignored)
                seen[p].lost.push_back(workload_label(ws[i]) + " (to " + other + ")");
        }
    for (std::size_t p = 0; p < ps.size(); ++p) {
        const auto& s = seen[p];
        if (s.matched.empty())
            out.push_back({p, "policy-claims-nothing", "spec.resourceSelectors",
                           "matches none of the " + std::to_string(ws.size()) + " given workloads"});
        else if (s.claimed.empty() && s.lost.size() == s.matched.size())
            out.push_back({p, "policy-shadowed", "spec.resourceSelectors",
                           "matches " + std::to_string(s.matched.size()) +
                               " workload(s), all claimed by other policies: " + listing(s.lost)});
    }
}

// claim-decided-by-name, once per (winner, runner-up) pair; on the winner.
void ties(std::span<const policy_view> ps, std::span<const model::workload> ws,
          std::span<const claim_explanation> claims, std::vector<claim_warning>& out)
{
    std::set<std::pair<std::size_t, std::size_t>> reported;
    for (std::size_t i = 0; i < ws.size(); ++i) {
        const auto& c = claims[i];
        if (!c.by_name || !c.policy || c.policy != c.would_win || c.candidates.size() < 2)
            continue;
        const std::size_t loser = c.candidates[1].policy;
        if (!reported.insert({*c.policy, loser}).second)
            continue;
        out.push_back({*c.policy, "claim-decided-by-name", "spec.priority",
                       "claims " + workload_label(ws[i]) + " instead of " + policy_label(ps[loser]) +
                           " only by the name order: " + c.candidates.front().why +
                           "; set spec.priority to make the choice explicit"});
    }
}

// claim-not-preempted: the policy that would win an unclaimed workload, on a sticky one it cannot take.
void blocked_preemption(std::span<const policy_view> ps, std::span<const model::workload> ws,
                        std::span<const claim_explanation> claims, bool gate, std::vector<claim_warning>& out)
{
    for (std::size_t i = 0; i < ws.size(); ++i) {
        const auto& c = claims[i];
        if (!c.sticky || !c.policy || !c.would_win || *c.would_win == *c.policy)
            continue;
        const auto verdict = preemption_blocker(ps[*c.would_win], ps[*c.policy], ws[i], gate);
        const char* from = c.source == claim_source::binding ? "its binding" : "the workload's claim labels";
        out.push_back({*c.would_win, "claim-not-preempted", verdict.field,
                       "would claim " + workload_label(ws[i]) + " if it were unclaimed, but " +
                           policy_label(ps[*c.policy]) + " holds it (from " + from + ") and keeps it: " +
                           verdict.reason});
    }
}

// karmada: pkg/detector/detector.go (resourceChangeByKarmada) and ApplyPolicy's "Skip refresh Binding".
void lazy(std::span<const policy_view> ps, std::span<const model::workload> ws,
          std::span<const claim_explanation> claims, std::vector<claim_warning>& out)
{
    for (std::size_t p = 0; p < ps.size(); ++p) {
        if (ps[p].spec->activation_preference != model::activation_preference_lazy)
            continue;
        std::vector<std::string> held;
        for (std::size_t i = 0; i < ws.size(); ++i)
            if (claims[i].policy == p)
                held.push_back(workload_label(ws[i]));
        if (held.empty())
            continue;
        out.push_back({p, "lazy-activation", "spec.activationPreference",
                       "activationPreference Lazy: a change to this policy reaches " + listing(held) +
                           " only at the template's next change by a user (or a karmada-controller-manager "
                           "restart); an existing template it newly claims gets its binding only then"});
    }
}

} // namespace

std::vector<claim_warning> claim_warnings(std::span<const policy_view> policies,
                                          std::span<const model::workload> workloads,
                                          std::span<const claim_explanation> claims, bool preemption_gate)
{
    std::vector<claim_warning> out;
    policy_level(policies, workloads, claims, out);
    ties(policies, workloads, claims, out);
    blocked_preemption(policies, workloads, claims, preemption_gate, out);
    lazy(policies, workloads, claims, out);
    return out;
}

} // namespace kpw::scheduling
