// SPDX-License-Identifier: Apache-2.0
// GracefulEvictCluster (karmada pkg/apis/work/v1alpha2/binding_types_helper.go).
#include "controllers/evict_cluster.hpp"

#include <algorithm>

namespace kpw::controllers {

bool graceful_evict_cluster(model::binding& b, std::string_view cluster, const task_options& options)
{
    auto it = std::find_if(b.clusters.begin(), b.clusters.end(),
                           [&](const model::target_cluster& t) { return t.name == cluster; });
    if (it == b.clusters.end())
        return false;
    const model::target_cluster evicted = *it;
    b.clusters.erase(it);
    ++b.generation;
    const bool has_task =
        std::any_of(b.graceful_eviction_tasks.begin(), b.graceful_eviction_tasks.end(),
                    [&](const model::graceful_eviction_task& t) { return t.from_cluster == cluster; });
    if (has_task)
        return true;
    model::graceful_eviction_task task;
    task.from_cluster = evicted.name;
    task.purge_mode = options.purge_mode;
    task.replicas = evicted.replicas;
    task.reason = options.reason;
    task.message = options.message;
    task.producer = options.producer;
    task.grace_period_seconds = options.grace_period_seconds;
    task.suppress_deletion = options.suppress_deletion;
    b.graceful_eviction_tasks.push_back(std::move(task));
    return true;
}

} // namespace kpw::controllers
