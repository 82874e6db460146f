// SPDX-License-Identifier: Apache-2.0
// -o markdown: GitHub-flavoured Markdown for $GITHUB_STEP_SUMMARY and PR comments; summary first, long
// lists folded in <details> and capped, every name and message escaped.
#include "lint/render.hpp"

#include <functional>
#include <ostream>

namespace kpw::lint {
namespace {

// Rows a table shows before "and N more": a PR comment stays readable with a thousand policies.
constexpr std::size_t max_rows = 50;

// Text from the input inside a table cell: HTML metacharacters as entities, Markdown's as backslash
// escapes, `@` as an entity (no mentions), line breaks as spaces.
std::string md(std::string_view s)
{
    std::string out;
    for (char c : s) {
        switch (c) {
        case '&': out += "&amp;"; break;
        case '<': out += "&lt;"; break;
        case '>': out += "&gt;"; break;
        case '"': out += "&quot;"; break;
        case '@': out += "&#64;"; break;
        case '\r': case '\n': out += ' '; break;
        case '\\': case '`': case '*': case '_': case '[': case ']': case '|': case '~': case '#': case '!':
        case '(': case ')': case '{': case '}': case '+': case '$':
            out += '\\';
            out += c;
            break;
        default: out += c;
        }
    }
    return out;
}

std::string location(const report& r, const std::string& file, position where)
{
    std::string text = md(ci_path(file)) + line_suffix(where);
    const std::string url = source_link(r.link_base, file, where.line);
    return url.empty() ? text : "[" + text + "](" + url + ")";
}

// A table with a header, at most max_rows rows from `rows(emit)`, then "and N more".
using row_sink = std::function<void(std::string)>;

void table(std::ostream& out, std::string_view header, const std::function<void(const row_sink&)>& rows)
{
    std::size_t n = 0;
    out << header << '\n';
    std::size_t columns = 0;
    for (char c : header)
        columns += c == '|';
    out << '|';
    for (std::size_t i = 1; i < columns; ++i)
        out << "---|";
    out << '\n';
    rows([&](std::string row) {
        if (n++ < max_rows)
            out << row << '\n';
    });
    if (n > max_rows)
        out << "\n_and " << n - max_rows << " more (the HTML report or `-o json` lists all)_\n";
    out << '\n';
}

void denials(std::ostream& out, const report& r)
{
    if (r.totals.denied == 0 && r.file_errors.empty())
        return;
    out << "### Denied (" << r.totals.denied << ")\n\n";
    table(out, "| policy | location | error |", [&](const auto& emit) {
        for (const auto& e : r.file_errors)
            emit("| (unreadable file) | " + location(r, e.file, e.where) + " | " + md(e.message) + " |");
        for (const auto& p : r.results)
            for (const auto& e : p.errors)
                emit("| " + md(policy_label(p)) + " | " + location(r, p.file, e.where.known() ? e.where : p.start) +
                     " | " + md(e.str()) + " |");
    });
}

void warnings(std::ostream& out, const report& r)
{
    if (r.totals.warnings == 0)
        return;
    out << "<details><summary>Warnings (" << r.totals.warnings << ")</summary>\n\n";
    table(out, "| policy | location | warning | id |", [&](const auto& emit) {
        for (const auto& w : r.snapshot_warnings)
            emit("| (snapshot) | " + location(r, w.file, w.where) + " | " + md(w.message) + " | " + md(w.id) + " |");
        for (const auto& p : r.results)
            for (const auto& w : p.warnings)
                emit("| " + md(policy_label(p)) + " | " + location(r, p.file, w.where.known() ? w.where : p.start) +
                     " | " + md(w.str()) + " | " + md(w.id) + " |");
    });
    out << "</details>\n\n";
}

std::string clusters_cell(const scheduling_result& s)
{
    std::string cell;
    for (const auto& c : s.clusters)
        cell += (cell.empty() ? "" : ", ") + md(c.cluster) + ' ' + std::to_string(c.replicas) +
                (c.tier.empty() ? "" : " (" + md(c.tier) + ")");
    return cell.empty() ? "-" : cell;
}

void placements(std::ostream& out, const report& r, bool scheduled)
{
    int n = 0;
    for (const auto& p : r.results)
        for (const auto& s : p.scheduling)
            n += scheduled ? s.scheduled : s.unschedulable();
    if (n == 0)
        return;
    if (scheduled)
        out << "<details><summary>Placements (" << n << " scheduled workloads)</summary>\n\n";
    else
        out << "### Unschedulable (" << n << ")\n\n";
    const char* header = scheduled ? "| workload | replicas | policy | group | clusters (replicas, tier) |"
                                   : "| workload | replicas | policy | group | why |";
    table(out, header, [&](const auto& emit) {
        for (const auto& p : r.results)
            for (const auto& s : p.scheduling)
                if (scheduled ? s.scheduled : s.unschedulable())
                    emit("| " + md(s.workload.kind + ' ' + s.workload.namespace_name + '/' + s.workload.name) + " | " +
                         std::to_string(s.workload.replicas) + " | " + md(policy_label(p)) + " | " +
                         (s.affinity_name.empty() ? "-" : md(s.affinity_name)) + " | " +
                         (scheduled ? clusters_cell(s) : md(s.message)) + " |");
    });
    if (scheduled)
        out << "</details>\n\n";
}

void diff(std::ostream& out, const placement_diff& d)
{
    out << "### Placement diff\n\n" << md(diff_summary_line(d)) << "\n\n";
    if (d.changes.empty())
        return;
    table(out, "| | workload | change |", [&](const auto& emit) {
        for (const auto& c : d.changes)
            emit("| " + md(std::string(1, change_sign(c.kind))) + " | " + md(workload_label(c.workload)) + " | " +
                 md(change_detail(c)) + " |");
    });
}

void policy_plan(std::ostream& out, const std::vector<policy_plan_row>& rows, std::string_view heading,
                 std::string_view column)
{
    out << "### " << heading << " on the server once applied\n\n";
    table(out, "| | " + std::string(column) + " | action |", [&](const auto& emit) {
        for (const auto& row : rows) {
            const std::string& ns = row.policy.namespace_name;
            emit("| " + md(std::string(1, policy_plan_sign(row.action))) + " | " +
                 md(row.policy.kind + ' ' + (ns.empty() ? "" : ns + "/") + row.policy.name) + " | " + md(row.note.empty() ? row.action : row.action + ": " + row.note) + " |");
        }
    });
}

} // namespace

void render_markdown(const report& r, std::ostream& out)
{
    const bool failed = r.totals.denied > 0 || !r.file_errors.empty() ||
                        (r.unschedulable_is_error && r.totals.unschedulable > 0);
    out << "## Karmada policy lint: " << (failed ? "failed" : "passed") << "\n\n" << md(summary_line(r)) << "\n\n";
    if (r.diff)
        out << "**Placement diff:** " << md(diff_summary_line(*r.diff)) << "\n\n";
    denials(out, r);
    if (r.policy_plan)
        policy_plan(out, *r.policy_plan, "Policies", "policy");
    if (r.workload_plan)
        policy_plan(out, *r.workload_plan, "Workloads", "workload");
    if (r.diff)
        diff(out, *r.diff);
    placements(out, r, false);
    warnings(out, r);
    placements(out, r, true);
}

} // namespace kpw::lint
