// SPDX-License-Identifier: Apache-2.0
// Multi-component scheduling (gate MultiplePodTemplatesScheduling): applicability, sets, the result.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "model/binding.hpp"
#include "model/cluster.hpp"
#include "model/policy.hpp"
#include "model/workload.hpp"
#include "scheduling/accurate_estimator.hpp"
#include "scheduling/estimator.hpp"
#include "scheduling/snapshot.hpp"
#include "settings/feature_gates.hpp"

// How the pipeline uses this header (day2-semantics §6.2):
//   w = scheduled_form(workload, gates)                 — what the detector writes into the binding
//   if multi_template_applicable(spec, w, gates):
//     estimate:  candidate.available = max_available_component_sets(...).sets per cluster
//     select:    select_clusters(ordered, placement, strategy, /*replicas=*/1) — reserve swap included
//     assign:    no division; clusters = component_targets(selected names, w, spec, gates)
//   else if !w.components.empty() (gate on, not applicable):
//     estimate:  general_estimate on w (replicas 0, no request) → pods left per cluster
//     select:    select_clusters(..., /*replicas=*/0)
//     assign:    no division; clusters = component_targets(...) → {name} only
namespace kpw::scheduling {

// karmada: pkg/detector/detector.go applyReplicaInterpretation. With the gate on and components,
// GetReplicas is not called: replicas 0, no requirements. With the gate off, components stay empty. A
// RayService before its customization (settings::changes::ray_service_replicas) has no replica hook.
model::workload scheduled_form(model::workload w, const settings::feature_gates& gates);

// Why the detector builds no binding for the template (applyReplicaInterpretation returns an error):
// GetComponents' failure with the MultiplePodTemplatesScheduling gate on and a component interpreter for
// the kind, else GetReplicas'; nullptr when the interpreter succeeds.
const model::interpretation_failure* detector_failure(const model::workload& w, const settings::feature_gates& gates);

// karmada: pkg/scheduler/core/common.go (gate check) + estimation.go isMultiTemplateSchedulingApplicable:
// the gate is on, the workload has components and the (defaulted) placement has a spread constraint by
// cluster with minGroups 1 and maxGroups 1. Affinity is not considered.
bool multi_template_applicable(const model::propagation_spec& spec, const model::workload& w,
                               const settings::feature_gates& gates);

// What bounds a cluster's set count.
enum class set_bound {
    no_summary,         // no resourceSummary: 0
    no_pods_left,       // allocatable − allocated − allocating pods ≤ 0: 0
    pods,               // floor(pods left / pods per set) (or pods left when a set has no pods)
    resource,           // floor(available / per set) of `resource`
    resource_exhausted, // `resource` is requested but not available (≤ 0 or not listed): 0
    resource_models,    // the model nodes hold fewer complete sets
};
std::string_view set_bound_name(set_bound b); // "no resource summary", "pods", "memory", ...

struct component_set_estimate {
    std::int32_t sets = 0;
    set_bound bound = set_bound::no_summary;
    std::string resource; // for resource / resource_exhausted
};

// karmada general.go quantityAsInt64, on the notation the quantity has once stored (stored_notation):
// binary suffix → Value() (whole units), anything else → MilliValue() (thousandths).
std::int64_t estimator_int64(const model::quantity& q);

// A cluster prepared once: available per resource id by the allocatable's notation, model nodes.
struct set_cluster {
    struct grade {
        std::int64_t count = 0;
        std::vector<std::int64_t> capacity; // by resource id: range minimums, cpu in millicores
    };
    bool has_summary = false;
    std::int64_t pods_left = 0;
    std::vector<std::int64_t> available; // by resource id; 0 for a resource the cluster does not list
    bool use_models = false;             // gate CustomizedClusterResourceModeling and allocatableModelings
    bool models_build = false;           // spec.resourceModels present and no negative count
    std::vector<grade> grades;           // ascending grade, count > 0
};

// A job prepared once. Resource ids refer to the table the clusters were prepared with.
struct set_job {
    struct part {
        std::int32_t replicas = 0;
        std::vector<resource_amount> per_replica; // model path: cpu millicores, others whole units
    };
    std::int64_t pods_per_set = 0;
    std::vector<resource_amount> per_set; // Σ estimator_int64(request) × replicas, non-zero only
    std::vector<std::string> per_set_names; // parallel to per_set
    std::string unknown;                  // a positive per-set resource no prepared cluster lists
    std::vector<part> parts;
    // The model path's inputs, reduced once per job: the resources any part requests (ids), and per
    // part its replicas and per-replica amounts over those ids followed by 1 pod.
    std::vector<int> model_ids;
    std::vector<std::int64_t> model_demand; // parts.size() × (model_ids.size() + 1)
};

set_cluster prepare_set_cluster(const model::cluster& c, resource_table& table, const settings::feature_gates& gates);
set_job prepare_set_job(const std::vector<model::component>& components, const resource_table& table);

// karmada: pkg/estimator/client/general.go GeneralEstimator.maxAvailableComponentSets (day2 §6.3),
// resource models through pkg/estimator/scheduling_simulator_components.go SimulateScheduling. No
// assumed (in-flight) workloads: a dry run has none.
component_set_estimate max_available_component_sets(const set_cluster& c, const set_job& job);

// karmada: scheduling_simulator_components.go SimulateScheduling on the model nodes: place complete sets
// (each component's replicas first-fit over the nodes in order) at most `upper` times; the sets placed.
std::int32_t model_component_sets(const set_cluster& c, const set_job& job, std::int32_t upper);

// The same for one cluster, without a prepared snapshot.
component_set_estimate max_available_component_sets(const model::cluster& c,
                                                    const std::vector<model::component>& components,
                                                    const settings::feature_gates& gates);

// What bounds a set count, for explain output (the general estimator's bound_by vocabulary): "cpu",
// "memory", "nvidia.com/gpu", "pods", "resource models", "no resourceSummary", "x (offered by no cluster)".
std::string set_bound_by(const component_set_estimate& e, const set_job& job);

// MaxAvailableComponentSets over one list of clusters for many jobs (a lint or simulate run, one snapshot):
// the clusters are prepared once (one resource table), and each answer is kept per (component shape,
// cluster), so jobs whose components ask the same of a set share it. A shape is everything the estimate
// reads of a job: pods per set, the per-set amounts, the per-replica model demand and the replicas of each
// component (names do not matter), and with member state each component's request and node claim in
// order (karmada-scheduler-estimator's answer). At most max_shapes shapes are kept (12 bytes per cluster
// each, plus the accurate answers asked for); a job of another shape after that computes its own. Not
// thread-safe; borrows the clusters (and the snapshot) given to job_sets.
class component_set_cache {
public:
    static constexpr std::size_t max_shapes = 256;
    std::size_t shapes() const { return memo_.size(); }

    // One memoised answer.
    struct entry {
        std::int32_t sets = -1; // -1: not computed yet
        set_bound bound = set_bound::no_summary;
        std::int32_t resource = -1; // index into set_job::per_set_names; -2: set_job::unknown
    };
    // One shape's answers per cluster: the general estimator's, karmada-scheduler-estimator's (sized on
    // first use; nullopt: not asked yet).
    struct shape_memo {
        std::vector<entry> general;
        std::vector<std::optional<accurate_estimate>> accurate;
    };

private:
    friend class job_sets;
    // Prepares the clusters unless they are the ones (and the modeling gate and member state the ones)
    // prepared already.
    void bind(std::span<const model::cluster> clusters, const settings::feature_gates& gates, const snapshot* members);

    const model::cluster* data_ = nullptr;
    std::size_t size_ = 0;
    bool bound_ = false, modeling_ = false;
    const snapshot* members_ = nullptr;
    resource_table table_;
    std::vector<set_cluster> clusters_;
    std::unordered_map<std::string, shape_memo> memo_; // shape key → answers per cluster
};

// One job's component sets on the clusters of one snapshot, through a cache: sets(i) for cluster index
// i of `clusters` is max_available_component_sets(clusters[i], components, gates).sets, computed once per
// shape and cluster. With `members` (the snapshot of `clusters` with member state), accurate(i) is
// karmada-scheduler-estimator's MaxAvailableComponentSets for cluster i (estimate_accurate_sets), and
// available(i, true) the smaller of both as calAvailableReplicas keeps it. Valid while the cache stays
// bound to these clusters (no job_sets over other ones); borrows `components`.
class job_sets {
public:
    job_sets(component_set_cache& cache, std::span<const model::cluster> clusters,
             const std::vector<model::component>& components, const settings::feature_gates& gates,
             const snapshot* members = nullptr);
    job_sets(const job_sets&) = delete; // memo_ may point at own_
    job_sets& operator=(const job_sets&) = delete;

    // The general estimator's sets.
    std::int32_t sets(std::size_t index) { return entry_of(index).sets; }
    component_set_estimate estimate(std::size_t index);
    // karmada-scheduler-estimator's answer; nullptr when cluster `index` has none (no member state).
    const accurate_estimate* accurate(std::size_t index);
    // karmada: core/util.go calAvailableReplicas for a multi-template binding: the general estimator's sets,
    // with `accurate` the smaller of those and karmada-scheduler-estimator's (mergeReplicaResults, v1.18.2;
    // calculateMultiTemplateAvailableSets before), and MaxInt32 replaced by spec.replicas, 0.
    std::int32_t available(std::size_t index, bool accurate);
    // --explain's `bound by` of available(index, accurate).
    std::string bound_by(std::size_t index, bool accurate = false);

private:
    const component_set_cache::entry& entry_of(std::size_t index);

    component_set_cache* cache_;
    set_job job_;
    std::span<const model::component> components_;
    component_set_cache::shape_memo* memo_ = nullptr;
    component_set_cache::shape_memo own_; // when the cache holds max_shapes other shapes
};

// karmada: pkg/scheduler/core/common.go AssignReplicas for a binding with components: every selected
// cluster gets {name}; the components [{name, replicas}] are copied in full when the gate is on, the
// job has ≥ 2 components and multi-template scheduling applies (buildTargetComponents).
std::vector<model::target_cluster> component_targets(const std::vector<std::string>& selected,
                                                     const model::workload& w, const model::propagation_spec& spec,
                                                     const settings::feature_gates& gates);

} // namespace kpw::scheduling
