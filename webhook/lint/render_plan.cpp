// SPDX-License-Identifier: Apache-2.0
// The placement diff as text, `terraform plan` style: one line per workload that moves, then a summary.
#include "lint/render.hpp"

#include <ostream>

namespace kpw::lint {

void render_plan(const placement_diff& d, std::string_view against, std::ostream& out)
{
    out << "placement diff against " << against << ":\n";
    for (const auto& c : d.changes)
        out << "  " << change_sign(c.kind) << ' ' << workload_label(c.workload) << ": " << change_detail(c) << '\n';
    out << diff_summary_line(d) << '\n';
}

char policy_plan_sign(const std::string& action)
{
    return action == "create" ? '+' : action == "change" || action == "apply" ? '~' : action == "delete" ? '-' : action == "denied" ? '!' : '=';
}

void render_policy_plan(const std::vector<policy_plan_row>& rows, std::ostream& out, std::string_view what)
{
    out << what << " on the server once applied:\n";
    for (const auto& row : rows) {
        const std::string& ns = row.policy.namespace_name;
        out << "  " << policy_plan_sign(row.action) << ' ' << row.policy.kind << ' ' << (ns.empty() ? "" : ns + "/")
            << row.policy.name << " (" << (row.action == "denied" ? "denied: not applied" : row.action)
            << (row.note.empty() ? "" : ": " + row.note) << ")\n";
    }
}

void render_text_with_plan(const report& r, std::ostream& out)
{
    render_text(r, out);
    if (r.policy_plan)
        render_policy_plan(*r.policy_plan, out, "policies");
    if (r.workload_plan)
        render_policy_plan(*r.workload_plan, out, "workloads");
    if (r.diff)
        render_plan(*r.diff, r.policy_plan ? "the server (its policies and today's bindings)" : "--base", out);
}

} // namespace kpw::lint
