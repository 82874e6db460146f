// SPDX-License-Identifier: Apache-2.0
// calAvailableReplicas: general estimator, then karmada-scheduler-estimator, the minimum per cluster.
#include "scheduling/available.hpp"

namespace kpw::scheduling {

namespace {

// karmada estimatorclient.UnauthenticReplica.
constexpr std::int32_t unauthentic_replica = -1;

void append_requirements(std::string& key, const std::vector<model::selector_requirement>& list)
{
    for (const auto& r : list) {
        key.append(r.key).append(1, '\x1f').append(r.op).append(1, '\x1f');
        for (const auto& v : r.values)
            key.append(v).append(1, '\x1e');
        key.append(1, '\x1d');
    }
    key.append(1, '|');
}

} // namespace

estimator_use estimator_use_of(const snapshot& snap, std::span<const group_filter::pass> feasible)
{
    estimator_use use;
    if (!snap.has_estimators())
        return use;
    for (const auto& p : feasible)
        if (snap.member(p.index) == nullptr) {
            use.missing = snap.clusters()[p.index].name;
            return use;
        }
    use.accurate = true;
    return use;
}

available_estimate estimate_available(const snapshot& snap, std::size_t index, const prepared_request& request,
                                      bool accurate)
{
    available_estimate out;
    out.general = general_estimate(snap.prepared(index), request);
    // calAvailableReplicas skips any estimator's UnauthenticReplica, the general estimator's too (a wrapped
    // int32, or v1.16/v1.17's models summing to -1): the cluster keeps MaxInt32 then.
    out.replicas = out.general.replicas == unauthentic_replica ? unlimited_replicas : out.general.replicas;
    const prepared_member* member = accurate ? snap.member(index) : nullptr;
    if (member == nullptr)
        return out;
    // The client sends ReplicaRequirements only when the binding has them (nil: no request, no claim).
    out.accurate = estimate_accurate(*member, request.by_name, request.claim ? &*request.claim : nullptr);
    if (out.accurate->replicas != unauthentic_replica && out.accurate->replicas < out.replicas) {
        out.replicas = out.accurate->replicas;
        out.accurate_bound = true;
    }
    return out;
}

std::string available_bound_by(const available_estimate& e, const prepared_request& request, const resource_table& table)
{
    if (e.accurate_bound)
        return describe(*e.accurate);
    std::string general = bound_by(e.general, request, table);
    if (!e.accurate)
        return general;
    return "general estimator: " + general + " (karmada-scheduler-estimator: " + std::to_string(e.accurate->replicas) + ")";
}

void append_claim_key(std::string& key, const model::node_claim* claim)
{
    if (claim == nullptr) {
        key.append("#noclaim");
        return;
    }
    key.append("#claim:");
    for (const auto& [k, v] : claim->node_selector)
        key.append(k).append(1, '\x1f').append(v).append(1, '\x1e');
    key.append(1, '|');
    if (claim->hard_node_affinity) {
        key.append("affinity:");
        for (const auto& t : *claim->hard_node_affinity) {
            append_requirements(key, t.match_expressions);
            append_requirements(key, t.match_fields);
            key.append(1, ';');
        }
    }
    key.append("|tolerations:");
    for (const auto& t : claim->tolerations)
        key.append(t.key).append(1, '\x1f').append(t.op).append(1, '\x1f').append(t.value).append(1, '\x1f').append(t.effect).append(1, '\x1e');
}

std::string estimate_key(const prepared_request& request, bool accurate)
{
    std::string key;
    if (accurate) {
        for (const auto& [name, v] : request.by_name)
            key.append(name).append(1, '=').append(std::to_string(v)).append(1, ',');
        append_claim_key(key, request.claim ? &*request.claim : nullptr);
        key.append("\na");
    } else {
        key.append("-");
    }
    key.append(request.legacy_models ? "L" : "-");
    key.append(request.models_enabled ? "m" : "-");
    key.append(request.has_requirements ? "r" : "-");
    key += request.unknown_resource ? "u" : "-";
    for (const auto& a : request.amounts)
        key.append(std::to_string(a.id)).append(":").append(std::to_string(a.value)).append(",");
    return key;
}

} // namespace kpw::scheduling
