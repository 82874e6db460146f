// SPDX-License-Identifier: Apache-2.0
// The sidecar-request-not-counted warning.
#include "scheduling/sidecar_requests.hpp"

#include "model/pod_requests.hpp"
#include "scheduling/strategy.hpp"

namespace kpw::scheduling {

namespace {

std::string names_of(const std::vector<std::string>& sidecars)
{
    std::string out;
    for (const auto& name : sidecars)
        out += (out.empty() ? "" : ", ") + (name.empty() ? std::string("<unnamed>") : name);
    return out;
}

} // namespace

std::optional<std::string> sidecar_request_not_counted(const model::placement& placement, const model::workload& w)
{
    if (!w.sidecars)
        return std::nullopt;
    const strategy s = strategy_of(placement);
    if (s != strategy::dynamic_weight && s != strategy::aggregated)
        return std::nullopt; // duplicated and static weight place replicas without asking what fits
    const auto& gap = *w.sidecars;
    return std::string(gap.sidecars.size() == 1 ? "the init container " : "the init containers ") +
           names_of(gap.sidecars) + (gap.sidecars.size() == 1 ? " is a sidecar" : " are sidecars") +
           " (restartPolicy: Always): Karmada's estimators count each replica as " + model::describe_request(gap.karmada) +
           " (the largest init container, karmada pkg/util/resource.go AddPodRequest), the members' kube-scheduler as " +
           model::describe_request(gap.kube_scheduler) +
           " (each sidecar added to the containers): a cluster may be given more replicas than its nodes fit";
}

} // namespace kpw::scheduling
