// SPDX-License-Identifier: Apache-2.0
// Which policy claims a workload: resource selectors, the detector's ranking (spec 1.2), sticky claims and
// preemption (day2-semantics §5), each decision explained in words.
#pragma once

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "model/binding.hpp"
#include "model/policy.hpp"
#include "model/workload.hpp"

namespace kpw::scheduling {

// karmada: pkg/util/helper ResourceMatchSelectorsPriority — 0 mismatch, 1 match-all selector,
// 2 labelSelector match, 3 name match.
enum class match_priority { mismatch = 0, match_all = 1, label_selector = 2, name = 3 };

// "name", "labelSelector", "matchAll", "mismatch": lint's JSON spelling of an implicit priority.
std::string_view match_priority_name(match_priority p);

// One selector: apiVersion and kind equal, namespace equal when set, then the name when set (the
// labelSelector is then ignored), else the labelSelector, else everything.
match_priority selector_match(const model::resource_selector& selector, const model::workload& workload);

// The best match over a policy's selectors.
match_priority best_match(const model::propagation_spec& spec, const model::workload& workload);

// A policy as the detector sees it; `ns` is empty for a ClusterPropagationPolicy.
struct policy_view {
    const model::propagation_spec* spec = nullptr;
    std::string_view ns;
    std::string_view name;
    bool cluster_scoped = false;
    // The change leaves this policy as it is (plan: applied unchanged, or not in PATH), so the detector does
    // not reconcile it: a template its selectors no longer match keeps its claim (cleanPPUnmatchedRBs runs
    // on a policy's create or spec update only; OnPropagationPolicyUpdate skips an unchanged generation).
    bool settled = false;
};

// "PropagationPolicy shop/web", "ClusterPropagationPolicy all".
std::string policy_label(const policy_view& p);

// karmada: pkg/detector (LookForMatchedPolicy / LookForMatchedClusterPolicy, compare.go): a matching
// PropagationPolicy in the workload's namespace beats every ClusterPropagationPolicy; within a kind,
// higher spec.priority, then the better selector match, then the smaller name. nullopt: unclaimed.
std::optional<std::size_t> claiming_policy(std::span<const policy_view> policies, const model::workload& workload);

// The claim Karmada recorded on the template, read the way pkg/detector/policy.go propagateResource reads
// it: all three PP keys (permanent-id label, namespace and name annotations) first, else the CPP
// permanent-id label and name annotation. nullopt: unclaimed (or only some of the keys present).
std::optional<model::policy_claim> recorded_claim(const model::workload& workload);

// Label that hands a template to another controller (MultiClusterService): no policy claims it then.
inline constexpr std::string_view claimed_by_label = "resourcetemplate.karmada.io/claimed-by";

// One policy that matches the workload (or holds its claim), as the explanation lists it.
struct claim_candidate {
    std::size_t policy = 0; // index into the policies given
    std::int32_t priority = 0;
    match_priority implicit = match_priority::mismatch;
    bool matched = true; // false only for a holder whose selectors no longer match
    std::string why;     // the winner: why it claims; the others: why they lost
};

enum class claim_source { none, labels, binding };

// The whole decision for one workload.
struct claim_explanation {
    std::optional<std::size_t> policy; // who holds the workload after the given policies are applied
    std::string reason;
    std::vector<claim_candidate> candidates; // the ranked order (PPs, then CPPs); a holder that no longer matches last
    std::optional<std::size_t> would_win;    // the ranked winner, as if the workload were unclaimed
    std::optional<model::policy_claim> holder; // the recorded claim, when there is one
    claim_source source = claim_source::none;
    bool sticky = false;    // the recorded holder keeps the workload
    bool preempted = false; // a policy with preemption: Always took it over from the holder
    bool ignored = false;   // the claimed-by label hands it to another controller
    bool by_name = false;   // the ranked winner beats the runner-up on the name order only
    // The holder keeps the claim although its selectors no longer match the template (it is settled): the
    // detector's getAndApplyPolicy then returns without applying it, so the binding is left as it stands.
    bool holder_unmatched = false;
    // The holder's selectors no longer match and it is reconciled (created or updated): the detector takes
    // its claim off the template and the binding (cleanPPUnmatchedRBs), and `policy` claims it afresh.
    bool released_unmatched = false;
};

// What the detector does with one workload, given every policy and, optionally, the claim known from the
// workload's binding (it takes precedence over the template's own claim keys). `preemption_gate`: the
// PropagationPolicyPreemption feature gate. `claim_on_binding` false: no binding carries the holder's claim
// (the detector claimed the template but its BuildResourceBinding failed), so a reconciled holder that no
// longer selects it cannot release it (cleanPPUnmatchedRBs finds what it releases through the bindings).
claim_explanation explain_claim(std::span<const policy_view> policies, const model::workload& workload,
                                const model::policy_claim* known_claim, bool preemption_gate,
                                bool claim_on_binding = true);

// True when `p` is the policy that `claim` names.
bool names_policy(const model::policy_claim& claim, const policy_view& p);

// The first of `views` that `claim` names (claims are sticky: no ranking); nullopt when none does or there is
// no claim.
std::optional<std::size_t> view_named(const std::optional<model::policy_claim>& claim, std::span<const policy_view> views);

// Whether `by` would take a template over from its current holder (day2-semantics §5.3): `reason` is
// empty when it would, else says why not, and `field` names what to change (spec.priority,
// spec.preemption, or "" when nothing in `by` can change it).
struct preemption_verdict {
    std::string field;
    std::string reason;
    bool preempts() const { return reason.empty(); }
};

// karmada: pkg/detector/preemption.go preemptionEnabled, preemptPropagationPolicy,
// preemptClusterPropagationPolicyDirectly, preemptClusterPropagationPolicy.
preemption_verdict preemption_blocker(const policy_view& by, const policy_view& holder,
                                      const model::workload& workload, bool preemption_gate);

} // namespace kpw::scheduling
