// SPDX-License-Identifier: Apache-2.0
// The drill loop: step 0 (today's bindings re-planned, new workloads placed), then each scenario step.
#include "simulate/engine.hpp"

#include <algorithm>

#include "simulate/detector.hpp"
#include "simulate/drill_warnings.hpp"
#include "simulate/settle.hpp"
#include "simulate/steps.hpp"

namespace kpw::simulate {

namespace {

std::int64_t total(const std::vector<model::target_cluster>& clusters)
{
    std::int64_t n = 0;
    for (const auto& c : clusters)
        n += c.replicas;
    return n;
}

std::int64_t serving(const world& w, std::size_t i)
{
    std::int64_t n = 0;
    for (const auto& [name, replicas] : w.dispatched[i]) {
        const model::cluster* c = find_cluster(w, name);
        if (c != nullptr && !c->deleting && (c->ready == "True" || c->ready.empty()))
            n += replicas;
    }
    return n;
}

std::vector<pending_eviction> evictions(const model::binding& b, const settings_in_force& s)
{
    std::vector<pending_eviction> out;
    for (const auto& t : b.graceful_eviction_tasks) {
        pending_eviction e{t.from_cluster, t.replicas, t.purge_mode, std::nullopt};
        if (t.creation_timestamp && !t.suppress_deletion.value_or(false))
            e.ends_by = *t.creation_timestamp +
                        (t.grace_period_seconds ? *t.grace_period_seconds : s.controllers.graceful_eviction_timeout);
        out.push_back(std::move(e));
    }
    return out;
}

workload_outcome describe(const world& w, std::size_t i, const model::binding& before, const step_log& log,
                          const settings_in_force& s)
{
    const model::binding& b = w.bindings[i];
    workload_outcome o;
    o.workload = b.resource;
    if (const model::policy* p = claiming_policy_of(w, b))
        o.policy = policy_label(*p);
    o.replicas = b.replicas;
    o.before = before.clusters;
    o.after = b.clusters;
    o.affinity_before = before.scheduler_observing_affinity_name;
    o.affinity_after = b.scheduler_observing_affinity_name;
    o.scheduled = model::holds_placement(b);
    if (b.scheduled) {
        o.condition_reason = b.scheduled->reason;
        o.condition_message = b.scheduled->message;
    }
    if (i < log.last_run.size() && log.last_run[i]) {
        const auto& run = *log.last_run[i];
        o.acted = run.acted;
        o.trigger = run.acted ? std::string(scheduling::trigger_name(run.verdict.fired)) : "";
        o.message = run.acted ? run.result.message : run.verdict.message;
        if (run.acted && !run.result.karmada_panic.empty()) {
            // karmada-scheduler dies on this binding before it writes anything: whatever the binding said
            // before, its scheduler is down (as lint reports it).
            o.scheduled = false;
            o.condition_reason.clear();
            o.condition_message.clear();
        }
    }
    o.moves = scheduling::moves_between(o.before, o.after);
    o.evictions = evictions(b, s);
    o.serving = serving(w, i);
    o.placed = total(b.clusters);
    return o;
}

step_outcome close_step(world& w, std::string name, position where, const std::vector<model::binding>& before,
                        step_log& log, const settings_in_force& s)
{
    settle(w, log, s);
    step_outcome out{std::move(name), where, w.now, std::move(log.events), {}, {}, false};
    for (std::size_t i = 0; i < w.bindings.size(); ++i) {
        model::binding empty;
        out.workloads.push_back(describe(w, i, i < before.size() ? before[i] : empty, log, s));
    }
    add_drill_warnings(w, s, out);
    for (const auto& o : out.workloads)
        out.failed |= (!o.scheduled && o.replicas > 0) || (o.replicas > 0 && o.serving == 0);
    return out;
}

// Step 0: given bindings are taken with the policies as applied (as `lint --bindings`), workloads
// without one are claimed and placed for the first time; what the bindings list already runs.
step_outcome initial_step(world& w, const settings_in_force& s)
{
    w.dispatched.assign(w.bindings.size(), {});
    for (std::size_t i = 0; i < w.bindings.size(); ++i)
        for (const auto& t : w.bindings[i].clusters)
            w.dispatched[i][t.name] += t.replicas;
    std::vector<model::binding> before = w.bindings;
    step_log log;
    for (std::size_t i = 0; i < w.bindings.size(); ++i) {
        refresh_binding(w, i, s.gates());
        log.enqueued.insert(i); // every binding is added to the scheduler's queue when it starts
    }
    std::vector<std::size_t> created;
    claim_unbound(w, s.gates(), created, log.events);
    log.enqueued.insert(created.begin(), created.end());
    return close_step(w, "initial placement", {}, before, log, s);
}

} // namespace

drill run(world start, const scenario& sc, const std::vector<step_inputs>& inputs, const settings_in_force& settings)
{
    world w = std::move(start);
    std::sort(w.clusters.begin(), w.clusters.end(),
              [](const model::cluster& a, const model::cluster& b) { return a.name < b.name; });
    drill d;
    d.steps.push_back(initial_step(w, settings));
    for (std::size_t k = 0; k < sc.steps.size(); ++k) {
        const auto& step = sc.steps[k];
        w.now += 1; // the controllers compare times at one-second precision
        std::vector<model::binding> before = w.bindings;
        step_log log;
        apply_step(w, step, k < inputs.size() ? inputs[k] : step_inputs{}, settings.gates(), log);
        d.steps.push_back(close_step(w, step_label(step), step.where, before, log, settings));
    }
    d.failed = std::any_of(d.steps.begin(), d.steps.end(), [](const step_outcome& s) { return s.failed; });
    return d;
}

} // namespace kpw::simulate
