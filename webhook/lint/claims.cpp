// SPDX-License-Identifier: Apache-2.0
// lint's claims phase: the claims table (summary.claims) and the claim warnings on the policies.
#include "lint/claims.hpp"

#include "doc/locate.hpp"
#include "scheduling/claim_warnings.hpp"

namespace kpw::lint {

policy_ref ref_of(const scheduling::policy_view& p)
{
    return {p.cluster_scoped ? "ClusterPropagationPolicy" : "PropagationPolicy", std::string(p.ns),
            std::string(p.name)};
}

namespace {

claim_row row_of(const model::workload& w, const std::vector<typed_policy>& policies,
                 const std::vector<scheduling::policy_view>& views, const scheduling::claim_explanation& c)
{
    claim_row row;
    row.workload = {w.api_version, w.kind, w.namespace_, w.name, w.replicas};
    if (c.policy && *c.policy >= policies.size()) {
        row.policy = ref_of(views[*c.policy]); // a standing policy (dry_run_context::standing)
        row.reason = c.reason + "; PATH's version of " + row.policy->str() +
                     " is denied, so the server keeps the one it has, and that one claims it";
    } else if (c.policy) {
        row.policy = ref_of(views[*c.policy]);
        row.result = policies[*c.policy].result;
    } else if (c.sticky && c.holder) {
        row.policy = lint::ref_of(*c.holder); // held by a policy that was not linted
    }
    if (row.reason.empty())
        row.reason = c.reason;
    for (const auto& cand : c.candidates)
        row.candidates.push_back({ref_of(views[cand.policy]), cand.priority,
                                  std::string(scheduling::match_priority_name(cand.implicit)), cand.matched,
                                  cand.why});
    row.sticky = c.sticky;
    row.preempted = c.preempted;
    row.ignored = c.ignored;
    if (c.sticky && c.would_win)
        row.would_win = ref_of(views[*c.would_win]);
    return row;
}


// The change deletes the policy that held the workload (detector.go handlePolicyDeletion): what happens next.
void mark_released(const model::policy_claim& was, const scheduling::claim_explanation& c, claim_row& row)
{
    row.released_by = lint::ref_of(was);
    const std::string why_claimed = row.reason; // row_of's: the claim, and whether a standing policy holds it
    row.reason = "released: " + row.released_by->str() +
                 " is deleted (Karmada takes its claim off the template and the binding, nothing else); " +
                 (c.policy ? "the template is reconciled again and " + row.policy->str() +
                                 " claims it: " + why_claimed + "; it updates the same binding"
                           : "no remaining policy claims it: the binding stays on its clusters with no policy, and "
                             "karmada-scheduler ignores it (no re-schedule: replicas a NoExecute taint evicts are placed nowhere "
                             "else) until a policy claims it");
}

} // namespace

policy_ref ref_of(const model::policy_claim& c)
{
    return {c.cluster_policy ? "ClusterPropagationPolicy" : "PropagationPolicy", c.namespace_, c.name};
}

std::vector<scheduling::policy_view> policy_views(const std::vector<typed_policy>& policies, const report& r)
{
    std::vector<scheduling::policy_view> views;
    views.reserve(policies.size());
    for (const auto& p : policies) {
        const bool cluster_scoped = p.policy.kind == model::kind_cluster_propagation_policy;
        views.push_back({&p.policy.spec, r.results[p.result].namespace_name, p.policy.metadata.name, cluster_scoped});
    }
    return views;
}

void add_standing_views(const dry_run_context& ctx, std::vector<scheduling::policy_view>& views)
{
    for (const auto& s : ctx.standing)
        views.push_back({&s.policy.spec, s.namespace_name, s.policy.metadata.name,
                         s.policy.kind == model::kind_cluster_propagation_policy, true});
}

std::vector<scheduling::claim_explanation> explain_claims(const dry_run_context& ctx,
                                                          const std::vector<scheduling::policy_view>& views)
{
    std::vector<scheduling::claim_explanation> out;
    out.reserve(ctx.workloads.size());
    for (std::size_t i = 0; i < ctx.workloads.size(); ++i) {
        const model::policy_claim* known =
            i < ctx.known_claims.size() && ctx.known_claims[i] ? &*ctx.known_claims[i] : nullptr;
        const bool unbuilt = i < ctx.unbuilt.size() && ctx.unbuilt[i];
        out.push_back(scheduling::explain_claim(views, ctx.workloads[i], known, ctx.gates.policy_preemption(), !unbuilt));
    }
    return out;
}

void report_claims(const dry_run_context& ctx, const std::vector<typed_policy>& policies,
                   const std::vector<scheduling::policy_view>& views,
                   const std::vector<scheduling::claim_explanation>& claims, report& r)
{
    r.have_claims = true;
    for (std::size_t i = 0; i < ctx.workloads.size(); ++i) {
        claim_row row = row_of(ctx.workloads[i], policies, views, claims[i]);
        if (i < ctx.released.size() && ctx.released[i])
            mark_released(*ctx.released[i], claims[i], row);
        r.claims.push_back(std::move(row));
    }
    for (auto& w : scheduling::claim_warnings(views, ctx.workloads, claims, ctx.gates.policy_preemption())) {
        if (w.policy >= policies.size())
            continue; // about a standing policy: PATH does not change it
        const typed_policy& p = policies[w.policy];
        policy_result& result = r.results[p.result];
        const position where = w.field.empty() ? result.start : doc::locate(p.object, w.field);
        result.warnings.push_back({std::move(w.id), std::move(w.field), std::move(w.message), where});
        ++r.totals.warnings;
    }
}

} // namespace kpw::lint
