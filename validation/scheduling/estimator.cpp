// SPDX-License-Identifier: Apache-2.0
// General estimator: pods left, the resource-model path and the resource-summary path.
#include "scheduling/estimator.hpp"

#include <algorithm>
#include <optional>

namespace kpw::scheduling {

namespace {

using model::quantity;

quantity lookup(const model::resource_list& list, std::string_view name)
{
    auto it = list.find(name);
    return it == list.end() ? quantity{} : it->second;
}

std::int64_t pods_left(const model::resource_summary& s)
{
    return lookup(s.allocatable, "pods").value_ceil() - lookup(s.allocated, "pods").value_ceil() -
           lookup(s.allocating, "pods").value_ceil();
}

// A model node's capacity for one resource in karmada units; 0 when the model does not define it.
std::int64_t node_capacity(const model::resource_model& grade, std::string_view resource)
{
    if (resource == "pods")
        return model_node_pods;
    for (const auto& r : grade.ranges)
        if (r.name == resource)
            return resource == "cpu" ? r.min.milli_ceil() : r.min.value_ceil();
    return 0;
}

std::int64_t replicas_per_node(const model::resource_model& grade, const model::replica_request& request)
{
    std::int64_t fit = model_node_pods;
    for (const auto& [name, amount] : request) {
        if (amount <= 0)
            continue;
        fit = std::min(fit, node_capacity(grade, name) / amount);
    }
    return std::max<std::int64_t>(fit, 0);
}

// karmada: getMaximumReplicasBasedOnResourceModels; nullopt when the models cannot be built.
std::optional<std::int64_t> model_estimate(const model::cluster& c, const model::resource_summary& s,
                                           const model::replica_request& request)
{
    if (c.resource_models.empty() || s.allocatable_modelings.empty())
        return std::nullopt;
    std::int64_t total = 0;
    for (const auto& m : s.allocatable_modelings) {
        if (m.count < 0)
            return std::nullopt;
        if (m.count == 0)
            continue;
        auto grade = std::find_if(c.resource_models.begin(), c.resource_models.end(),
                                  [&](const model::resource_model& r) { return r.grade == m.grade; });
        if (grade == c.resource_models.end())
            continue;
        // Bounded so that an absurd node count cannot overflow; the result is capped at MaxInt32 anyway.
        total += std::min<std::int64_t>(m.count, 1LL << 32) * replicas_per_node(*grade, request);
    }
    return total;
}

// karmada: getAllowedPodNumber + the per-resource loop over allocatable − allocated − allocating.
std::int64_t summary_estimate(const model::resource_summary& s, const model::replica_request& request,
                              std::int64_t pods)
{
    std::int64_t fit = pods;
    for (const auto& [name, amount] : request) {
        if (amount <= 0)
            continue;
        auto it = s.allocatable.find(name);
        if (it == s.allocatable.end())
            return 0;
        quantity free = it->second - lookup(s.allocated, name) - lookup(s.allocating, name);
        if (free.value_ceil() <= 0)
            return 0;
        std::int64_t available = name == "cpu" ? free.milli_ceil() : free.value_ceil();
        fit = std::min(fit, available / amount);
    }
    return fit;
}

estimate capped(std::int64_t v, estimate_source source)
{
    return {static_cast<std::int32_t>(std::clamp<std::int64_t>(v, 0, unlimited_replicas)), source};
}

} // namespace

estimate general_estimate(const model::cluster& cluster, const model::workload& workload)
{
    if (!cluster.resource_summary)
        return {0, estimate_source::no_summary};
    const auto& summary = *cluster.resource_summary;
    std::int64_t pods = pods_left(summary);
    if (pods <= 0)
        return {0, estimate_source::no_pods_left};
    if (!workload.has_requirements)
        return capped(pods, estimate_source::pods_only);
    if (auto m = model_estimate(cluster, summary, workload.request))
        return capped(std::min(*m, pods), estimate_source::resource_models);
    return capped(summary_estimate(summary, workload.request, pods), estimate_source::summary);
}

} // namespace kpw::scheduling
