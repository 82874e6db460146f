// SPDX-License-Identifier: Apache-2.0
#include "simulate/drill_warnings.hpp"

#include <algorithm>

#include "controllers/taint_manager.hpp"
#include "scheduling/filter.hpp"
#include "scheduling/snapshot.hpp"
#include "simulate/detector.hpp"

namespace kpw::simulate {

namespace {

bool not_ready(const model::cluster& c) { return c.ready == "False" || c.ready == "Unknown"; }

bool has_no_execute(const model::cluster& c)
{
    return std::any_of(c.taints.begin(), c.taints.end(), [](const model::taint& t) { return t.effect == "NoExecute"; });
}

std::string eviction_settings(const settings_in_force& s)
{
    return std::string("Failover=") + (s.gates().failover() ? "true" : "false") +
           ", --enable-no-execute-taint-eviction=" + (s.controllers.enable_no_execute_taint_eviction ? "true" : "false");
}

void stuck_replicas(const world& w, const settings_in_force& s, const model::binding& b, step_outcome& out)
{
    bool evicting = controllers::taint_manager_registered(s.controllers) && s.controllers.enable_no_execute_taint_eviction;
    for (const auto& t : b.clusters) {
        const model::cluster* c = find_cluster(w, t.name);
        if (c == nullptr || t.replicas == 0 || !(not_ready(*c) || has_no_execute(*c)))
            continue;
        if (has_no_execute(*c) && evicting)
            continue; // tolerated, or evicted at the toleration's deadline: the evictions list says which
        std::string why = has_no_execute(*c)
                              ? "its NoExecute taint evicts nothing with " + eviction_settings(s)
                              : "Ready=" + c->ready + " only adds a NoSchedule taint (cluster controller); eviction needs "
                                "a NoExecute taint (a ClusterTaintPolicy with the Failover gate and the webhook's "
                                "--allow-no-execute-taint-policy) with Failover=true and "
                                "--enable-no-execute-taint-eviction=true";
        out.warnings.push_back({"no-eviction-with-these-flags", workload_key(b.resource),
                                std::to_string(t.replicas) + " replica(s) stay on " + c->name + ": " + why});
    }
}

void blocked_dispatch(const world& w, const model::binding& b, std::int64_t serving, step_outcome& out)
{
    for (const auto& task : b.graceful_eviction_tasks) {
        const model::cluster* c = find_cluster(w, task.from_cluster);
        if (!model::purges_directly(task.purge_mode) || c == nullptr || !not_ready(*c))
            continue;
        out.warnings.push_back({"directly-purge-blocks-dispatch", workload_key(b.resource),
                                "purge mode Directly: the Work on " + c->name +
                                    " cannot be deleted while the cluster is not Ready, so no Work of the new placement "
                                    "is written; " + std::to_string(serving) + " replica(s) serve meanwhile"});
    }
}

// A first schedule of the binding on today's clusters: where it would go if it started over.
scheduling::decision started_over(const model::binding& b, const scheduling::snapshot& snap, const settings_in_force& s)
{
    model::propagation_spec spec;
    spec.placement = *b.placement;
    return scheduling::schedule(spec, model::workload_of(b), snap, s.scheduling);
}

std::int64_t replicas_in_tier(const std::vector<model::target_cluster>& clusters, const scheduling::decision& d,
                              const std::string& tier)
{
    std::int64_t n = 0;
    for (const auto& t : clusters)
        for (const auto& c : d.candidates)
            if (c.name == t.name && c.tier == tier)
                n += t.replicas;
    return n;
}

void fail_back(const model::binding& b, const scheduling::snapshot& snap, const settings_in_force& s, step_outcome& out)
{
    if (!b.placement || b.clusters.empty())
        return;
    const auto& terms = b.placement->cluster_affinities;
    bool overflow = std::any_of(terms.begin(), terms.end(), [](const auto& t) { return !t.overflow_affinities.empty(); });
    bool later_group = !terms.empty() && !b.scheduler_observing_affinity_name.empty() &&
                       b.scheduler_observing_affinity_name != terms.front().affinity_name;
    if (!overflow && !later_group)
        return;
    auto fresh = started_over(b, snap, s);
    if (!fresh.scheduled)
        return;
    const std::string key = workload_key(b.resource);
    auto index_of = [&](const std::string& name) {
        for (std::size_t k = 0; k < terms.size(); ++k)
            if (terms[k].affinity_name == name)
                return k;
        return terms.size();
    };
    // Every re-schedule of v1.16.0-v1.18.2 starts at the observed term, a WorkloadRebalancer's included
    // (scheduler.go:633 of v1.18.2, helper.go:99-110 getAffinityIndex; nothing but the scheduler writes
    // schedulerObservingAffinityName: scheduler.go:1025-1034). Index 0 comes back only when the observed name
    // is not in the placement (getAffinityIndex's fallback; helper.go:69-97 clusterAffinitiesChanged makes
    // that a placement change, so it is re-scheduled at once) or the binding's status is empty (a new binding).
    if (later_group && index_of(fresh.affinity_name) < index_of(b.scheduler_observing_affinity_name)) {
        const std::string& observed = b.scheduler_observing_affinity_name;
        out.warnings.push_back(
            {"stays-in-fallback-group", key,
             "stays in group " + observed + " although group " + fresh.affinity_name +
                 " could host it again: karmada-scheduler starts every re-schedule at the group it observed, a "
                 "WorkloadRebalancer's too; it starts from the first group again only when the policy no longer "
                 "names group " + observed + " (renamed or removed) or the binding is a new one (the workload "
                 "deleted and created again)"});
        return;
    }
    if (!overflow || fresh.affinity_name != b.scheduler_observing_affinity_name)
        return;
    std::int64_t now_primary = replicas_in_tier(b.clusters, fresh, fresh.affinity_name);
    std::int64_t could = 0;
    for (const auto& c : fresh.clusters)
        could += c.tier == fresh.affinity_name ? c.replicas : 0;
    if (could > now_primary)
        out.warnings.push_back({"stays-in-overflow", key,
                                std::to_string(could - now_primary) + " replica(s) could return to the primary tier " +
                                    fresh.affinity_name + " but stay in the overflow tier: Steady assignment refills "
                                    "the primary tier only at the next scale event; a WorkloadRebalancer moves them now"});
}

void deletion_blocked(const world& w, const model::binding& b, step_outcome& out)
{
    for (const auto& t : b.clusters)
        if (const model::cluster* c = find_cluster(w, t.name); c != nullptr && c->deleting)
            out.warnings.push_back({"cluster-deletion-blocked", workload_key(b.resource),
                                    "cluster " + c->name + " is being deleted but still listed in spec.clusters (the "
                                    "re-schedule failed without a FitError): its deletion waits until this binding is fixed"});
}

} // namespace

void add_drill_warnings(const world& w, const settings_in_force& s, step_outcome& out)
{
    scheduling::snapshot snap(w.clusters);
    snap.use_members(w.members);
    for (std::size_t i = 0; i < w.bindings.size() && i < out.workloads.size(); ++i) {
        const model::binding& b = w.bindings[i];
        const workload_outcome& o = out.workloads[i];
        const std::string key = workload_key(b.resource);
        if (!o.scheduled && o.replicas > 0 && b.scheduled)
            out.warnings.push_back({"unschedulable", key, b.scheduled->reason + ": " + b.scheduled->message});
        if (o.replicas > 0 && o.serving == 0)
            out.warnings.push_back({"zero-serving-replicas", key, "no replica of it runs on a Ready cluster after this step"});
        stuck_replicas(w, s, b, out);
        blocked_dispatch(w, b, o.serving, out);
        fail_back(b, snap, s, out);
        deletion_blocked(w, b, out);
    }
}

} // namespace kpw::simulate
