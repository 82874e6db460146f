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
    out << summary_line(r) << '\n';
}

} // namespace kpw::lint
