// SPDX-License-Identifier: Apache-2.0
// karmada_release: which Karmada the answers are for, and every change between the supported releases
// that alters a verdict, a default or a placement, each named after Karmada's change (docs/versions.md).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "base/result.hpp"

namespace kpw::settings {

// One per maintained minor: the release of it the Go module proxy serves, which the conformance
// oracle of that minor is built from (tests/conformance/go*.mod). Ordered: a later release compares greater.
enum class karmada_release : std::uint8_t { v1_16_0, v1_17_1, v1_18_2 };

inline constexpr karmada_release newest_karmada_release = karmada_release::v1_18_2;

std::string_view release_name(karmada_release r); // "v1.17.1"
std::string_view release_minor(karmada_release r); // "v1.17"
std::span<const karmada_release> supported_karmada_releases(); // oldest first

// "v1.17", "1.17", "v1.17.3" or "v1.17.1": the pinned release of that minor. Anything else is an error
// that lists what is supported ("Karmada v1.15.2 is not supported: supported releases are v1.16 (v1.16.0),
// v1.17 (v1.17.1), v1.18 (v1.18.2)").
result<karmada_release> parse_karmada_version(std::string_view text);

// A change between two supported releases: present in `since` and every later release.
struct karmada_change {
    std::string_view summary;     // what changed, in a user's words
    std::string_view introduced;  // the Karmada version that introduced it ("v1.18.0")
    std::string_view source;      // Karmada's file and function (or PR) that decides it
    karmada_release since;        // the oldest supported release that has it
    std::string_view added_field; // a field the change added to the policy CRDs, lists marked [] and no
                                  // indices ("spec.placement.clusterAffinities[].overflowAffinities"); "" for none
};

inline bool has(karmada_release r, const karmada_change& c) { return r >= c.since; }

// Every change, oldest first; docs/versions.md lists the same with the case that proves each.
namespace changes {

// The PropagationPolicy CRD's placement.workloadAffinity and its webhook checks (karmada#7131, #7222).
extern const karmada_change workload_affinity;
// ValidatePropagationSpec(spec, namespace): every resource selector of a PropagationPolicy must name the
// policy's own namespace (pkg/util/validation/validation.go validateResourceSelectors).
extern const karmada_change resource_selector_namespace;
// apimachinery v0.35's name checks (Karmada v1.17 moved to k8s v0.35): IsQualifiedName = content.IsLabelKey
// says "a valid label key" and counts bytes; v0.34's says "a qualified name" and counts characters. It words
// affinityName, aliasLabelName and the API server's checks of metadata (label keys and values, annotation
// keys, finalizers).
extern const karmada_change apimachinery_name_wording;
// clusterAffinities[].overflowAffinities: the CRD field, its webhook checks and the scheduler's tiers.
extern const karmada_change overflow_affinities;
// clusterTolerations[].operator Lt / Gt denied (validateClusterTolerations).
extern const karmada_change cluster_toleration_operators;
// A workload with a single component is estimated by component sets too (isMultiTemplateSchedulingApplicable:
// len(spec.Components) == 0 is the only exclusion; before, fewer than 2 components fell back to replicas).
extern const karmada_change single_component_sets;
// SelectClusters asks a multi-component job's selected clusters for one complete component set; before, for
// spec.Replicas (0 in such a binding), so a cluster with no room for a set could be selected.
extern const karmada_change component_set_selection_unit;
// getMaximumReplicasBasedOnResourceModels packs one-pod components on model nodes (SchedulingSimulator: the
// grades of allocatableModelings, 110 pods a node); before, it multiplied each grade's count from the minimum
// compliant model on by min(floor(min / request)) (0 read as 1, no request as MaxInt64, in wrapping int64) and
// returned that unclamped, so an estimate could be negative.
extern const karmada_change model_node_simulation;
// calcGroupScoreForDuplicate returns 0 for a region without a cluster that holds the replicas; before, it
// divided by that zero count: karmada-scheduler panicked ("integer divide by zero").
extern const karmada_change duplicated_region_score_guard;
// IsBindingReplicasChanged: a multi-component binding (MultiplePodTemplatesScheduling) with no target cluster
// counts as changed replicas, so karmada-scheduler re-schedules it (a failover's eviction cleared it); before,
// only the Duplicated / Divided sums were compared.
extern const karmada_change empty_component_clusters_rescheduled;
// dynamicScaleDown deals the desired replicas over the previous clusters that are still candidates
// (state.scheduledClusters); before, over the whole previous spec.clusters, so a cluster that left the
// placement kept a share of a scale-down.
extern const karmada_change scale_down_by_candidates;
// assignment.go wraps dynamic division's errors with %w: a capacity shortfall ("failed to scale up: Clusters
// available replicas N are not enough") stays an UnschedulableError, condition reason Unschedulable; before,
// %v made it a plain error, reason SchedulerError.
extern const karmada_change wrapped_division_errors;
// sigs.k8s.io/json 2025-07 (Karmada v1.17's module graph) names an embedded struct in a type error's field
// path ("...clusterAffinities.ClusterAffinity.fieldSelector..."); the 2024-10 version v1.16 builds with does
// not ("...clusterAffinities.fieldSelector...").
extern const karmada_change json_embedded_field_names;
// A decoding error of Karmada's webhook names its aggregated scheme by runtime.NewScheme's call site, a line of
// apimachinery's scheme.go: 111 in v0.35 (Karmada v1.17's module graph), 110 in v0.34.
extern const karmada_change apimachinery_scheme_name;

// The shipped RayService customization's replicaResource (replicas from the head and worker groups); before,
// RayService had no replica interpreter.
extern const karmada_change ray_service_replicas;

std::span<const karmada_change* const> all();

} // namespace changes

// The change that added the field at `api_path` or one of its parents ("spec.placement.clusterAffinities[0].
// overflowAffinities[1].affinityName"), among the changes that added a field; nullptr when none did.
const karmada_change* change_adding_field(std::string_view api_path);

} // namespace kpw::settings
