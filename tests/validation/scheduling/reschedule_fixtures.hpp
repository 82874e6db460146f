// SPDX-License-Identifier: Apache-2.0
// Builders for re-schedule tests: a claimed binding whose applied-placement annotation matches its placement.
#pragma once

#include "fixtures.hpp"
#include "model/binding.hpp"
#include "model/encode.hpp"
#include "scheduling/reschedule.hpp"

namespace kpw::scheduling::test {

// A Deployment binding default/web-deployment claimed by PropagationPolicy default/pp, scheduled once at
// t=1000 to `clusters`, with the annotation written for `placement` (so nothing has changed yet).
inline model::binding bound(const model::placement& placement, std::int32_t replicas,
                            std::vector<model::target_cluster> clusters)
{
    model::binding b;
    b.kind = std::string(model::kind_resource_binding);
    b.namespace_ = "default";
    b.name = "web-deployment";
    b.generation = 3;
    b.scheduler_observed_generation = 3;
    b.claim = model::policy_claim{false, "default", "pp", "0b1c"};
    b.resource = {"apps/v1", "Deployment", "default", "web", "", "1"};
    b.replicas = replicas;
    b.placement = placement;
    b.clusters = std::move(clusters);
    b.annotations[std::string(model::applied_placement_annotation)] = model::go_json(placement);
    b.last_scheduled_time = 1000;
    return b;
}

inline std::map<std::string, std::int32_t> split(const std::vector<model::target_cluster>& clusters)
{
    std::map<std::string, std::int32_t> out;
    for (const auto& c : clusters)
        out[c.name] = c.replicas;
    return out;
}

inline previous_result previous(std::vector<model::target_cluster> clusters, std::string observed = {})
{
    previous_result p;
    p.clusters = std::move(clusters);
    p.observed_affinity_name = std::move(observed);
    return p;
}

} // namespace kpw::scheduling::test
