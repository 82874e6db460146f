// SPDX-License-Identifier: Apache-2.0
// One scheduler pass over a binding and what it patches (day2-semantics §3.9), and the detector's apply.
#include "scheduling/reschedule.hpp"

#include "model/encode.hpp"

namespace kpw::scheduling {

namespace {

previous_result previous_of(const model::binding& b, bool fresh)
{
    previous_result p;
    p.clusters = b.clusters;
    p.observed_affinity_name = b.scheduler_observing_affinity_name;
    for (const auto& t : b.graceful_eviction_tasks)
        p.evicting.push_back(t.from_cluster);
    p.fresh = fresh;
    return p;
}

std::vector<model::target_cluster> targets_of(const decision& d)
{
    std::vector<model::target_cluster> out;
    for (const auto& c : d.clusters)
        out.push_back({c.name, d.non_workload ? 0 : c.replicas, {}});
    return out;
}

// karmada: scheduler.go patchScheduleResultForResourceBinding / patchBindingStatus* and helper.go
// getConditionByError: a success writes the result, the annotation (json.Marshal of spec.placement), the
// observed generation, lastScheduledTime and (clusterAffinities only) the observed term; a FitError that
// decides writes an empty result and the annotation; any other error writes only the condition.
void write_outcome(model::binding& after, const decision& d, model::timestamp now)
{
    const auto annotation = std::string(model::applied_placement_annotation);
    if (d.scheduled) {
        after.clusters = targets_of(d);
        after.annotations[annotation] = model::go_json(*after.placement);
        after.scheduled = model::scheduled_condition{"True", "Success", "Binding has been scheduled successfully."};
        after.scheduler_observed_generation = after.generation;
        after.last_scheduled_time = now;
        if (!after.placement->cluster_affinities.empty())
            after.scheduler_observing_affinity_name = d.affinity_name;
        return;
    }
    if (!d.keeps_previous) {
        after.clusters.clear();
        after.annotations[annotation] = model::go_json(*after.placement);
    }
    after.scheduled = model::scheduled_condition{"False", d.condition_reason, d.condition_message};
}

} // namespace

reschedule_outcome reschedule(const model::binding& b, const snapshot& clusters, const options& opts,
                              const settings::feature_gates& gates, model::timestamp now)
{
    reschedule_outcome out;
    out.verdict = should_schedule(b, clusters, gates);
    out.before = b.clusters;
    out.after = b;
    if (out.verdict.fired == trigger::none) {
        // doScheduleBinding: nothing to schedule still records the generation as observed.
        if (!out.verdict.ignored && !b.deleting && b.placement)
            out.after.scheduler_observed_generation = b.generation;
        return out;
    }
    out.acted = true;
    model::propagation_spec spec;
    spec.placement = *b.placement;
    auto previous = previous_of(b, out.verdict.fresh);
    out.result = schedule(spec, model::workload_of(b), clusters, opts, &previous);
    write_outcome(out.after, out.result, now);
    return out;
}

// karmada: pkg/detector/detector.go ApplyPolicy ("Just update necessary fields"); a spec change bumps
// metadata.generation as the API server does.
model::binding apply_policy(const model::binding& b, const model::propagation_spec& spec,
                            const std::optional<std::int32_t>& replicas)
{
    model::binding out = b;
    out.placement = spec.placement;
    out.failover = spec.failover;
    out.scheduler_name = spec.scheduler_name;
    if (replicas)
        out.replicas = *replicas;
    bool changed = out.placement != b.placement || out.failover != b.failover ||
                   out.scheduler_name != b.scheduler_name || out.replicas != b.replicas;
    if (changed)
        ++out.generation;
    return out;
}

} // namespace kpw::scheduling
