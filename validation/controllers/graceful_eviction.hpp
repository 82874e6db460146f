// SPDX-License-Identifier: Apache-2.0
// The graceful-eviction controller: when an eviction task ends (day2-semantics §4.6).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "model/binding.hpp"
#include "settings/controller_settings.hpp"

namespace kpw::controllers {

// Why a task was kept or removed, per task in order.
enum class task_fate {
    stamped,          // had no creationTimestamp: set to now, kept
    suppressed,       // suppressDeletion true: kept until a person sets it false
    released,         // suppressDeletion false: removed now
    timed_out,        // now > creationTimestamp + timeout: removed
    targets_healthy,  // scheduled and every spec.clusters entry Healthy in aggregatedStatus: removed
    waiting,          // kept: health unknown offline, ends at `ends_by` at the latest
};

struct task_assessment {
    std::string from_cluster;
    task_fate fate = task_fate::waiting;
    std::optional<model::timestamp> ends_by; // creationTimestamp + timeout (not for suppressed tasks)
};

struct graceful_eviction_outcome {
    std::vector<task_assessment> tasks;
    std::vector<std::string> events; // "Evict from cluster <c> succeed." per removed task
    bool changed = false;            // the task list was patched (generation moved on)
};

// karmada pkg/controllers/gracefuleviction/evictiontask.go assessEvictionTasks, run on `b` in place
// (the controller skips a binding being deleted). timeout = gracePeriodSeconds or
// --graceful-eviction-timeout. The health test (schedulerObservedGeneration == generation and every
// spec.clusters entry has an aggregatedStatus item with health Healthy) uses `b.aggregated_status` as
// given: live status cannot be predicted offline, so a simulation that has no fresh status should
// treat a `waiting` task as "health unknown" and rely on `ends_by`. purgeMode is not consulted.
graceful_eviction_outcome run_graceful_eviction(model::binding& b, const settings::controller_settings& s,
                                                model::timestamp now);

} // namespace kpw::controllers
