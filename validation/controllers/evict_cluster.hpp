// SPDX-License-Identifier: Apache-2.0
// GracefulEvictCluster: a target cluster moved from spec.clusters into a graceful-eviction task (day2-semantics §4.5).
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "model/binding.hpp"

namespace kpw::controllers {

inline constexpr std::string_view producer_taint_manager = "TaintManager";
inline constexpr std::string_view reason_taint_untolerated = "TaintUntolerated";

// workv1alpha2.TaskOptions: what the producer puts into the task.
struct task_options {
    std::string purge_mode;
    std::string producer;
    std::string reason;
    std::string message;
    std::optional<std::int32_t> grace_period_seconds;
    std::optional<bool> suppress_deletion;
};

// karmada pkg/apis/work/v1alpha2/binding_types_helper.go GracefulEvictCluster: when `cluster` is in
// spec.clusters its entry is removed, and a task {fromCluster, purgeMode, replicas (the entry's),
// reason, message, producer, gracePeriodSeconds, suppressDeletion} is appended unless a task from that
// cluster exists. creationTimestamp stays unset (the graceful-eviction controller sets it). The
// binding's generation moves on when the spec changed, as the API server does on update. False (and
// `b` untouched) when the cluster is not a target.
bool graceful_evict_cluster(model::binding& b, std::string_view cluster, const task_options& options);

} // namespace kpw::controllers
