// SPDX-License-Identifier: Apache-2.0
#include "simulate/settle.hpp"

#include <algorithm>

#include "controllers/cluster_taint_policy.hpp"
#include "controllers/cluster_taints.hpp"
#include "controllers/graceful_eviction.hpp"
#include "controllers/taint_manager.hpp"
#include "scheduling/filter.hpp"
#include "scheduling/filter_cache.hpp"
#include "scheduling/snapshot.hpp"
#include "simulate/resources.hpp"

namespace kpw::simulate {

namespace {

// A cluster the binding controller can sync Works to (day2-semantics §4.7): Ready, or never probed.
bool syncable(const model::cluster* c) { return c != nullptr && !c->deleting && c->ready != "False" && c->ready != "Unknown"; }

// The affinity the scheduler's cluster event handler compares (day2-semantics §3.1), or nullptr: none.
const model::cluster_affinity* relevant_affinity(const model::binding& b)
{
    if (!b.placement)
        return nullptr;
    const auto& p = *b.placement;
    if (p.cluster_affinities.empty())
        return p.cluster_affinity ? &*p.cluster_affinity : nullptr;
    for (const auto& t : p.cluster_affinities)
        if (t.affinity_name == b.scheduler_observing_affinity_name)
            return &t.cluster_affinity;
    return &p.cluster_affinities.front().cluster_affinity;
}

bool cluster_event_reaches(const model::binding& b, const model::cluster& before, const model::cluster& after)
{
    if (!b.placement || b.suspend_scheduling)
        return false;
    if (!b.placement->cluster_affinities.empty() && b.scheduler_observed_generation != b.generation)
        return true;
    const model::cluster_affinity* a = relevant_affinity(b);
    return a == nullptr || scheduling::cluster_matches(before, *a) || scheduling::cluster_matches(after, *a);
}

// One cluster's taints replaced by a controller: the spec change reaches the scheduler.
bool replace_taints(world& w, std::size_t ci, std::vector<model::taint> taints, step_log& log, std::string event)
{
    model::cluster& c = w.clusters[ci];
    if (taints == c.taints)
        return false;
    model::cluster before = c;
    c.taints = std::move(taints);
    enqueue_cluster_change(w, before, c, log);
    log.events.push_back(c.name + ": " + std::move(event));
    return true;
}

bool cluster_controllers(world& w, step_log& log, const settings_in_force& s)
{
    bool changed = false;
    for (std::size_t ci = 0; ci < w.clusters.size(); ++ci) {
        auto by_condition = controllers::taint_cluster_by_condition(w.clusters[ci], w.now);
        if (by_condition.changed)
            changed |= replace_taints(w, ci, by_condition.taints, log, by_condition.event + " (cluster controller)");
        auto by_policy = controllers::evaluate_taint_policies(w.clusters[ci], w.taint_policies, s.gates(), w.now);
        if (by_policy.changed)
            changed |= replace_taints(w, ci, by_policy.taints, log, by_policy.event + " (ClusterTaintPolicy)");
    }
    return changed;
}

// karmada: pkg/controllers/cluster/taint_manager.go — registered with the Failover gate, acting only with
// --enable-no-execute-taint-eviction, on clusters with NoExecute taints.
bool taint_manager(world& w, step_log& log, const settings_in_force& s)
{
    if (!controllers::taint_manager_registered(s.controllers))
        return false;
    bool changed = false;
    for (std::size_t i = 0; i < w.bindings.size(); ++i) {
        model::binding& b = w.bindings[i];
        for (const auto& target : std::vector<model::target_cluster>(b.clusters)) {
            const model::cluster* c = find_cluster(w, target.name);
            if (c == nullptr || !controllers::taint_manager_acts_on(*c, s.controllers))
                continue;
            auto verdict = controllers::run_taint_manager(b, *c, s.controllers, w.now);
            if (verdict.verdict != controllers::eviction_verdict::evict_now)
                continue;
            log.enqueued.insert(i);
            log.events.push_back(b.name + ": evicted from " + target.name + " by the taint manager (TaintUntolerated, " +
                                 controllers::eviction_purge_mode(b, s.controllers) + ")");
            changed = true;
        }
    }
    return changed;
}

bool graceful_eviction(world& w, step_log& log, const settings_in_force& s)
{
    bool changed = false;
    for (std::size_t i = 0; i < w.bindings.size(); ++i) {
        model::binding& b = w.bindings[i];
        if (b.graceful_eviction_tasks.empty())
            continue;
        std::size_t before = b.graceful_eviction_tasks.size();
        auto r = controllers::run_graceful_eviction(b, s.controllers, w.now);
        for (const auto& e : r.events)
            log.events.push_back(b.name + ": " + e);
        if (b.graceful_eviction_tasks.size() < before) { // a spec change: the scheduler sees an update event
            log.enqueued.insert(i);
            changed = true;
        }
    }
    return changed;
}

bool scheduler(world& w, step_log& log, const settings_in_force& s)
{
    if (log.enqueued.empty())
        return false;
    // One snapshot per round: resourceSummary reaches the scheduler through the cluster status sync, so
    // bindings scheduled in the same round see the same free capacity.
    scheduling::snapshot snap(w.clusters);
    snap.use_members(w.members);
    scheduling::filter_cache shared(snap); // bindings of one policy and kind share one filter pass
    scheduling::options opts = s.scheduling;
    opts.filters = &shared;
    opts.candidate_rows = false;
    opts.gates = &s.controllers.gates;
    opts.scheduler_name = s.controllers.scheduler_name;
    std::set<std::size_t> queue;
    queue.swap(log.enqueued);
    for (std::size_t i : queue) {
        auto out = scheduling::reschedule(w.bindings[i], snap, opts, s.gates(), w.now);
        if (!out.acted && out.verdict.fired == scheduling::trigger::none && !out.verdict.ignored &&
            w.bindings[i] == out.after)
            continue;
        w.bindings[i] = out.after;
        log.last_run[i] = std::move(out);
    }
    return true;
}

// What the members run for binding i after this round (day2-semantics §4.7), and the clusters' charge.
void dispatch(world& w, std::size_t i)
{
    const model::binding& b = w.bindings[i];
    dispatched_replicas want;
    for (const auto& t : b.clusters)
        want[t.name] += t.replicas;
    bool blocked = false;
    for (const auto& task : b.graceful_eviction_tasks) {
        if (model::purges_directly(task.purge_mode))
            blocked |= !syncable(find_cluster(w, task.from_cluster)); // the Work's deletion waits
        else
            want[task.from_cluster] = std::max(want[task.from_cluster], task.replicas); // the old copy stays
    }
    dispatched_replicas& have = w.dispatched[i];
    if (blocked)
        return; // no Work of this binding is written until the Directly-purged one is gone
    const model::workload wl = model::workload_of(b);
    std::set<std::string, std::less<>> names;
    for (const auto& [n, r] : have)
        names.insert(n);
    for (const auto& [n, r] : want)
        names.insert(n);
    for (const auto& name : names) {
        model::cluster* c = find_cluster(w, name);
        if (!syncable(c))
            continue; // Work sync to it is stopped: the member keeps what it runs
        auto old_it = have.find(name);
        std::int32_t old_n = old_it == have.end() ? 0 : old_it->second;
        auto new_it = want.find(name);
        std::int32_t new_n = new_it == want.end() ? 0 : new_it->second;
        if (new_it == want.end())
            have.erase(name);
        else
            have[name] = new_n;
        charge(*c, wl, new_n - old_n);
    }
}

} // namespace

void enqueue_cluster_change(const world& w, const model::cluster& before, const model::cluster& after, step_log& log)
{
    for (std::size_t i = 0; i < w.bindings.size(); ++i)
        if (cluster_event_reaches(w.bindings[i], before, after))
            log.enqueued.insert(i);
}

void settle(world& w, step_log& log, const settings_in_force& settings)
{
    log.last_run.resize(w.bindings.size());
    // Each round is one pass of every controller; a drill that needs more rounds than this loops
    // (a controller and the scheduler undoing each other), which no Karmada controller pair does.
    constexpr int max_rounds = 16;
    for (int round = 0; round < max_rounds; ++round) {
        bool changed = cluster_controllers(w, log, settings);
        changed |= taint_manager(w, log, settings);
        changed |= scheduler(w, log, settings);
        changed |= graceful_eviction(w, log, settings);
        for (std::size_t i = 0; i < w.bindings.size(); ++i)
            dispatch(w, i);
        if (!changed && log.enqueued.empty())
            return;
    }
    log.events.push_back("the controllers did not settle within " + std::to_string(max_rounds) + " rounds");
}

} // namespace kpw::simulate
