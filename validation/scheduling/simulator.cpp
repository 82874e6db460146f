// SPDX-License-Identifier: Apache-2.0
// The group loop: each affinity group is filtered, selected and assigned until one schedules.
#include "scheduling/simulator.hpp"

#include <algorithm>
#include <optional>

#include "scheduling/assign.hpp"
#include "scheduling/component_sets.hpp"
#include "scheduling/diagnosis.hpp"
#include "scheduling/estimator.hpp"
#include "scheduling/filter.hpp"
#include "scheduling/filter_cache.hpp"
#include "scheduling/filter_stage.hpp"
#include "scheduling/previous_view.hpp"
#include "scheduling/select.hpp"
#include "scheduling/simulator_run.hpp"
#include "scheduling/webster.hpp"

namespace kpw::scheduling {

using namespace detail; // the run context and the steps in simulator_{fit_error,candidates,outcome}.cpp

namespace {

std::vector<model::toleration> effective_tolerations(const model::placement& placement, const options& opts)
{
    std::vector<model::toleration> out = placement.cluster_tolerations;
    if (opts.legacy_default_tolerations) {
        for (const char* key : {"cluster.karmada.io/not-ready", "cluster.karmada.io/unreachable"}) {
            bool present = std::any_of(out.begin(), out.end(), [&](const model::toleration& t) {
                return t.key == key && t.effect == "NoExecute";
            });
            if (!present)
                out.push_back({key, "Exists", "", "NoExecute", 300});
        }
    }
    return out;
}

// Whose scheduler decides where releases differ: the gates' release (the binaries' gates are a release's).
settings::karmada_release release_of(const run& r)
{
    return r.opts.gates != nullptr ? r.opts.gates->release() : settings::newest_karmada_release;
}

// Before v1.17 (settings::changes::scale_down_by_candidates) dynamicScaleDown dealt the desired replicas over
// the whole previous spec.clusters (v1.16.0 division_algorithm.go:112-117), not over the chosen clusters
// alone: the chosen clusters followed by every previous cluster of the snapshot with replicas that is not
// chosen (current = its previous replicas), when the previous replicas of the chosen ones exceed the
// desired count. Empty otherwise. (A previous cluster the snapshot lacks has no name rank and is left out.)
std::vector<candidate> previous_outside(const run& r, const attempt& a, strategy s)
{
    if (settings::has(release_of(r), settings::changes::scale_down_by_candidates) || r.mode != division_mode::steady ||
        (s != strategy::dynamic_weight && s != strategy::aggregated))
        return {};
    std::int64_t assigned = 0;
    std::vector<bool> chosen_rank(r.snap.clusters().size(), false);
    for (const auto& c : a.chosen.clusters) {
        assigned += c.current;
        chosen_rank[c.name_rank] = true;
    }
    if (assigned <= r.w.replicas)
        return {};
    std::vector<candidate> out = a.chosen.clusters;
    for (std::size_t i = 0; i < r.snap.clusters().size(); ++i) {
        const std::uint32_t rank = r.snap.name_rank(i);
        const std::int32_t previous = current_of(r.previous, rank);
        if (!chosen_rank[rank] && previous > 0)
            out.push_back({&r.snap.clusters()[i], 0, previous, rank, 0, previous, 0, r.snap.region_rank(i)});
    }
    return out.size() == a.chosen.clusters.size() ? std::vector<candidate>{} : out;
}

// `a.scaled_down` is filled first (previous_outside), so that both name orders assign over the same list.
assignment assign(const run& r, const attempt& a, bool overflow, name_order order)
{
    if (!r.workload || !r.w.components.empty()) { // nothing to divide (common.go AssignReplicas)
        assignment out;
        for (const auto& c : a.chosen.clusters)
            out.clusters.push_back({&c, 0});
        return out;
    }
    strategy s = strategy_of(r.placement);
    if (overflow)
        return assign_tiers(a.chosen.clusters, r.placement, s, r.w.replicas, order, r.mode);
    const auto& over = a.scaled_down.empty() ? a.chosen.clusters : a.scaled_down;
    return assign_strategy(over, r.placement, s, r.w.replicas, order, r.mode, release_of(r));
}

// karmada: common.go SelectClusters — the replicas the selected clusters must hold between them. From
// v1.18.0 a multi-component job asks for one complete set; before, spec.Replicas, which is 0 in a
// multi-component binding, so a cluster without room for a set was selected all the same.
std::int64_t replicas_to_select(const run& r)
{
    if (r.sets && settings::has(release_of(r), settings::changes::component_set_selection_unit))
        return 1;
    return r.workload ? r.w.replicas : 0;
}

// karmada: estimator/client/accurate.go getClusterComponentSetsConcurrently aggregates the per-cluster
// errors, and calAvailableReplicas drops the estimator's answers for every cluster when the call fails.
void drop_failed_calls(estimator_use& use, job_sets& sets, const snapshot& snap,
                       std::span<const group_filter::pass> feasible)
{
    for (const auto& p : feasible)
        if (const accurate_estimate* e = sets.accurate(p.index); e != nullptr && !e->failure.empty()) {
            use.accurate = false;
            use.failed = "the call to " + snap.clusters()[p.index].name + "'s karmada-scheduler-estimator fails: " +
                         e->failure;
            return;
        }
}

attempt try_term(const run& r, const filter_scope& scope)
{
    attempt a;
    filter_cache* cache = r.opts.filters;
    filter_cache::shape* shape = cache != nullptr ? &cache->shape_of(scope) : nullptr;
    auto f = shape != nullptr ? cache->filter(*shape, scope) : filter_group(r.snap, scope);
    if (f.feasible.empty()) {
        if (shape != nullptr && scope.targets.empty() && scope.evicting.empty()) {
            if (!shape->fit_error)
                shape->fit_error.emplace(project_fit_error(r, scope, f), karmada_fit_error(r, scope));
            a.error = shape->fit_error->first;
            a.diagnosis = shape->fit_error->second;
        } else {
            a.error = project_fit_error(r, scope, f);
            a.diagnosis = karmada_fit_error(r, scope);
        }
        return a;
    }
    // Estimators are asked only for workloads (component sets included).
    if (r.estimates())
        a.estimators = estimator_use_of(r.snap, f.feasible);
    if (r.sets != nullptr && a.estimators.accurate)
        drop_failed_calls(a.estimators, *r.sets, r.snap, f.feasible);
    if (shape != nullptr && r.estimates() && !r.sets) {
        auto& memo = cache->estimates_for(r.request, a.estimators.accurate);
        const auto& order = cache->first_order(*shape, memo, r.request, a.estimators.accurate);
        // The shared order ranks the estimates as the estimators answer; a MaxInt32 among them becomes each
        // workload's own spec.replicas (candidate_maker), which re-ranks it: then this workload sorts alone.
        const bool shared = std::none_of(order.begin(), order.end(),
                                         [&](const group_filter::pass& p) { return memo[p.index] == unlimited_replicas; });
        a.feasible = shared ? candidates_of(r, f, order, memo, a.estimators.accurate)
                            : candidates_of(r, f, a.estimators.accurate);
    } else {
        a.feasible = candidates_of(r, f, a.estimators.accurate);
    }
    if (r.estimates() && !r.sets && r.request.legacy_models) {
        // Karmada estimates first (generateClustersInfo's calAvailableReplicas), then selects: a crash of the
        // general estimator (only before v1.18, which reads the models by position) comes before any of
        // selection's.
        for (const auto& p : f.feasible)
            if (const auto crash = general_estimate_panic(r.snap.prepared(p.index), r.request)) {
                a.stage = failure_stage::selection;
                a.chosen.panic = crash->str();
                a.error = karmada_panic_text(a.chosen.panic, " estimating cluster " + r.snap.clusters()[p.index].name);
                return a;
            }
    }
    a.chosen = select_clusters(a.feasible, r.placement, strategy_of(r.placement), replicas_to_select(r), release_of(r));
    if (!a.chosen.panic.empty()) {
        a.stage = failure_stage::selection;
        a.error = karmada_panic_text(a.chosen.panic);
        return a;
    }
    if (!a.chosen.error.empty()) {
        a.stage = a.chosen.empty ? failure_stage::assignment : failure_stage::selection;
        a.error = a.chosen.error;
        return a;
    }
    bool overflow = scope.group.tiered;
    if (!overflow && r.workload && r.w.components.empty())
        a.scaled_down = previous_outside(r, a, strategy_of(r.placement));
    a.result = assign(r, a, overflow, name_order_for_uid(r.w.uid));
    a.stage = failure_stage::assignment;
    a.error = a.result.error;
    a.unschedulable = a.result.unschedulable;
    if (a.error.empty() && r.w.uid.empty() && r.opts.detect_ties && r.workload && r.w.components.empty()) {
        a.reversed = assign(r, a, overflow, name_order::descending);
        a.checked_tie = true;
    }
    return a;
}

// The scheduling groups in spec order: each clusterAffinities term (with its overflow entries for a
// workload), or the single clusterAffinity / none. Karmada's scheduler walks the terms by position but
// finds the term of each attempt by its name (cluster_affinity.go Filter, group_clusters.go
// getClusterOverflowOrder: the first term of that name), and its Filter takes clusterAffinity whenever
// one is set. Whether replicas are dealt tier by tier asks every term of that name (v1.18.2
// core/common.go:140-154 enableOverflow returns true at any of them that sets overflowAffinities): a
// later namesake's overflow list tiers the first term's clusters, one tier, each bounded by its
// available replicas. All of this differs from the term itself only in a binding written without the
// webhook, which denies repeated names and both fields at once.
std::vector<group_scope> groups_of(const model::placement& placement, bool non_workload)
{
    std::vector<group_scope> out;
    const auto& terms = placement.cluster_affinities;
    for (const auto& t : terms) {
        if (placement.cluster_affinity) {
            out.push_back({t.affinity_name, &*placement.cluster_affinity, {}, false});
            continue;
        }
        const auto& named = *std::find_if(terms.begin(), terms.end(),
                                          [&](const auto& x) { return x.affinity_name == t.affinity_name; });
        const bool declared = std::any_of(terms.begin(), terms.end(), [&](const auto& x) {
            return x.affinity_name == t.affinity_name &&
                   (!x.overflow_affinities.empty() || x.overflow_affinities.explicitly_empty);
        });
        out.push_back({t.affinity_name, &named.cluster_affinity,
                       non_workload ? std::span<const model::overflow_cluster_affinity>{} : named.overflow_affinities,
                       !non_workload && declared && !t.affinity_name.empty()});
    }
    if (out.empty())
        out.push_back({"", placement.cluster_affinity ? &*placement.cluster_affinity : nullptr, {}, false});
    return out;
}

// karmada: helper.go:99-110 getAffinityIndex — the observed term's position, 0 when unnamed or not found.
// Fresh (RescheduleRequired, a WorkloadRebalancer's trigger) does not restart the walk in v1.16.0, v1.17.1
// or v1.18.2: scheduleResourceBindingWithClusterAffinities (scheduler.go:633 of v1.18.2, :617 of v1.17.1,
// :614 of v1.16.0) and its ClusterResourceBinding twin (:857, :760, :752) call getAffinityIndex with no
// RescheduleRequired check; the trigger only makes the division Fresh (core/assignment.go newAssignState).
// Karmada master restarts at 0 (docs/versions.md).
std::size_t start_index(const model::placement& placement, const previous_result* previous)
{
    if (previous == nullptr || previous->observed_affinity_name.empty())
        return 0;
    const auto& terms = placement.cluster_affinities;
    for (std::size_t i = 0; i < terms.size(); ++i)
        if (terms[i].affinity_name == previous->observed_affinity_name)
            return i;
    return 0;
}

division_mode mode_of(const previous_result* previous)
{
    if (previous == nullptr)
        return division_mode::first;
    return previous->fresh ? division_mode::fresh : division_mode::steady;
}

} // namespace

std::string term_failure::str() const
{
    return affinity_name.empty() ? reason : affinity_name + ": " + reason;
}

std::string other_scheduler(std::string_view theirs, std::string_view ours)
{
    const std::string_view name = theirs.empty() ? model::default_scheduler_name : theirs;
    if (name == ours)
        return {};
    return "spec.schedulerName is " + std::string(name) + ", not " + std::string(ours);
}

decision first_schedule(const model::propagation_spec& spec, const model::workload& workload,
                        const snapshot& clusters, const options& opts)
{
    if (auto why = other_scheduler(spec.scheduler_name, opts.scheduler_name); !why.empty()) {
        decision d;
        d.strategy = strategy_of(spec.placement);
        d.non_workload = !is_workload(scheduled_form(workload, opts.gates_or_defaults()));
        d.ignored = why;
        d.message = why + ": karmada-scheduler never queues the binding, which waits for a scheduler of that "
                          "name with no clusters and no condition";
        return d;
    }
    return schedule(spec, workload, clusters, opts);
}

decision schedule(const model::propagation_spec& spec, const model::workload& workload,
                  std::span<const model::cluster> clusters, const options& opts)
{
    return schedule(spec, workload, snapshot(clusters), opts);
}

std::string_view plugin_name(filter_plugin p)
{
    switch (p) {
    case filter_plugin::api_enablement: return "APIEnablement";
    case filter_plugin::taint_toleration: return "TaintToleration";
    case filter_plugin::cluster_affinity: return "ClusterAffinity";
    case filter_plugin::spread_constraint: return "SpreadConstraint";
    case filter_plugin::cluster_eviction: return "ClusterEviction";
    }
    return "";
}

const settings::feature_gates& options::gates_or_defaults() const
{
    static const settings::feature_gates binary_defaults;
    return gates != nullptr ? *gates : binary_defaults;
}

decision schedule(const model::propagation_spec& spec, const model::workload& template_workload,
                  const snapshot& clusters, const options& opts, const previous_result* previous)
{
    const settings::feature_gates& gates = opts.gates_or_defaults();
    // What the detector writes into the binding: components only with MultiplePodTemplatesScheduling.
    const model::workload workload = scheduled_form(template_workload, gates);
    const auto& placement = spec.placement;
    decision d;
    d.strategy = strategy_of(placement);
    d.non_workload = !is_workload(workload);
    run r{placement, workload, clusters, opts, effective_tolerations(placement, opts), view_of(previous, clusters),
          prepare_request(workload, clusters.resources()), clusters.api_id(workload.api_version, workload.kind),
          mode_of(previous), !d.non_workload};
    r.request.legacy_models = !settings::has(release_of(r), settings::changes::model_node_simulation);
    r.request.models_enabled = gates.customized_cluster_resource_modeling();
    // Component sets through the run's cache when there is one (jobs of one shape share them).
    std::optional<component_set_cache> own_sets;
    std::optional<job_sets> sets;
    if (multi_template_applicable(spec, workload, gates)) {
        auto& cache = opts.filters != nullptr ? opts.filters->component_sets() : own_sets.emplace();
        r.sets = &sets.emplace(cache, clusters.clusters(), workload.components, gates, &clusters);
    }
    auto groups = groups_of(placement, d.non_workload);
    std::optional<attempt> first;
    for (std::size_t t = start_index(placement, previous); t < groups.size(); ++t) {
        auto scope = r.scope(groups[t]);
        attempt a = try_term(r, scope);
        d.groups.push_back(outcome_of(r, scope, a));
        if (a.error.empty()) {
            fill(d, groups[t], a, workload, opts.candidate_rows);
            if (!workload.components.empty())
                add_components(d, spec, workload, gates, r.sets != nullptr, a.estimators);
            return d;
        }
        d.failures.push_back({groups[t].name, a.error});
        if (!a.chosen.panic.empty()) {
            // The scheduler's process dies in this group: no later group is tried, nothing is written.
            d.karmada_panic = a.chosen.panic;
            d.message = a.error;
            return d;
        }
        if (!first)
            first = std::move(a);
    }
    d.message = placement.cluster_affinities.empty() ? d.failures.front().reason
                                                     : "no affinity group can host the workload";
    // The first term's error decides (scheduleResourceBindingWithClusterAffinities: firstErr), unwrapped.
    const group_outcome& decided = d.groups.front();
    d.condition_reason = condition_reason(first->stage, first->unschedulable);
    d.condition_message = decided.error;
    d.condition_alternatives = decided.diagnosis_alternatives;
    d.keeps_previous = previous != nullptr && first->stage != failure_stage::fit;
    return d;
}

std::string karmada_panic_text(const std::string& runtime_error, std::string_view when)
{
    return "karmada-scheduler panics" + std::string(when) + ": " + runtime_error +
           " (the process exits, and panics again on this binding after each restart, stalling the bindings queued "
           "after it; " + std::string(advice_for_panic(runtime_error).why) + ")";
}

} // namespace kpw::scheduling
