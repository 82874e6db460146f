// SPDX-License-Identifier: Apache-2.0
// -o text: one gcc-style line per finding (clickable in editors and CI logs), then a summary line.
#include "lint/render.hpp"

#include <algorithm>
#include <map>
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

std::string padded(std::string s, std::size_t width)
{
    s.resize(std::max(s.size(), width), ' ');
    return s;
}

// "left out 3 cluster(s): a, b, c (2 not selected, 1 ...)": why the clusters that got nothing got nothing.
void print_group_summary(std::ostream& out, const group_row& g)
{
    if (g.left_out.count == 0)
        return;
    out << "    group " << (g.affinity_name.empty() ? "(clusterAffinity)" : g.affinity_name) << ": left out "
        << g.left_out.count << " cluster(s): " << g.left_out.names << " (" << g.left_out.reasons << ")\n";
}

void print_group_explained(std::ostream& out, const group_row& g)
{
    out << "    group " << (g.affinity_name.empty() ? "(clusterAffinity)" : g.affinity_name) << " (" << g.outcome
        << "), " << g.considered.size() << " cluster(s) considered:\n";
    for (const auto& c : g.considered) {
        out << "      " << padded(c.cluster, 28) << ' ' << padded(c.tier.empty() ? "-" : c.tier, 16) << ' ';
        if (!c.passed) {
            out << "failed " << c.plugin << ": " << c.reason;
            if (!c.detail.empty())
                out << " (" << c.detail << ")";
            for (const auto& p : c.also_fails)
                out << "; also fails " << p;
            out << '\n';
            continue;
        }
        out << "passed, available " << (c.available ? std::to_string(*c.available) : "-")
            << (c.component_sets ? " complete set(s)" : "");
        if (!c.bound_by.empty())
            out << " (bound by " << c.bound_by << ")";
        if (c.holds_job)
            out << ", gets the whole job";
        else if (c.receives_object)
            out << ", gets the object (no replica count)";
        else
            out << ", gets " << c.replicas;
        if (!c.left_out.empty())
            out << " (" << c.left_out << ")";
        out << '\n';
    }
}

void print_placement_table(std::ostream& out, const scheduling_result& s)
{
    std::map<std::string, std::int64_t> before;
    if (s.previous)
        for (const auto& c : s.previous->clusters)
            before[c.cluster] += c.replicas;
    if (s.clusters.empty() && before.empty())
        return;
    out << "    " << padded("cluster", 32) << ' ' << (s.previous ? "before  " : "") << "replicas  "
        << padded("tier", 20) << "  available\n";
    auto row = [&](const std::string& name, std::int64_t replicas, const std::string& tier,
                   const std::optional<std::int64_t>& available) {
        out << "    " << padded(name, 32) << ' ';
        if (s.previous) {
            auto it = before.find(name);
            out << padded(it == before.end() ? "-" : std::to_string(it->second), 8);
            if (it != before.end())
                before.erase(it);
        }
        out << padded(std::to_string(replicas), 8) << "  " << padded(tier.empty() ? "-" : tier, 20) << "  "
            << (available ? std::to_string(*available) : "-") << '\n';
    };
    for (const auto& c : s.clusters)
        row(c.cluster, c.replicas, c.tier, c.available);
    for (const auto& [name, replicas] : std::map<std::string, std::int64_t>(before)) {
        out << "    " << padded(name, 32) << ' ' << padded(std::to_string(replicas), 8) << padded("0", 8)
            << "  " << padded("-", 20) << "  -\n";
    }
}

void print_karmada_texts(std::ostream& out, const scheduling_result& s)
{
    for (const auto& g : s.groups) {
        if (g.outcome == "scheduled")
            continue;
        if (!g.error.empty())
            out << "      karmada" << (g.affinity_name.empty() ? "" : " (" + g.affinity_name + ")") << ": " << g.error
                << '\n';
        for (const auto& alt : g.diagnosis_alternatives)
            out << "      or, with another plugin order: " << alt << '\n';
    }
    if (s.scheduled || s.condition_message.empty())
        return;
    out << "    Scheduled=False, reason " << s.condition_reason << ": " << s.condition_message << '\n';
}

void print_scheduling(std::ostream& out, const policy_result& p, const scheduling_result& s, const report& r)
{
    print_location(out, p.file, p.start);
    out << (!s.unschedulable() ? "note" : r.unschedulable_is_error ? "error" : "warning") << ": " << policy_label(p) << ": "
        << s.workload.kind << ' '
        << s.workload.namespace_name << '/' << s.workload.name << " (" << s.workload.replicas << " replicas): ";
    if (s.previous && !s.acted)
        out << "left alone";
    else if (!s.ignored.empty())
        out << "not scheduled by karmada-scheduler";
    else if (s.scheduled)
        out << (s.previous ? "re-scheduled" : "scheduled") << (s.affinity_name.empty() ? "" : " in group " + s.affinity_name);
    else
        out << (s.previous && !s.clusters.empty() ? "re-schedule fails, replicas stay" : "unschedulable");
    if (!s.message.empty())
        out << " - " << s.message;
    out << '\n';
    if (s.previous)
        out << "    scheduler " << (s.acted ? "acts" : "leaves it alone") << ": " << s.why << '\n';
    for (const auto& a : s.attempts)
        out << "    " << a << '\n';
    print_karmada_texts(out, s);
    for (const auto& g : s.groups)
        r.explain ? print_group_explained(out, g) : print_group_summary(out, g);
    print_placement_table(out, s);
}

// A claim gets a line only when there was a choice to explain: several matching policies, a sticky or
// preempted claim, a template handed to another controller, or one whose policy the change deletes. A single
// obvious match stays silent.
bool claim_worth_a_line(const claim_row& c)
{
    return c.candidates.size() > 1 || c.sticky || c.preempted || c.ignored || c.released_by;
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
    for (const auto& w : r.snapshot_warnings) {
        print_location(out, w.file, w.where);
        out << "warning: " << w.message << " [" << w.id << "]\n";
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
            print_scheduling(out, p, s, r);
    }
    print_claims(out, r);
    // Said only when chosen: the default (the newest release) is what --version names.
    if (!r.release_decided_by.empty())
        out << "note: answers for Karmada " << r.karmada_release << " (" << r.release_decided_by << ")\n";
    out << summary_line(r) << '\n';
}

} // namespace kpw::lint
