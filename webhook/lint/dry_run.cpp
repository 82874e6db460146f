// SPDX-License-Identifier: Apache-2.0
// lint dry run: loading the snapshot and workloads, snapshot warnings, claiming and scheduling.
#include "lint/dry_run.hpp"

#include "doc/load.hpp"
#include "doc/locate.hpp"
#include "lint/inputs.hpp"
#include "scheduling/claim.hpp"

namespace kpw::lint {

namespace {

bool looks_like_json(std::string_view text)
{
    auto first = text.find_first_not_of(" \t\r\n");
    return first != std::string_view::npos && text[first] == '{';
}

// Loads every document of the inputs and hands each root to `take`; parse failures become file errors.
template <class F>
void for_each_document(const std::vector<std::string>& paths, std::vector<file_error>& errors, F&& take)
{
    input_set inputs = collect_inputs(paths);
    errors.insert(errors.end(), inputs.errors.begin(), inputs.errors.end());
    for (const auto& in : inputs.files) {
        std::vector<scheduling::inventory_issue> issues;
        // `kubectl get clusters -o json` output: RapidJSON reads a large snapshot an order of magnitude
        // faster than the YAML scanner. Positions are lost, so anything it rejects goes the YAML way.
        if (looks_like_json(in.text)) {
            if (auto root = doc::parse_json(in.text)) {
                take(*root, issues);
                for (auto& i : issues)
                    errors.push_back({in.name, i.where, std::move(i.message)});
                continue;
            }
        }
        auto docs = doc::load_yaml(in.text);
        if (!docs) {
            errors.push_back({in.name, docs.error().where, docs.error().message});
            continue;
        }
        for (const auto& d : *docs)
            take(d.root, issues);
        for (auto& i : issues)
            errors.push_back({in.name, i.where, std::move(i.message)});
    }
}

workload_ref ref_of(const model::workload& w)
{
    return {w.api_version, w.kind, w.namespace_, w.name, w.replicas};
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
    return s;
}

} // namespace

std::unique_ptr<dry_run_context> load_dry_run(const std::vector<std::string>& cluster_paths,
                                              const std::vector<std::string>& workload_paths,
                                              const std::string& default_namespace, std::vector<file_error>& errors)
{
    auto ctx = std::make_unique<dry_run_context>();
    if (!cluster_paths.empty()) {
        std::vector<scheduling::inventory_issue> seal_issues;
        for_each_document(cluster_paths, errors, [&](const doc::value& root, auto& issues) { ctx->clusters.add(root, issues); });
        ctx->clusters.seal(seal_issues);
        for (auto& i : seal_issues)
            errors.push_back({"--clusters", i.where, std::move(i.message)});
        ctx->snapshot = std::make_unique<scheduling::snapshot>(ctx->clusters.clusters());
    }
    if (!workload_paths.empty()) {
        ctx->have_workloads = true;
        for_each_document(workload_paths, errors, [&](const doc::value& root, auto& issues) {
            scheduling::add_workloads(ctx->workloads, root, default_namespace, issues);
        });
    }
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
    std::vector<scheduling::policy_view> views;
    views.reserve(policies.size());
    for (const auto& p : policies) {
        bool cluster_scoped = p.policy.kind == model::kind_cluster_propagation_policy;
        views.push_back({&p.policy.spec, r.results[p.result].namespace_name, p.policy.metadata.name, cluster_scoped});
    }
    for (const auto& w : ctx.workloads) {
        auto claim = scheduling::claiming_policy(views, w);
        if (!claim)
            continue;
        const auto& p = policies[*claim];
        auto d = scheduling::schedule(p.policy.spec, w, *ctx.snapshot, ctx.options);
        r.results[p.result].scheduling.push_back(to_result(w, d));
        r.totals.unschedulable += d.scheduled ? 0 : 1;
    }
}

} // namespace kpw::lint
