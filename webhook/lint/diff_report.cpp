// SPDX-License-Identifier: Apache-2.0
// The placement diff from and into lint reports.
#include "lint/diff_report.hpp"

#include "cli/exit_codes.hpp"
#include "lint/lint.hpp"
#include "lint/render.hpp"

namespace kpw::lint {

workload_key key_of(const workload_ref& w) { return {w.api_version, w.kind, w.namespace_name, w.name}; }

placement placement_of(const policy_result& p, const scheduling_result& s)
{
    placement out;
    out.claimed = true;
    out.policy = policy_label(p);
    out.affinity_name = s.affinity_name;
    out.scheduled = s.scheduled;
    for (const auto& c : s.clusters)
        out.clusters.push_back({c.cluster, c.replicas, c.tier, c.available});
    out.skipped_groups = s.attempts;
    return out;
}

std::vector<placed_workload> placements_of(const report& r)
{
    std::vector<placed_workload> out;
    for (const auto& p : r.results)
        for (const auto& s : p.scheduling)
            out.push_back({key_of(s.workload), s.workload.replicas, placement_of(p, s)});
    return out;
}

void attach_diff(report& r, const report& base)
{
    r.file_errors.insert(r.file_errors.end(), base.file_errors.begin(), base.file_errors.end());
    const auto before = placements_of(base);
    const auto after = placements_of(r);
    r.diff = diff_placements(before, after);
}

int exit_code(const report& r, fail_on gate)
{
    const int usual = exit_code(r);
    if (usual == cli::exit_usage || gate == fail_on::unschedulable)
        return usual;
    if (r.totals.denied > 0)
        return cli::exit_findings;
    if (gate == fail_on::move && r.diff && !r.diff->changes.empty())
        return cli::exit_findings;
    return cli::exit_ok;
}

} // namespace kpw::lint
