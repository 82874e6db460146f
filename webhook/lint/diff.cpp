// SPDX-License-Identifier: Apache-2.0
// The placement diff: compares two lists of placements workload by workload.
#include "lint/diff.hpp"

#include <algorithm>
#include <map>

#include "model/object_label.hpp"

namespace kpw::lint {
namespace {

bool same_clusters(const std::vector<placed_cluster>& a, const std::vector<placed_cluster>& b)
{
    return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](const placed_cluster& x, const placed_cluster& y) {
        return x.name == y.name && x.replicas == y.replicas && x.tier == y.tier;
    });
}

bool same_outcome(const placement& a, const placement& b)
{
    return a.claimed == b.claimed && a.released == b.released && a.policy == b.policy &&
           a.affinity_name == b.affinity_name &&
           a.scheduled == b.scheduled && a.ignored == b.ignored && same_clusters(a.clusters, b.clusters);
}

std::int64_t replicas_on(const placement& p, const std::string& cluster)
{
    for (const auto& c : p.clusters)
        if (c.name == cluster)
            return c.replicas;
    return 0;
}

// Every cluster of either side whose replicas differ: the before side's order, then the after side's new ones.
std::vector<replica_move> moves_between(const placement& before, const placement& after)
{
    std::vector<replica_move> moves;
    auto consider = [&](const std::string& cluster) {
        for (const auto& m : moves)
            if (m.cluster == cluster)
                return;
        const std::int64_t from = replicas_on(before, cluster), to = replicas_on(after, cluster);
        if (from != to)
            moves.push_back({cluster, from, to});
    };
    for (const auto& c : before.clusters)
        consider(c.name);
    for (const auto& c : after.clusters)
        consider(c.name);
    return moves;
}

const placed_cluster* cluster_named(const placement& p, const std::string& name)
{
    for (const auto& c : p.clusters)
        if (c.name == name)
            return &c;
    return nullptr;
}

std::string tier_suffix(const placed_cluster& c) { return c.tier.empty() ? "" : " (" + c.tier + ")"; }

std::string plural(int n, const char* one, const char* many) { return std::to_string(n) + ' ' + (n == 1 ? one : many); }

std::string or_none(const std::string& s) { return s.empty() ? "(none)" : s; }

// The header facts that changed: "policy A → B", "group x → y", "scheduled → unschedulable".
std::vector<std::string> header_changes(const workload_change& c)
{
    std::vector<std::string> parts;
    const placement &b = c.before, &a = c.after;
    if (c.kind == change_kind::added)
        parts.push_back("claimed by " + a.policy);
    else if (c.kind == change_kind::removed)
        parts.push_back("no longer claimed (was " + b.policy + ")");
    else if (a.released)
        parts.push_back("released: " + a.policy + " " + a.released_why +
                        " and no policy claims it; the binding stays on its clusters with no policy "
                        "(karmada-scheduler ignores it: no re-schedule, and replicas a taint evicts are not placed elsewhere)");
    else if (b.policy != a.policy)
        parts.push_back("policy " + b.policy + " → " + a.policy);
    if (c.kind == change_kind::changed && b.scheduled && a.scheduled && b.affinity_name != a.affinity_name)
        parts.push_back("group " + or_none(b.affinity_name) + " → " + or_none(a.affinity_name));
    if (!a.ignored.empty())
        parts.push_back("not scheduled by karmada-scheduler: " + a.ignored);
    else if (c.kind == change_kind::changed && b.scheduled != a.scheduled)
        parts.push_back(b.scheduled ? "scheduled → unschedulable" : "unschedulable → scheduled");
    else if (c.kind == change_kind::added && !a.scheduled)
        parts.push_back("unschedulable");
    return parts;
}

} // namespace

placement_diff diff_placements(std::span<const placed_workload> before, std::span<const placed_workload> after)
{
    std::map<workload_key, workload_change> by_workload;
    for (const auto& w : before) {
        auto& c = by_workload[w.workload];
        c.workload = w.workload;
        c.replicas = w.replicas;
        c.before = w.where;
    }
    for (const auto& w : after) {
        auto& c = by_workload[w.workload];
        c.workload = w.workload;
        c.replicas = w.replicas;
        c.after = w.where;
    }
    placement_diff d;
    for (auto& [key, c] : by_workload) {
        if (!c.before.claimed && !c.after.claimed)
            continue;
        if (same_outcome(c.before, c.after)) {
            ++d.unchanged;
            continue;
        }
        c.kind = !c.before.claimed  ? change_kind::added
                 : !c.after.claimed ? change_kind::removed
                                    : change_kind::changed;
        c.moves = moves_between(c.before, c.after);
        d.becomes_unschedulable += c.after.claimed && !c.after.scheduled && c.after.ignored.empty() &&
                                   (c.before.scheduled || !c.before.claimed);
        d.becomes_schedulable += c.after.scheduled && c.before.claimed && !c.before.scheduled;
        d.changes.push_back(std::move(c));
    }
    return d;
}

std::string diff_summary_line(const placement_diff& d)
{
    const int changed = static_cast<int>(d.changes.size());
    std::string line = plural(changed, "workload changes", "workloads change") + " placement";
    if (d.becomes_unschedulable > 0)
        line += ", " + std::to_string(d.becomes_unschedulable) + " become" + (d.becomes_unschedulable == 1 ? "s" : "") +
                " unschedulable";
    if (d.becomes_schedulable > 0)
        line += ", " + std::to_string(d.becomes_schedulable) + " become" + (d.becomes_schedulable == 1 ? "s" : "") +
                " schedulable";
    return line + ", " + std::to_string(d.unchanged) + " unchanged";
}

char change_sign(change_kind k) { return k == change_kind::added ? '+' : k == change_kind::removed ? '-' : '~'; }

std::string workload_label(const workload_key& w)
{
    return model::object_label(w.kind, w.namespace_name, w.name);
}

std::string change_detail(const workload_change& c)
{
    std::vector<std::string> parts = header_changes(c);
    for (const auto& m : c.moves) {
        const placed_cluster* was = cluster_named(c.before, m.cluster);
        const placed_cluster* now = cluster_named(c.after, m.cluster);
        if (!was)
            parts.push_back("+ " + m.cluster + ' ' + std::to_string(m.to) + tier_suffix(*now));
        else if (!now)
            parts.push_back("- " + m.cluster + ' ' + std::to_string(m.from) + tier_suffix(*was));
        else
            parts.push_back(m.cluster + ' ' + std::to_string(m.from) + " → " + std::to_string(m.to) +
                            (was->tier == now->tier ? "" : " (" + was->tier + " → " + now->tier + ")"));
    }
    for (const auto& now : c.after.clusters) {
        const placed_cluster* was = cluster_named(c.before, now.name);
        if (was && was->replicas == now.replicas && was->tier != now.tier)
            parts.push_back(now.name + ' ' + std::to_string(now.replicas) + " (" + was->tier + " → " + now.tier + ")");
    }
    std::string line;
    for (const auto& p : parts)
        line += (line.empty() ? "" : ", ") + p;
    return line;
}

} // namespace kpw::lint
