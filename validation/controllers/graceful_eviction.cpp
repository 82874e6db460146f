// SPDX-License-Identifier: Apache-2.0
// assessEvictionTasks (karmada pkg/controllers/gracefuleviction/evictiontask.go) as a pure function.
#include "controllers/graceful_eviction.hpp"

#include <algorithm>

namespace kpw::controllers {

namespace {

// allScheduledResourceInHealthyState: every target has an aggregatedStatus item, and it is Healthy.
bool all_targets_healthy(const model::binding& b)
{
    return std::all_of(b.clusters.begin(), b.clusters.end(), [&](const model::target_cluster& t) {
        auto it = std::find_if(b.aggregated_status.begin(), b.aggregated_status.end(),
                               [&](const model::aggregated_status_item& s) { return s.cluster_name == t.name; });
        return it != b.aggregated_status.end() && it->health == "Healthy";
    });
}

// assessSingleTask for a task that already has its creationTimestamp.
task_assessment assess(const model::graceful_eviction_task& task, const model::binding& b, std::int64_t timeout,
                       model::timestamp now)
{
    task_assessment a{task.from_cluster, task_fate::waiting, std::nullopt};
    if (task.suppress_deletion) {
        a.fate = *task.suppress_deletion ? task_fate::suppressed : task_fate::released;
        return a;
    }
    a.ends_by = *task.creation_timestamp + timeout;
    if (now > *a.ends_by)
        a.fate = task_fate::timed_out;
    else if (b.scheduler_observed_generation == b.generation && all_targets_healthy(b))
        a.fate = task_fate::targets_healthy;
    return a;
}

bool kept(task_fate f) { return f == task_fate::stamped || f == task_fate::suppressed || f == task_fate::waiting; }

} // namespace

graceful_eviction_outcome run_graceful_eviction(model::binding& b, const settings::controller_settings& s,
                                                model::timestamp now)
{
    graceful_eviction_outcome out;
    if (b.deleting || b.graceful_eviction_tasks.empty())
        return out;
    std::vector<model::graceful_eviction_task> keep;
    for (auto task : b.graceful_eviction_tasks) {
        const std::int64_t timeout =
            task.grace_period_seconds ? *task.grace_period_seconds : s.graceful_eviction_timeout;
        task_assessment a{task.from_cluster, task_fate::stamped, std::nullopt};
        if (!task.creation_timestamp) {
            task.creation_timestamp = now;
            if (!task.suppress_deletion)
                a.ends_by = now + timeout;
        } else {
            a = assess(task, b, timeout, now);
        }
        if (kept(a.fate))
            keep.push_back(std::move(task));
        else
            out.events.push_back("Evict from cluster " + task.from_cluster + " succeed.");
        out.tasks.push_back(std::move(a));
    }
    out.changed = keep != b.graceful_eviction_tasks;
    if (out.changed) {
        b.graceful_eviction_tasks = std::move(keep);
        ++b.generation;
    }
    return out;
}

} // namespace kpw::controllers
