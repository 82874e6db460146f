// SPDX-License-Identifier: Apache-2.0
// explain_claim: the detector's decision for one workload, with every matching policy and why it lost.
#include <algorithm>

#include "scheduling/claim.hpp"

namespace kpw::scheduling {

namespace {

std::string_view match_words(match_priority p)
{
    switch (p) {
    case match_priority::name: return "name";
    case match_priority::label_selector: return "labelSelector";
    case match_priority::match_all: return "kind only (match-all)";
    case match_priority::mismatch: break;
    }
    return "nothing";
}

std::string quoted(std::string_view s) { return '"' + std::string(s) + '"'; }

constexpr const char* preempted_note = " (preemption: Always, PropagationPolicyPreemption on)";

// karmada: pkg/detector/compare.go (within a kind) and propagateResource (PP before CPP): the rule that
// puts `a` before `b`, in words.
std::string deciding_rule(std::span<const policy_view> ps, const claim_candidate& a, const claim_candidate& b)
{
    const policy_view &pa = ps[a.policy], &pb = ps[b.policy];
    if (pa.cluster_scoped != pb.cluster_scoped)
        return "a PropagationPolicy wins over every ClusterPropagationPolicy, whatever the priorities";
    if (a.priority != b.priority)
        return "priority " + std::to_string(a.priority) + " > " + std::to_string(b.priority);
    const std::string same = "same priority " + std::to_string(a.priority);
    if (a.implicit != b.implicit)
        return same + "; a match by " + std::string(match_words(a.implicit)) + " beats a match by " +
               std::string(match_words(b.implicit));
    return same + " and match by " + std::string(match_words(a.implicit)) + "; the name order decides (" +
           quoted(pa.name) + " < " + quoted(pb.name) + ")";
}

bool ranks_before(std::span<const policy_view> ps, const claim_candidate& a, const claim_candidate& b)
{
    const policy_view &pa = ps[a.policy], &pb = ps[b.policy];
    if (pa.cluster_scoped != pb.cluster_scoped)
        return !pa.cluster_scoped;
    if (a.priority != b.priority)
        return a.priority > b.priority;
    if (a.implicit != b.implicit)
        return a.implicit > b.implicit;
    return pa.name < pb.name;
}

// Every matching policy in the detector's order, each with why it won or lost.
void rank(std::span<const policy_view> ps, const model::workload& w, claim_explanation& out)
{
    for (std::size_t i = 0; i < ps.size(); ++i) {
        // A PropagationPolicy only ever claims objects of its own namespace.
        if (!ps[i].cluster_scoped && ps[i].ns != w.namespace_)
            continue;
        const auto implicit = best_match(*ps[i].spec, w);
        if (implicit != match_priority::mismatch)
            out.candidates.push_back({i, ps[i].spec->priority.value_or(0), implicit, true, {}});
    }
    std::sort(out.candidates.begin(), out.candidates.end(),
              [&](const claim_candidate& a, const claim_candidate& b) { return ranks_before(ps, a, b); });
    if (out.candidates.empty()) {
        out.reason = "no policy matches it: Karmada keeps it waiting (\"no matched propagation policy\")";
        return;
    }
    const claim_candidate& first = out.candidates.front();
    out.would_win = first.policy;
    if (out.candidates.size() == 1) {
        out.candidates.front().why = "the only matching policy (priority " + std::to_string(first.priority) +
                                     ", match by " + std::string(match_words(first.implicit)) + ")";
    } else {
        const claim_candidate& second = out.candidates[1];
        out.by_name = ps[first.policy].cluster_scoped == ps[second.policy].cluster_scoped &&
                      first.priority == second.priority && first.implicit == second.implicit;
        out.candidates.front().why = deciding_rule(ps, first, second) + " over " + policy_label(ps[second.policy]);
        for (std::size_t k = 1; k < out.candidates.size(); ++k)
            out.candidates[k].why = "loses to " + policy_label(ps[first.policy]) + ": " +
                                    deciding_rule(ps, first, out.candidates[k]);
    }
    out.policy = first.policy;
    out.reason = out.candidates.front().why;
}

std::string claim_label(const model::policy_claim& c)
{
    return c.cluster_policy ? "ClusterPropagationPolicy " + c.name
                            : "PropagationPolicy " + c.namespace_ + '/' + c.name;
}

claim_candidate* find_candidate(claim_explanation& out, std::size_t policy)
{
    for (auto& c : out.candidates)
        if (c.policy == policy)
            return &c;
    return nullptr;
}

// The first candidate (in rank order) that preempts the holder; the highest-ranked preemptor is the one
// that keeps the template, since the others cannot preempt it back.
std::optional<std::size_t> preemptor(std::span<const policy_view> ps, const model::workload& w, std::size_t holder,
                                     bool gate, const claim_explanation& out)
{
    for (const auto& c : out.candidates)
        if (c.policy != holder && preemption_blocker(ps[c.policy], ps[holder], w, gate).preempts())
            return c.policy;
    return std::nullopt;
}

// The holder is among the given policies: it keeps the workload unless its selectors no longer match
// (applying it then drops the claim: detector cleanPPUnmatchedRBs / cleanCPPUnmatchedRBs) or a policy
// preempts it.
void apply_known_holder(std::span<const policy_view> ps, const model::workload& w, std::size_t holder, bool gate,
                        bool claim_on_binding, claim_explanation& out)
{
    const std::string held = claim_label(*out.holder);
    claim_candidate* mine = find_candidate(out, holder);
    // A holder the change leaves as it is keeps a template it no longer selects, unless a policy the change
    // creates or updates preempts it: preemption.go compares priorities only, not whether the holder still
    // selects the template (seed 2302 sub-case c18-2).
    if (auto p = !mine && ps[holder].settled ? preemptor(ps, w, holder, gate, out) : std::nullopt) {
        out.preempted = true;
        out.policy = p;
        out.reason = "preempts " + held + preempted_note;
        find_candidate(out, *p)->why = out.reason;
        return;
    }
    // cleanPPUnmatchedRBs finds what it releases through the bindings that carry the holder's claim: a claim
    // on the template alone (its binding never built) is not released, even by a reconciled holder.
    const bool releasable = !ps[holder].settled && claim_on_binding;
    if (!mine && !releasable) {
        const std::string ranked = out.reason;
        out.candidates.push_back({holder, ps[holder].spec->priority.value_or(0), match_priority::mismatch, false,
                                  "holds the claim; its selectors no longer match, but it is not changed, so the "
                                  "detector does not release it"});
        out.sticky = true;
        out.holder_unmatched = true;
        out.policy = holder;
        out.reason = "already claimed by " + held + " (claims are sticky): its selectors no longer match the template, "
                     "and the detector releases it only when " + policy_label(ps[holder]) +
                     (ps[holder].settled ? " itself changes (cleanUnmatched bindings runs on a policy's create or update)"
                                         : " changes and a binding carries its claim (cleanUnmatched bindings finds "
                                           "what it releases through them; this template has none)") +
                     "; until then the template's changes do not reach its binding (getAndApplyPolicy: not matched)" +
                     (out.would_win ? "; released, " + policy_label(ps[*out.would_win]) + " would win: " + ranked : "");
        return;
    }
    if (!mine) {
        out.candidates.push_back({holder, ps[holder].spec->priority.value_or(0), match_priority::mismatch, false,
                                  "holds the claim, but its selectors no longer match: applying it releases the "
                                  "workload (cleanUnmatched bindings)"});
        out.released_unmatched = true;
        out.reason = "released by " + held + ", whose selectors no longer match; then " +
                     (out.policy ? out.reason : std::string("no policy matches it"));
        return;
    }
    const std::string ranked = out.reason;
    if (auto p = preemptor(ps, w, holder, gate, out)) {
        out.preempted = true;
        out.policy = p;
        out.reason = "preempts " + held + preempted_note;
        find_candidate(out, *p)->why = out.reason;
        mine->why = "held the claim; preempted by " + policy_label(ps[*p]);
        return;
    }
    out.sticky = true;
    out.policy = holder;
    out.reason = "already claimed by " + held + " (claims are sticky)";
    if (out.would_win && *out.would_win != holder) {
        out.reason += "; if it were unclaimed, " + policy_label(ps[*out.would_win]) + " would win: " + ranked;
        auto& w_cand = *find_candidate(out, *out.would_win);
        w_cand.why = "would win if unclaimed, but does not take it over: " +
                     preemption_blocker(ps[*out.would_win], ps[holder], w, gate).reason;
    }
    mine->why = "holds the claim (sticky)";
}

} // namespace

// karmada: pkg/detector/detector.go Reconcile (claimed-by label), pkg/detector/policy.go propagateResource,
// pkg/detector/preemption.go (day2-semantics §5.1-5.3).
claim_explanation explain_claim(std::span<const policy_view> ps, const model::workload& w,
                                const model::policy_claim* known_claim, bool preemption_gate, bool claim_on_binding)
{
    claim_explanation out;
    rank(ps, w, out);
    if (auto it = w.labels.find(claimed_by_label); it != w.labels.end() && !it->second.empty()) {
        out.ignored = true;
        out.policy.reset();
        out.reason = "label " + std::string(claimed_by_label) + "=" + it->second +
                     " hands it to another controller: the detector ignores it";
        return out;
    }
    if (known_claim) {
        out.holder = *known_claim;
        out.source = claim_source::binding;
    } else if (auto recorded = recorded_claim(w)) {
        out.holder = std::move(recorded);
        out.source = claim_source::labels;
    }
    if (!out.holder)
        return out;
    if (const auto holder = view_named(out.holder, ps)) {
        apply_known_holder(ps, w, *holder, preemption_gate, claim_on_binding, out);
        return out;
    }
    // A PropagationPolicy preempts a ClusterPropagationPolicy whatever its spec, so that much is known
    // even when the holding cluster policy is not among the given ones.
    static const model::propagation_spec unknown_spec;
    const policy_view unknown_cpp{&unknown_spec, {}, out.holder->name, true};
    if (out.holder->cluster_policy)
        for (const auto& c : out.candidates)
            if (!ps[c.policy].cluster_scoped &&
                preemption_blocker(ps[c.policy], unknown_cpp, w, preemption_gate).preempts()) {
                out.preempted = true;
                out.policy = c.policy;
                out.reason = "preempts " + claim_label(*out.holder) + preempted_note;
                return out;
            }
    out.sticky = true;
    out.policy.reset();
    out.reason = "already claimed by " + claim_label(*out.holder) +
                 ", which is not among the given policies (claims are sticky)";
    return out;
}

} // namespace kpw::scheduling
