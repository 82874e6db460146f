// SPDX-License-Identifier: Apache-2.0
// doScheduleBinding's decision, one scheduler pass over a binding, and the detector's policy apply.
#include "scheduling/reschedule.hpp"

#include <algorithm>

#include "model/binding_decode.hpp"
#include "model/well_known.hpp"
#include "scheduling/strategy.hpp"

namespace kpw::scheduling {

namespace {

const model::cluster_affinity_term* term_named(const model::placement& p, const std::string& name)
{
    auto it = std::find_if(p.cluster_affinities.begin(), p.cluster_affinities.end(),
                           [&](const model::cluster_affinity_term& t) { return t.affinity_name == name; });
    return it == p.cluster_affinities.end() ? nullptr : &*it;
}

// karmada: helper.go clusterAffinitiesChanged — only the observed term is compared.
bool observed_term_changed(const model::placement& p, const model::placement& a, const std::string& observed)
{
    if (observed.empty())
        return true;
    const auto* now = term_named(p, observed);
    const auto* applied = term_named(a, observed);
    return now == nullptr || applied == nullptr || !(*now == *applied);
}

// karmada: spec.IsWorkload — replicas, requirements or components.
bool binding_is_workload(const model::binding& b)
{
    return b.replicas > 0 || b.has_requirements || !b.components.empty();
}

// karmada: pkg/util/binding.go IsBindingReplicasChanged.
bool replicas_changed(const model::binding& b, const settings::feature_gates& gates)
{
    const auto& rs = b.placement->replica_scheduling;
    if (!rs)
        return false;
    // A component-based binding without clusters (a failover's eviction cleared them): from v1.17, of two
    // components or more (v1.17.1 binding.go:50, len > 1); from v1.18, of one or more (v1.18.2 binding.go:50,
    // len > 0, with the rest of single_component_sets).
    const std::size_t fewest = settings::has(gates.release(), settings::changes::single_component_sets) ? 1 : 2;
    if (settings::has(gates.release(), settings::changes::empty_component_clusters_rescheduled) &&
        gates.multiple_pod_templates_scheduling() && b.components.size() >= fewest && b.clusters.empty())
        return true;
    if (rs->replica_scheduling_type == model::replica_scheduling_duplicated)
        return std::any_of(b.clusters.begin(), b.clusters.end(),
                           [&](const model::target_cluster& t) { return t.replicas != b.replicas; });
    if (rs->replica_scheduling_type != model::replica_scheduling_divided)
        return false;
    std::int64_t sum = 0;
    for (const auto& t : b.clusters)
        sum += t.replicas;
    return sum != b.replicas;
}

// karmada: pkg/util/binding.go RescheduleRequired — strictly after, both set.
bool reschedule_required(const model::binding& b)
{
    return b.reschedule_triggered_at && b.last_scheduled_time && *b.reschedule_triggered_at > *b.last_scheduled_time;
}

// karmada: scheduler.go HasTerminatingTargetClusters — a listed cluster being deleted.
bool terminating_target(const model::binding& b, const snapshot& snap)
{
    auto clusters = snap.clusters();
    return std::any_of(clusters.begin(), clusters.end(), [&](const model::cluster& c) {
        return c.deleting && std::any_of(b.clusters.begin(), b.clusters.end(),
                                         [&](const model::target_cluster& t) { return t.name == c.name; });
    });
}

std::string binding_ref(const model::binding& b)
{
    return b.namespace_.empty() ? b.name : b.namespace_ + "/" + b.name;
}

// The first rule of doScheduleBinding that holds (scheduler.go), with its one-line reason.
std::pair<trigger, std::string> first_rule(const model::binding& b, const snapshot& snap,
                                           const settings::feature_gates& gates)
{
    if (placement_changed(b))
        return {trigger::placement_changed,
                "spec.placement differs from the " + std::string(model::applied_placement_annotation) + " annotation"};
    if (replicas_changed(b, gates))
        return {trigger::replicas_changed,
                "spec.clusters do not add up to spec.replicas " + std::to_string(b.replicas)};
    if (reschedule_required(b))
        return {trigger::reschedule_triggered, "spec.rescheduleTriggeredAt is after status.lastScheduledTime"};
    if (!binding_is_workload(b))
        return {trigger::always, "not a workload: scheduled on every pass"};
    if (strategy_of(*b.placement) == strategy::duplicated)
        return {trigger::always, "Duplicated: scheduled on every pass"};
    if (terminating_target(b, snap))
        return {trigger::terminating_target, "a cluster in spec.clusters is being deleted"};
    return {trigger::none, "placement, replicas and targets unchanged, no reschedule trigger: nothing to schedule"};
}

// karmada: event_handler.go resourceBindingEventFilter — why the scheduler never looks at `b` ("" if it does).
std::string not_admitted(const model::binding& b, std::string_view scheduler_name)
{
    if (auto why = other_scheduler(b.scheduler_name, scheduler_name); !why.empty())
        return why;
    if (b.suspend_scheduling)
        return "spec.suspension.scheduling is true";
    bool claimed = b.claim.has_value() || b.labels.count(std::string(model::pp_permanent_id_label)) > 0 ||
                   b.labels.count(std::string(model::cpp_permanent_id_label)) > 0 ||
                   b.labels.count(std::string(model::managed_by_label)) > 0;
    return claimed ? std::string() : "no policy claims it (no permanent-id or managed-by label)";
}

} // namespace

std::string_view trigger_name(trigger t)
{
    switch (t) {
    case trigger::none: return "none";
    case trigger::placement_changed: return "placement changed";
    case trigger::replicas_changed: return "replicas changed";
    case trigger::reschedule_triggered: return "reschedule triggered";
    case trigger::always: return "always (Duplicated or non-workload)";
    case trigger::terminating_target: return "a target cluster is being deleted";
    }
    return "";
}

// karmada: pkg/scheduler/helper.go placementChanged.
bool placement_changed(const model::binding& b)
{
    auto it = b.annotations.find(std::string(model::applied_placement_annotation));
    if (it == b.annotations.end() || it->second.empty())
        return true;
    // As json.Unmarshal reads it: an explicit `[]` is no absent list (reflect.DeepEqual below).
    auto decoded = model::decode_applied_placement(b);
    if (!decoded)
        return false; // json.Unmarshal failed: logged, not changed
    const model::placement& applied = **decoded;
    model::placement now = b.placement.value_or(model::placement{});
    if (now == applied)
        return false;
    if (now.cluster_affinity != applied.cluster_affinity || now.cluster_tolerations != applied.cluster_tolerations ||
        now.spread_constraints != applied.spread_constraints || now.replica_scheduling != applied.replica_scheduling)
        return true;
    return observed_term_changed(now, applied, b.scheduler_observing_affinity_name);
}

trigger_verdict should_schedule(const model::binding& b, const snapshot& clusters, const settings::feature_gates& gates,
                                std::string_view scheduler_name)
{
    trigger_verdict v;
    if (auto why = not_admitted(b, scheduler_name); !why.empty()) {
        v.ignored = true;
        v.message = "the scheduler ignores this binding: " + why;
        return v;
    }
    std::string kind = b.namespace_.empty() ? "clusterResourceBinding" : "resourceBinding";
    if (b.deleting) {
        v.message = "skip schedule deleting " + kind + ": " + binding_ref(b);
        return v;
    }
    if (!b.placement) {
        v.message = "failed to get placement from " + kind + "(" + binding_ref(b) + ")";
        return v;
    }
    v.fresh = reschedule_required(b);
    auto [fired, why] = first_rule(b, clusters, gates);
    v.fired = fired;
    v.message = fired == trigger::none ? why : std::string(trigger_name(fired)) + ": " + why;
    return v;
}

} // namespace kpw::scheduling
