// SPDX-License-Identifier: Apache-2.0
// lint dry run: loading the snapshot and workloads, snapshot warnings, claiming and scheduling.
#include "lint/dry_run.hpp"

#include "doc/locate.hpp"
#include "lint/claims.hpp"

namespace kpw::lint {

namespace {

workload_ref ref_of(const model::workload& w)
{
    return {w.api_version, w.kind, w.namespace_, w.name, w.replicas};
}

considered_row to_row(const scheduling::considered_cluster& c)
{
    considered_row row;
    row.cluster = c.name;
    row.tier = c.tier;
    row.passed = c.passed;
    if (!c.failures.empty()) {
        row.plugin = std::string(scheduling::plugin_name(c.failures.front().plugin));
        row.reason = c.failures.front().reason;
        row.detail = c.failures.front().detail;
        for (std::size_t i = 1; i < c.failures.size(); ++i)
            row.also_fails.emplace_back(scheduling::plugin_name(c.failures[i].plugin));
    }
    if (c.passed) {
        row.available = c.available;
        row.bound_by = c.bound_by;
    }
    row.replicas = c.replicas;
    row.left_out = c.left_out;
    return row;
}

group_row to_row(const scheduling::group_outcome& g)
{
    group_row row{g.affinity_name, g.outcome, g.error, g.diagnosis, g.diagnosis_alternatives, {}};
    for (const auto& c : g.considered)
        row.considered.push_back(to_row(c));
    return row;
}

scheduling_result to_result(const model::workload& w, const scheduling::decision& d)
{
    scheduling_result s;
    s.workload = ref_of(w);
    s.scheduled = d.scheduled;
    s.affinity_name = d.affinity_name;
    for (const auto& c : d.clusters) {
        placement_row row{c.name, c.replicas, c.tier, {}};
        if (!d.non_workload)
            row.available = c.available;
        s.clusters.push_back(std::move(row));
    }
    s.message = d.message;
    s.tie = d.tie;
    for (const auto& f : d.failures)
        s.attempts.push_back(f.str());
    for (const auto& g : d.groups)
        s.groups.push_back(to_row(g));
    s.condition_reason = d.condition_reason;
    s.condition_message = d.condition_message;
    s.condition_alternatives = d.condition_alternatives;
    return s;
}

} // namespace

std::unique_ptr<dry_run_context> load_dry_run(const std::vector<std::string>& cluster_paths,
                                              const std::vector<std::string>& workload_paths,
                                              const std::string& default_namespace, std::vector<file_error>& errors)
{
    auto ctx = std::make_unique<dry_run_context>();
    snapshot::load(*ctx, cluster_paths, workload_paths, default_namespace, errors);
    return ctx;
}

void add_snapshot_warnings(const dry_run_context& ctx, const model::policy& policy, const doc::value& object,
                           policy_result& result)
{
    if (!ctx.snapshot)
        return;
    for (const auto& u : scheduling::unmatched_terms(policy.spec, *ctx.snapshot))
        result.warnings.push_back({"affinity-matches-no-cluster", u.field, u.message, doc::locate(object, u.field)});
}

void schedule_workloads(const dry_run_context& ctx, const std::vector<typed_policy>& policies, report& r)
{
    if (!ctx.snapshot || !ctx.have_workloads)
        return;
    const auto views = policy_views(policies, r);
    const auto claims = explain_claims(ctx, views);
    report_claims(ctx, policies, views, claims, r);
    for (std::size_t i = 0; i < ctx.workloads.size(); ++i) {
        const auto& claim = claims[i].policy;
        if (!claim)
            continue;
        const auto& w = ctx.workloads[i];
        const auto& p = policies[*claim];
        auto d = scheduling::schedule(p.policy.spec, w, *ctx.snapshot, ctx.options);
        r.results[p.result].scheduling.push_back(to_result(w, d));
        r.totals.unschedulable += d.scheduled ? 0 : 1;
    }
}

} // namespace kpw::lint
