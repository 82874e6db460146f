// SPDX-License-Identifier: Apache-2.0
// -o text: per step the events, then per workload a before → after line, evictions, warnings.
#include "simulate/render.hpp"

#include <ostream>

#include "model/time.hpp"

namespace kpw::simulate_cli {

namespace {

std::string placement_str(const std::vector<model::target_cluster>& clusters)
{
    if (clusters.empty())
        return "(none)";
    std::string s;
    for (const auto& c : clusters)
        s.append(s.empty() ? "" : ", ").append(c.name + " " + std::to_string(c.replicas));
    return s;
}

std::string moves_str(const std::vector<scheduling::replica_move>& moves)
{
    std::string s;
    for (const auto& m : moves) {
        std::string one = m.from == 0 ? "+ " + m.cluster + " " + std::to_string(m.to)
                          : m.to == 0 ? "- " + m.cluster + " " + std::to_string(m.from)
                                      : "~ " + m.cluster + " " + std::to_string(m.from) + " → " + std::to_string(m.to);
        s.append(s.empty() ? "" : ", ").append(one);
    }
    return s;
}

void print_workload(std::ostream& out, const simulate::workload_outcome& o)
{
    out << "  " << o.workload.kind << ' ' << (o.workload.namespace_.empty() ? "" : o.workload.namespace_ + '/')
        << o.workload.name << " (" << o.replicas << " replicas";
    if (!o.policy.empty())
        out << ", " << o.policy;
    out << "): ";
    if (o.moves.empty())
        out << "unchanged, " << placement_str(o.after);
    else
        out << moves_str(o.moves);
    if (o.affinity_before != o.affinity_after)
        out << "; group " << (o.affinity_before.empty() ? "-" : o.affinity_before) << " → " << o.affinity_after;
    out << "; " << o.serving << " serving\n";
    if (!o.trigger.empty())
        out << "    scheduler: " << o.trigger << (o.message.empty() ? "" : " - " + o.message) << '\n';
    else if (!o.message.empty())
        out << "    scheduler: not acting - " << o.message << '\n';
    if (!o.scheduled && !o.condition_message.empty())
        out << "    Scheduled=False, reason " << o.condition_reason << ": " << o.condition_message << '\n';
    for (const auto& e : o.evictions) {
        out << "    graceful eviction: " << e.replicas << " old replica(s) on " << e.cluster << " (" << e.purge_mode << ")";
        if (e.ends_by)
            out << ", removed by " << model::format_rfc3339(*e.ends_by) << " at the latest";
        out << '\n';
    }
}

} // namespace

void render_text(const drill_header& h, const simulate::drill& d, std::ostream& out)
{
    out << "drill " << h.scenario_name << " (" << h.scenario_file << ")\n";
    out << "assumed:";
    for (const auto& s : h.settings)
        out << ' ' << s;
    out << '\n';
    for (std::size_t i = 0; i < d.steps.size(); ++i) {
        const auto& s = d.steps[i];
        out << "\n== step " << i << ": " << s.name;
        if (s.where.known())
            out << " (" << h.scenario_file << ':' << s.where.line << ':' << s.where.column << ')';
        out << " at " << model::format_rfc3339(s.at) << '\n';
        for (const auto& e : s.events)
            out << "  event: " << e << '\n';
        for (const auto& w : s.workloads)
            print_workload(out, w);
        for (const auto& w : s.warnings)
            out << "  warning: " << (w.workload.empty() ? "" : w.workload + ": ") << w.message << " [" << w.id << "]\n";
    }
    std::size_t failed = 0;
    for (const auto& s : d.steps)
        failed += s.failed ? 1 : 0;
    out << '\n' << d.steps.size() << " steps, " << failed << " with an unschedulable workload or one without serving replicas\n";
}

} // namespace kpw::simulate_cli
