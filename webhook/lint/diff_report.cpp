// SPDX-License-Identifier: Apache-2.0
// The placement diff from and into lint reports.
#include "lint/diff_report.hpp"

#include <algorithm>

#include "cli/exit_codes.hpp"
#include "lint/lint.hpp"
#include "lint/render.hpp"

namespace kpw::lint {

workload_key key_of(const workload_ref& w) { return {w.api_version, w.kind, w.namespace_name, w.name}; }

namespace {

placement placement_of(std::string policy, const scheduling_result& s)
{
    placement out;
    out.claimed = true;
    out.policy = std::move(policy);
    out.affinity_name = s.affinity_name;
    out.scheduled = s.scheduled;
    out.ignored = s.ignored;
    for (const auto& c : s.clusters)
        out.clusters.push_back({c.cluster, c.replicas, c.tier, c.available});
    out.skipped_groups = s.attempts;
    return out;
}

} // namespace

placement placement_of(const policy_result& p, const scheduling_result& s) { return placement_of(policy_label(p), s); }

std::vector<placed_workload> placements_of(const report& r)
{
    std::vector<placed_workload> out;
    for (const auto& p : r.results)
        for (const auto& s : p.scheduling)
            out.push_back({key_of(s.workload), s.workload.replicas, placement_of(p, s)});
    for (const auto& held : r.standing)
        out.push_back({key_of(held.scheduling.workload), held.scheduling.workload.replicas,
                       placement_of(held.policy.str(), held.scheduling)});
    for (const auto& rb : r.released) {
        placement kept;
        kept.claimed = true;
        kept.released = true;
        kept.released_why = rb.why;
        kept.policy = rb.was.str();
        kept.affinity_name = rb.affinity_name;
        kept.scheduled = !rb.clusters.empty();
        for (const auto& c : rb.clusters)
            kept.clusters.push_back({c.cluster, c.replicas, c.tier, c.available});
        out.push_back({key_of(rb.workload), rb.workload.replicas, std::move(kept)});
    }
    return out;
}

namespace {

// With --bindings the base side of a bound workload is what runs today: the binding's spec.clusters
// under the policy its claim names (claims are sticky, so the same policy as on the new side).
void use_todays_bindings(const report& r, std::vector<placed_workload>& before)
{
    std::vector<std::pair<std::string, const scheduling_result*>> held_now; // (policy, prediction)
    for (const auto& p : r.results)
        for (const auto& s : p.scheduling)
            held_now.emplace_back(policy_label(p), &s);
    for (const auto& held : r.standing)
        held_now.emplace_back(held.policy.str(), &held.scheduling);
    for (const auto& [policy, prediction] : held_now) {
        const scheduling_result& s = *prediction;
        if (!s.previous)
            continue;
        auto key = key_of(s.workload);
        auto it = std::find_if(before.begin(), before.end(), [&](const placed_workload& w) { return w.workload == key; });
        placement today;
        today.claimed = true;
        // The policy that holds it today: the base side's (another one when the change deletes its policy
        // and a remaining one claims it), else the one applied now (claims are sticky).
        today.policy = it != before.end() && it->where.claimed ? it->where.policy : policy;
        today.affinity_name = s.previous->affinity_name;
        today.scheduled = !s.previous->clusters.empty();
        for (const auto& c : s.previous->clusters) {
            // A binding does not record tiers: a cluster's tier is the one its affinity gives it now.
            std::string tier = c.tier;
            for (const auto& now : s.clusters)
                if (now.cluster == c.cluster)
                    tier = now.tier;
            today.clusters.push_back({c.cluster, c.replicas, tier, c.available});
        }
        if (it == before.end())
            before.push_back({key, s.workload.replicas, std::move(today)});
        else
            it->where = std::move(today);
    }
    // A binding the change releases: today it runs where it is, under the policy the change deletes.
    for (const auto& rb : r.released) {
        const auto key = key_of(rb.workload);
        auto it = std::find_if(before.begin(), before.end(), [&](const placed_workload& w) { return w.workload == key; });
        if (it == before.end())
            it = before.insert(before.end(), {key, rb.workload.replicas, {}});
        placement today;
        today.claimed = true;
        today.policy = rb.was.str();
        today.affinity_name = rb.affinity_name;
        today.scheduled = !rb.clusters.empty();
        for (const auto& c : rb.clusters) {
            std::string tier;
            for (const auto& predicted : it->where.clusters)
                if (predicted.name == c.cluster)
                    tier = predicted.tier;
            today.clusters.push_back({c.cluster, c.replicas, tier, c.available});
        }
        it->where = std::move(today);
    }
    std::sort(before.begin(), before.end(),
              [](const placed_workload& a, const placed_workload& b) { return a.workload < b.workload; });
}

// A binding does not record tiers: a released one keeps the tier each cluster had on the base side.
void keep_tiers_of_released(const std::vector<placed_workload>& before, std::vector<placed_workload>& after)
{
    for (auto& a : after) {
        if (!a.where.released)
            continue;
        auto b = std::find_if(before.begin(), before.end(), [&](const placed_workload& w) { return w.workload == a.workload; });
        if (b == before.end())
            continue;
        for (auto& c : a.where.clusters)
            for (const auto& was : b->where.clusters)
                if (was.name == c.name)
                    c.tier = was.tier;
    }
}

} // namespace

void attach_diff(report& r, const report& base)
{
    r.file_errors.insert(r.file_errors.end(), base.file_errors.begin(), base.file_errors.end());
    auto before = placements_of(base);
    if (r.have_bindings)
        use_todays_bindings(r, before);
    auto after = placements_of(r);
    keep_tiers_of_released(before, after);
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
