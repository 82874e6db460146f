// SPDX-License-Identifier: Apache-2.0
// -o text: one gcc-style line per finding (clickable in editors and CI logs), then a summary line.
#include "lint/render.hpp"

#include <ostream>

namespace kpw::lint {
namespace {

void print_location(std::ostream& out, const std::string& file, position where)
{
    out << file;
    if (where.known())
        out << ':' << where.line << ':' << where.column;
    out << ": ";
}

void print_scheduling(std::ostream& out, const policy_result& p, const scheduling_result& s, bool unschedulable_is_error)
{
    print_location(out, p.file, p.start);
    out << (s.scheduled ? "note" : unschedulable_is_error ? "error" : "warning") << ": " << policy_label(p) << ": "
        << s.workload.kind << ' '
        << s.workload.namespace_name << '/' << s.workload.name << " (" << s.workload.replicas << " replicas): ";
    if (s.scheduled)
        out << "scheduled" << (s.affinity_name.empty() ? "" : " in group " + s.affinity_name);
    else
        out << "unschedulable";
    if (!s.message.empty())
        out << " - " << s.message;
    out << '\n';
    for (const auto& a : s.attempts)
        out << "    " << a << '\n';
    if (s.clusters.empty())
        return;
    out << "    cluster                          replicas  tier                  available\n";
    for (const auto& c : s.clusters) {
        std::string name = c.cluster, tier = c.tier.empty() ? "-" : c.tier;
        name.resize(std::max<std::size_t>(name.size(), 32), ' ');
        tier.resize(std::max<std::size_t>(tier.size(), 20), ' ');
        std::string replicas = std::to_string(c.replicas);
        replicas.resize(std::max<std::size_t>(replicas.size(), 8), ' ');
        out << "    " << name << ' ' << replicas << "  " << tier << "  "
            << (c.available ? std::to_string(*c.available) : "-") << '\n';
    }
}

// A claim gets a line only when there was a choice to explain: several matching policies, a sticky or
// preempted claim, or a template handed to another controller. A single obvious match stays silent.
bool claim_worth_a_line(const claim_row& c)
{
    return c.candidates.size() > 1 || c.sticky || c.preempted || c.ignored;
}

void print_claims(std::ostream& out, const report& r)
{
    for (const auto& c : r.claims) {
        if (!claim_worth_a_line(c))
            continue;
        if (c.result)
            print_location(out, r.results[*c.result].file, r.results[*c.result].start);
        out << "note: claim: " << c.workload.kind << ' '
            << (c.workload.namespace_name.empty() ? "" : c.workload.namespace_name + '/') << c.workload.name << " -> ";
        if (c.policy)
            out << c.policy->kind << ' ' << (c.policy->namespace_name.empty() ? "" : c.policy->namespace_name + '/')
                << c.policy->name;
        else
            out << "no policy";
        out << ": " << c.reason << '\n';
    }
}

} // namespace

void render_text(const report& r, std::ostream& out)
{
    for (const auto& e : r.file_errors) {
        print_location(out, e.file, e.where);
        out << "error: " << e.message << '\n';
    }
    for (const auto& p : r.results) {
        for (const auto& e : p.errors) {
            print_location(out, p.file, e.where.known() ? e.where : p.start);
            out << "error: " << e.str() << '\n';
        }
        for (const auto& w : p.warnings) {
            print_location(out, p.file, w.where.known() ? w.where : p.start);
            out << "warning: " << w.str() << " [" << w.id << "]\n";
        }
        for (const auto& s : p.scheduling)
            print_scheduling(out, p, s, r.unschedulable_is_error);
    }
    print_claims(out, r);
    out << summary_line(r) << '\n';
}

} // namespace kpw::lint
