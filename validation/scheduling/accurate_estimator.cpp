// SPDX-License-Identifier: Apache-2.0
// karmada-scheduler-estimator's MaxAvailableReplicas over a member's nodes and pods.
#include "scheduling/accurate_estimator.hpp"

#include <algorithm>
#include <limits>
#include <unordered_map>

#include "base/go_int.hpp"
#include "model/components.hpp"
#include "scheduling/node_affinity.hpp"

namespace kpw::scheduling {

namespace {

std::int64_t clamp_sub(std::int64_t a, std::int64_t b)
{
    return std::max<std::int64_t>(go::sub(a, b), 0); // util.Resource.SubResource: MaxInt64(r-rr, 0)
}

// Go's int32(x) of an int64: the low 32 bits, two's complement.
std::int32_t go_int32(std::int64_t v)
{
    return static_cast<std::int32_t>(static_cast<std::uint32_t>(static_cast<std::uint64_t>(v)));
}

std::int32_t add_int32(std::int32_t a, std::int32_t b)
{
    return static_cast<std::int32_t>(static_cast<std::uint32_t>(a) + static_cast<std::uint32_t>(b));
}

// util.Resource.MaxDivided: min over requested resources (value > 0) of free / request, then the pod
// count. Names other than cpu, memory, ephemeral-storage and scalar resources are ignored ("pods" too).
std::int64_t max_divided(const prepared_node& n, const model::replica_request& request, std::string& bound)
{
    std::int64_t res = std::numeric_limits<std::int64_t>::max();
    bound = "pods";
    auto take = [&](std::int64_t free, std::int64_t want, const std::string& name) {
        if (free / want < res) {
            res = free / want;
            bound = name;
        }
    };
    for (const auto& [name, value] : request) {
        if (value <= 0)
            continue;
        if (name == "cpu")
            take(n.milli_cpu, value, name);
        else if (name == "memory")
            take(n.memory, value, name);
        else if (name == "ephemeral-storage")
            take(n.ephemeral_storage, value, name);
        else if (model::is_scalar_resource_name(name)) {
            auto it = n.scalars.find(name);
            take(it == n.scalars.end() ? 0 : it->second, value, name);
        }
    }
    if (n.pods < res) {
        res = n.pods;
        bound = "pods";
    }
    return res;
}

} // namespace

prepared_member prepare_member(const model::member_state& state)
{
    prepared_member out;
    std::unordered_map<std::string_view, std::size_t> by_name;
    for (const auto& node : state.nodes) {
        prepared_node n;
        n.node = &node;
        for (const auto& [name, v] : node.allocatable) {
            if (name == "cpu")
                n.milli_cpu = go::add(n.milli_cpu, v);
            else if (name == "memory")
                n.memory = go::add(n.memory, v);
            else if (name == "ephemeral-storage")
                n.ephemeral_storage = go::add(n.ephemeral_storage, v);
            else if (name == "pods")
                n.pods = go::add(n.pods, v);
            else
                n.scalars[name] = go::add(n.scalars[name], v);
        }
        by_name.emplace(node.name, out.nodes.size()); // a repeated name: the first node (reported by the decoder)
        out.nodes.push_back(std::move(n));
    }
    // NodeInfo.Requested and len(NodeInfo.Pods), per node.
    std::vector<std::int64_t> cpu(out.nodes.size()), memory(out.nodes.size()), storage(out.nodes.size()),
        count(out.nodes.size());
    std::vector<std::map<std::string, std::int64_t, std::less<>>> scalars(out.nodes.size());
    for (const auto& pod : state.pods) {
        if (pod.node_name.empty() || pod.uid.empty() || pod.phase == "Succeeded" || pod.phase == "Failed")
            continue;
        auto it = by_name.find(pod.node_name);
        if (it == by_name.end())
            continue; // a NodeInfo without a Node is not in the snapshot
        std::size_t i = it->second;
        ++count[i];
        for (const auto& [name, v] : pod.requests) {
            if (name == "cpu")
                cpu[i] = go::add(cpu[i], v);
            else if (name == "memory")
                memory[i] = go::add(memory[i], v);
            else if (name == "ephemeral-storage")
                storage[i] = go::add(storage[i], v);
            else
                scalars[i][name] = go::add(scalars[i][name], v);
        }
    }
    for (std::size_t i = 0; i < out.nodes.size(); ++i) {
        auto& n = out.nodes[i];
        n.milli_cpu = clamp_sub(n.milli_cpu, cpu[i]);
        n.memory = clamp_sub(n.memory, memory[i]);
        n.ephemeral_storage = clamp_sub(n.ephemeral_storage, storage[i]);
        // SubResource only touches scalars the node lists; a requested one it lacks stays absent.
        for (const auto& [name, v] : scalars[i])
            if (auto it = n.scalars.find(name); it != n.scalars.end())
                it->second = clamp_sub(it->second, v);
        n.pods = clamp_sub(n.pods, count[i]); // getNodeAvailableResource: AllowedPodNumber - len(Pods)
    }
    return out;
}

accurate_estimate estimate_accurate(const prepared_member& member, const model::replica_request& request,
                                    const model::node_claim* claim)
{
    accurate_estimate out;
    out.nodes = member.nodes.size();
    std::int32_t sum = 0;
    std::map<std::string, std::size_t> bounds;
    for (const auto& n : member.nodes) {
        if (claim != nullptr) {
            std::string why;
            if (!node_affinity_matches(*claim, *n.node))
                why = "node affinity/selector";
            else
                why = untolerated(claim->tolerations, *n.node);
            if (!why.empty()) {
                if (out.first_excluded.empty())
                    out.first_excluded = n.node->name + ": " + why;
                continue;
            }
        } else if (auto why = untolerated({}, *n.node); !why.empty()) {
            if (out.first_excluded.empty())
                out.first_excluded = n.node->name + ": " + why;
            continue;
        }
        ++out.matching;
        std::string bound;
        sum = add_int32(sum, go_int32(max_divided(n, request, bound)));
        ++bounds[bound];
    }
    out.replicas = sum;
    std::size_t most = 0;
    for (const auto& [name, count] : bounds)
        if (count > most) {
            most = count;
            out.bound = name;
        }
    return out;
}

std::string describe(const accurate_estimate& e)
{
    if (e.nodes == 0)
        return "karmada-scheduler-estimator: the member has no nodes";
    std::string s = "karmada-scheduler-estimator: ";
    if (e.matching == 0)
        s += "no node matches";
    else
        s += (e.bound == "pods" ? std::string("pod count") : e.bound) + " (" + std::to_string(e.matching) + " of " +
             std::to_string(e.nodes) + " node(s) match";
    if (!e.first_excluded.empty())
        s += std::string(e.matching == 0 ? " (" : "; ") + "excluded " + e.first_excluded;
    return s + ")";
}

} // namespace kpw::scheduling
