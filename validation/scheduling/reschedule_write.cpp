// SPDX-License-Identifier: Apache-2.0
// One scheduler pass over a binding and what it patches (day2-semantics §3.9), and the detector's apply.
#include "scheduling/reschedule.hpp"

#include "model/encode.hpp"
#include "model/well_known.hpp"
#include "scheduling/component_sets.hpp"

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
    if (!d.karmada_panic.empty())
        return; // the process died before any patch
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
    out.verdict = should_schedule(b, clusters, gates, opts.scheduler_name);
    out.before = b.clusters;
    out.after = b;
    if (out.verdict.fired == trigger::none) {
        // doScheduleBinding: nothing to schedule still records the generation as observed.
        if (!out.verdict.ignored && !b.deleting && b.placement)
            out.after.scheduler_observed_generation = b.generation;
        return out;
    }
    if (b.placement && b.placement->cluster_affinities.empty() && b.placement->cluster_affinities.explicitly_empty) {
        // karmada: scheduler.go scheduleResourceBindingWithClusterAffinities over no term (clusterAffinities
        // is non-nil and empty) tries nothing and returns no error, so scheduleResourceBinding's deferred
        // patch writes the Success condition and nothing else: no event, spec.clusters and the annotation as
        // they were. Only a binding written with `clusterAffinities: []` has such a list (a policy's empty
        // list is dropped by the mutating webhook's omitempty).
        out.after.scheduled = model::scheduled_condition{"True", "Success", "Binding has been scheduled successfully."};
        out.verdict.message += "; but clusterAffinities is an empty list, so karmada-scheduler tries no term and "
                               "writes only the Success condition (spec.clusters are kept)";
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

model::policy_claim claim_of(const model::policy& p)
{
    model::policy_claim c;
    c.cluster_policy = p.kind == model::kind_cluster_propagation_policy;
    c.namespace_ = c.cluster_policy ? "" : p.metadata.ns;
    c.name = p.metadata.name;
    auto label = p.metadata.labels.find(std::string(c.cluster_policy ? model::cpp_permanent_id_label
                                                                      : model::pp_permanent_id_label));
    c.permanent_id = label != p.metadata.labels.end() ? label->second : c.namespace_ + "/" + c.name;
    return c;
}

// karmada: pkg/detector/detector.go ApplyPolicy ("Just update necessary fields", detector.go:485-503):
// the labels BuildResourceBinding's claimFunc writes are merged in, and Spec.Replicas,
// ReplicaRequirements and Components are copied from the binding it builds (applyReplicaInterpretation,
// detector.go:1496: components alone, replicas 0, with MultiplePodTemplatesScheduling and a component
// interpreter; else GetReplicas). A spec change bumps metadata.generation as the API server does.
model::binding apply_policy(const model::binding& b, const model::policy& p, const model::workload* now,
                            std::string_view live_uid, const settings::feature_gates& gates)
{
    model::binding out = b;
    auto claim = claim_of(p);
    if (!b.claim || b.claim->cluster_policy != claim.cluster_policy || b.claim->name != claim.name ||
        b.claim->namespace_ != claim.namespace_)
        out.claim = std::move(claim);
    out.placement = p.spec.placement;
    out.failover = p.spec.failover;
    out.scheduler_name = p.spec.scheduler_name;
    if (now != nullptr) {
        // spec.resource is the template's reference, uid included: the uid picks the Webster tie-breaker
        // (helper.NewDispenser(..., spec.Resource.UID)), so a binding written without it still splits as
        // Karmada splits it (detector.go ApplyPolicy: bindingCopy.Spec.Resource = binding.Spec.Resource).
        // The detector finds the binding by name, so a reference written wrong is rewritten too.
        out.resource.api_version = now->api_version;
        out.resource.kind = now->kind;
        out.resource.namespace_ = now->namespace_;
        out.resource.name = now->name;
        if (!live_uid.empty())
            out.resource.uid = live_uid;
        const model::workload read = scheduled_form(*now, gates);
        out.replicas = read.replicas;
        out.has_requirements = read.has_requirements;
        out.request = read.request;
        out.node_claim = read.claim;
        out.components = read.components;
    }
    const bool rest_of_spec_changed = out.resource != b.resource || out.failover != b.failover ||
                                      out.scheduler_name != b.scheduler_name || out.replicas != b.replicas ||
                                      out.has_requirements != b.has_requirements || out.request != b.request ||
                                      out.node_claim != b.node_claim || out.components != b.components;
    // controllerutil.CreateOrUpdate sends no update when equality.Semantic finds the binding unchanged,
    // and Semantic takes an explicit `[]` for nil: the stored binding then keeps its `[]` (which the
    // scheduler's reflect.DeepEqual still tells from the annotation's nil, helper.go placementChanged).
    if (!rest_of_spec_changed && out.claim == b.claim && model::semantically_equal(out.placement, b.placement))
        return b;
    // The API server compares the stored spec as written: a dropped `[]` is a change there.
    if (rest_of_spec_changed || out.placement != b.placement)
        ++out.generation;
    return out;
}

} // namespace kpw::scheduling
