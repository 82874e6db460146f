// SPDX-License-Identifier: Apache-2.0
// The dry-run scheduler: what karmada-scheduler decides for one workload under one policy (first schedule).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "model/binding.hpp"
#include "model/cluster.hpp"
#include "model/well_known.hpp"
#include "model/policy.hpp"
#include "model/workload.hpp"
#include "scheduling/snapshot.hpp"
#include "scheduling/strategy.hpp"
#include "settings/feature_gates.hpp"

namespace kpw::scheduling {

// Karmada's filter plugins (registry names), in the registry's literal order, which is also the
// order used for the printed diagnosis when a cluster fails several (day2-semantics §2.2).
enum class filter_plugin { api_enablement, taint_toleration, cluster_affinity, spread_constraint, cluster_eviction };
inline constexpr filter_plugin all_filter_plugins[] = {filter_plugin::api_enablement, filter_plugin::taint_toleration,
                                                     filter_plugin::cluster_affinity, filter_plugin::spread_constraint,
                                                     filter_plugin::cluster_eviction};
std::string_view plugin_name(filter_plugin p); // "APIEnablement", "TaintToleration", ...

// One plugin that rejects a cluster: Karmada's reason string (exact, it is what the FitError counts)
// and the project's more precise detail beside it (which taint, which API, which selector term).
struct plugin_failure {
    filter_plugin plugin = filter_plugin::cluster_affinity;
    std::string reason; // "cluster(s) had untolerated taint {maintenance:NoExecute}"
    std::string detail; // "taint maintenance:NoExecute (added by the cluster controller) is not tolerated"
};

// Why one cluster of the snapshot got what it got in one affinity group (issue 13 §2).
struct considered_cluster {
    std::string name;
    std::string tier;                     // the primary or overflow affinityName that selects it
    bool passed = false;                  // passed every filter plugin
    std::vector<plugin_failure> failures; // every plugin it fails, in registry order (empty: passed)
    std::int32_t available = 0;           // passed: availableReplicas (current replicas included, at most MaxInt32)
    std::string bound_by;                 // passed: what bounds `available` (cpu, memory, pods, nvidia.com/gpu,
                                          // "resource model grade 2", "no resourceSummary", ...)
    std::int32_t replicas = 0;            // assigned in this group
    std::string left_out;                 // passed but fewer replicas than it could hold: why
                                          // ("spread selection", "Webster rounding", "tier not needed", "tie-breaker")
    // A multi-component job scheduled as one (day2-semantics §6.2): `available` counts complete component
    // sets and `bound_by` names what bounds them; `holds_job` marks the cluster that receives the whole
    // job (replicas stays 0: Karmada divides nothing and writes the components instead).
    bool component_sets = false;
    bool holds_job = false;
    // Not a workload (no replica count): Karmada propagates the object to every cluster it selects, so a
    // selected cluster receives it with replicas 0.
    bool receives_object = false;
};

// One affinity group (clusterAffinities term, or the single clusterAffinity / none) that was tried.
struct group_outcome {
    std::string affinity_name;
    std::string outcome;                     // "scheduled" | the error class: "fit-error", "selection", "assignment"
    std::string error;                       // the group's full Karmada error text ("" when scheduled)
    std::string diagnosis;                   // FitError only: Karmada's text for the registry order
    std::vector<std::string> diagnosis_alternatives; // other texts another plugin order would print
    std::vector<considered_cluster> considered;
};

// What a re-schedule starts from (issue 12): the binding's previous result and status, already
// reduced to what the scheduler reads. Absent (nullptr) = a first schedule.
struct previous_result {
    std::vector<model::target_cluster> clusters; // spec.clusters
    std::string observed_affinity_name;          // status.schedulerObservingAffinityName
    std::vector<std::string> evicting;           // fromCluster of spec.gracefulEvictionTasks (ClusterEviction)
    bool fresh = false;                          // RescheduleRequired holds: Fresh assignment (not index 0)
};

class filter_cache; // scheduling/filter_cache.hpp

struct options {
    // Karmada v1.3-v1.14's webhook added NoExecute tolerations for cluster.karmada.io/not-ready and
    // cluster.karmada.io/unreachable to every policy; v1.15+ adds none (spec 1.1).
    bool legacy_default_tolerations = false;
    // Without a workload uid, assign again with the reversed name order and report a tie if it differs.
    bool detect_ties = true;
    // Fill decision::groups[].considered (issue 13 §2: one row per cluster the group selects). Off by
    // default: the rows cost more than the schedule itself; groups[] outcome, error and diagnosis are
    // always filled.
    bool explain = false;
    // Fill decision::candidates (a row per feasible cluster of the chosen term, thousands on a large
    // inventory). Re-plans of many bindings (lint --bindings, simulate) turn it off: they read the
    // assigned rows of decision::clusters only.
    bool candidate_rows = true;
    // Filter results shared across calls over the same snapshot (workloads of one shape); nullptr: none.
    filter_cache* filters = nullptr;
    // Karmada's feature gates (MultiplePodTemplatesScheduling decides multi-component jobs); nullptr:
    // the binaries' defaults.
    const settings::feature_gates* gates = nullptr;
    // `gates`, or the binaries' defaults when it is nullptr.
    const settings::feature_gates& gates_or_defaults() const;
    // karmada-scheduler --scheduler-name: it queues only bindings whose spec.schedulerName is this one.
    std::string scheduler_name = std::string(model::default_scheduler_name);
};

struct cluster_placement {
    std::string name;
    std::int32_t replicas = 0;  // 0 for a non-workload (propagated without a replica count)
    std::string tier;           // the primary or overflow affinityName the cluster was used from
    std::int32_t available = 0; // the estimator's answer (MaxInt32 for a non-workload); component sets for a
                                // multi-component job scheduled as one
    std::vector<model::component_replicas> components; // TargetCluster.components (multi-component jobs)
};

// Why one clusterAffinities term (or the single clusterAffinity, affinity_name "") failed.
struct term_failure {
    std::string affinity_name;
    std::string reason;
    std::string str() const; // "dc-shanghai: no cluster passed the filters (unavailable: not in the snapshot)"
};

struct decision {
    bool scheduled = false;
    bool non_workload = false;
    scheduling::strategy strategy = strategy::duplicated;
    std::string affinity_name;              // the chosen clusterAffinities term; "" for clusterAffinity
    std::vector<cluster_placement> clusters; // tier order, then most available, then name
    std::string message;
    bool tie = false;                      // the split depends on karmada's uid-driven tie-breaker
    std::vector<std::string> tie_between;  // clusters whose replicas differ with the other name order
    std::vector<term_failure> failures;    // the terms tried before the chosen one (all when unscheduled)
    std::vector<cluster_placement> candidates; // the chosen term's feasible clusters (replicas = assigned)

    // Explain (issue 13): every group tried, in order; the last one decided the outcome.
    std::vector<group_outcome> groups;
    // Karmada's Scheduled-condition message when the outcome is a failure (day2-semantics §1.4, §2.4):
    // for clusterAffinities the first term's error, unwrapped; "" when scheduled.
    std::string condition_reason;  // NoClusterFit | Unschedulable | SchedulerError ("" when scheduled)
    std::string condition_message; // the exact text Karmada writes
    std::vector<std::string> condition_alternatives; // the other possible texts (plugin order, §2.2)
    // Re-schedule (issue 12), when a previous result was given.
    bool keeps_previous = false; // failed, and Karmada keeps spec.clusters as they were (non-Fit error)
    // Non-empty: karmada-scheduler never queues the binding (its event filter), so it stays unscheduled with
    // no condition: why ("spec.schedulerName is other, not default-scheduler").
    std::string ignored;
    // Non-empty: karmada-scheduler crashes on this binding with this Go runtime error (its process exits,
    // and panics again on the binding after each restart); nothing is written, no condition either.
    std::string karmada_panic;
};

// "karmada-scheduler panics<when>: <Go runtime error> (what that does)": a decision's message when
// Karmada's code crashes; `when` qualifies it (" the next time it schedules this binding ...").
std::string karmada_panic_text(const std::string& runtime_error, std::string_view when = {});

// Simulates one first-time schedule (spec 2). `spec` is the policy spec as stored (after CRD and
// webhook defaults); `clusters` is the snapshot. Never throws; pure.
// With `previous`, a re-schedule (scheduling-semantics §6, day2-semantics §3): ClusterLocality scores the
// previous clusters 100, TaintToleration/APIEnablement pass them, ClusterEviction rejects `evicting`,
// availableReplicas include the previous replicas, DynamicWeight/Aggregated assign Steady (or Fresh),
// the clusterAffinities loop starts at the observed term (0 when unnamed or unknown; Fresh included).
decision schedule(const model::propagation_spec& spec, const model::workload& workload, const snapshot& clusters,
                  const options& opts = {}, const previous_result* previous = nullptr);

// What karmada-scheduler does with the binding the detector first builds from `spec` for `workload`:
// nothing when the policy names another scheduler (decision::ignored), else schedule().
decision first_schedule(const model::propagation_spec& spec, const model::workload& workload,
                        const snapshot& clusters, const options& opts = {});

// karmada: pkg/scheduler/event_handler.go schedulerNameFilter: why a scheduler started with --scheduler-name
// `ours` never queues a binding whose spec.schedulerName is `theirs` ("" when it does; "" means
// default-scheduler).
std::string other_scheduler(std::string_view theirs, std::string_view ours);

// The same over clusters not prepared yet (prepares a snapshot for this one call).
decision schedule(const model::propagation_spec& spec, const model::workload& workload,
                  std::span<const model::cluster> clusters, const options& opts = {});

// An affinity (a term's primary or one of its overflow entries, or the single clusterAffinity) that
// matches no cluster of the snapshot at all, whatever the workload.
struct unmatched_affinity {
    std::string affinity_name; // "" for the single clusterAffinity
    std::string field;         // spec.placement.clusterAffinities[0], ...overflowAffinities[1], ...
    std::string message;
};

std::vector<unmatched_affinity> unmatched_terms(const model::propagation_spec& spec, const snapshot& clusters);
std::vector<unmatched_affinity> unmatched_terms(const model::propagation_spec& spec,
                                                std::span<const model::cluster> clusters);

} // namespace kpw::scheduling
