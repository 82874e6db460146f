// SPDX-License-Identifier: Apache-2.0
// Typed model: the well-known values of the policy API (kinds, enums, labels, finalizers).
#pragma once

// Part of the typed model; include model/policy.hpp.

#include <string_view>

namespace kpw::model {

// ---- well-known values ------------------------------------------------------------------

inline constexpr std::string_view kind_propagation_policy = "PropagationPolicy";
inline constexpr std::string_view kind_cluster_propagation_policy = "ClusterPropagationPolicy";

inline constexpr std::string_view replica_scheduling_duplicated = "Duplicated";
inline constexpr std::string_view replica_scheduling_divided = "Divided";
inline constexpr std::string_view division_preference_aggregated = "Aggregated";
inline constexpr std::string_view division_preference_weighted = "Weighted";
inline constexpr std::string_view dynamic_weight_available_replicas = "AvailableReplicas";

inline constexpr std::string_view spread_by_field_cluster = "cluster";
inline constexpr std::string_view spread_by_field_region = "region";
inline constexpr std::string_view spread_by_field_zone = "zone";
inline constexpr std::string_view spread_by_field_provider = "provider";

inline constexpr std::string_view preemption_always = "Always";
inline constexpr std::string_view preemption_never = "Never";
inline constexpr std::string_view conflict_resolution_abort = "Abort";
inline constexpr std::string_view conflict_resolution_overwrite = "Overwrite";
inline constexpr std::string_view activation_preference_lazy = "Lazy";

inline constexpr std::string_view purge_mode_directly = "Directly";
inline constexpr std::string_view purge_mode_gracefully = "Gracefully";
inline constexpr std::string_view purge_mode_never = "Never";
// Deprecated, still in v1.18.2's CRD enum (application failover only): Immediately is Directly, Graciously
// is Gracefully (karmada: pkg/apis/policy/v1alpha1/propagation_types.go).
inline constexpr std::string_view purge_mode_immediately = "Immediately";
inline constexpr std::string_view purge_mode_graciously = "Graciously";

// The eviction task's Work goes at once (helper/binding.go ObtainClustersWithPurgeModeDirectly reads both
// spellings); graceful: the mutating webhook defaults gracePeriodSeconds for both (SetDefaultGracePeriodSeconds).
inline bool purges_directly(std::string_view mode) { return mode == purge_mode_directly || mode == purge_mode_immediately; }
inline bool purges_gracefully(std::string_view mode) { return mode == purge_mode_gracefully || mode == purge_mode_graciously; }

inline constexpr std::string_view default_scheduler_name = "default-scheduler";

// Labels and finalizers the mutating webhook manages (validation-rules §3.2 M7/M8, §6.1-6.2).
inline constexpr std::string_view pp_permanent_id_label = "propagationpolicy.karmada.io/permanent-id";
inline constexpr std::string_view cpp_permanent_id_label = "clusterpropagationpolicy.karmada.io/permanent-id";
inline constexpr std::string_view pp_finalizer = "karmada.io/propagation-policy-controller";
inline constexpr std::string_view cpp_finalizer = "karmada.io/cluster-propagation-policy-controller";

} // namespace kpw::model
