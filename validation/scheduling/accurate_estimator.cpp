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

// k8s.io/component-helpers/node/topology GetZoneKey: the beta labels win when present (even empty).
std::string zone_key(const model::node& n)
{
    auto label = [&](const char* beta, const char* ga) {
        if (auto it = n.labels.find(beta); it != n.labels.end())
            return it->second;
        auto it = n.labels.find(ga);
        return it != n.labels.end() ? it->second : std::string();
    };
    std::string zone = label("failure-domain.beta.kubernetes.io/zone", "topology.kubernetes.io/zone");
    std::string region = label("failure-domain.beta.kubernetes.io/region", "topology.kubernetes.io/region");
    if (region.empty() && zone.empty())
        return {};
    return region + ":\x00:" + zone;
}

// The cache's nodeTree (pkg/util/lifted/scheduler/cache/node_tree.go addNode, list): nodes added in name
// order (the informer's initial list), grouped by zone in the order zones are first seen, listed one node
// per zone in turn. A repeated name is added once (addNode; the decoder reports it).
std::vector<std::size_t> snapshot_order(const std::vector<model::node>& nodes)
{
    std::vector<std::size_t> by_name(nodes.size());
    for (std::size_t i = 0; i < nodes.size(); ++i)
        by_name[i] = i;
    std::stable_sort(by_name.begin(), by_name.end(),
                     [&](std::size_t a, std::size_t b) { return nodes[a].name < nodes[b].name; });
    std::vector<std::string> zones;
    std::vector<std::vector<std::size_t>> tree;
    for (std::size_t k = 0; k < by_name.size(); ++k) {
        std::size_t i = by_name[k];
        if (k > 0 && nodes[by_name[k - 1]].name == nodes[i].name)
            continue;
        std::string zone = zone_key(nodes[i]);
        auto z = std::find(zones.begin(), zones.end(), zone);
        if (z == zones.end()) {
            zones.push_back(std::move(zone));
            tree.emplace_back();
            z = zones.end() - 1;
        }
        tree[static_cast<std::size_t>(z - zones.begin())].push_back(i);
    }
    std::vector<std::size_t> out;
    for (std::size_t depth = 0, added = 1; added != 0; ++depth) {
        added = 0;
        for (const auto& list : tree)
            if (depth < list.size()) {
                out.push_back(list[depth]);
                ++added;
            }
    }
    return out;
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
    out.snapshot_order = snapshot_order(state.nodes);
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

namespace {

// One component as SchedulingSimulator.scheduleComponent sees it: util.NewResource(request) with
// AllowedPodNumber 1 (a "pods" request is overwritten), the nodes its node claim admits in snapshot order.
struct set_part {
    const model::component* c = nullptr;
    std::int64_t milli_cpu = 0, memory = 0, ephemeral_storage = 0;
    std::vector<std::pair<std::string, std::int64_t>> scalars; // scalar resource names only
    std::vector<std::size_t> nodes; // indices into the working copy (snapshot order)
    std::size_t next = 0;           // monotonic packing: nodes before this one hold no replica any more
    std::string first_excluded;
};

std::int64_t clamp_sub_mul(std::int64_t have, std::int64_t per, std::int64_t count)
{
    return std::max<std::int64_t>(go::sub(have, go::mul(per, count)), 0); // SubResource(Clone().Multiply(n))
}

// node.Allocatable.SubResource(requiredPerReplica.Clone().Multiply(count)).
void take(prepared_node& n, const set_part& p, std::int64_t count)
{
    n.milli_cpu = clamp_sub_mul(n.milli_cpu, p.milli_cpu, count);
    n.memory = clamp_sub_mul(n.memory, p.memory, count);
    n.ephemeral_storage = clamp_sub_mul(n.ephemeral_storage, p.ephemeral_storage, count);
    n.pods = clamp_sub_mul(n.pods, 1, count);
    for (const auto& [name, v] : p.scalars)
        if (auto it = n.scalars.find(name); it != n.scalars.end())
            it->second = clamp_sub_mul(it->second, v, count);
}

// a * b, saturated at INT64_MAX (both >= 0).
std::int64_t sat_mul(std::int64_t a, std::int64_t b)
{
    if (a == 0 || b == 0)
        return 0;
    return a > std::numeric_limits<std::int64_t>::max() / b ? std::numeric_limits<std::int64_t>::max() : a * b;
}

std::int64_t sat_add(std::int64_t a, std::int64_t b)
{
    return a > std::numeric_limits<std::int64_t>::max() - b ? std::numeric_limits<std::int64_t>::max() : a + b;
}

// How often the set `placed` (part i entirely on node placed[i]) fits again, identically, on `nodes`.
std::int64_t repeats(const std::vector<prepared_node>& nodes, const std::vector<set_part>& parts,
                     const std::vector<std::size_t>& placed)
{
    struct demand {
        std::int64_t cpu = 0, memory = 0, storage = 0, pods = 0;
        std::map<std::string, std::int64_t, std::less<>> scalars;
    };
    std::map<std::size_t, demand> per_node;
    for (std::size_t i = 0; i < parts.size(); ++i) {
        const auto& p = parts[i];
        auto r = static_cast<std::int64_t>(p.c->replicas);
        auto& d = per_node[placed[i]];
        d.cpu = sat_add(d.cpu, sat_mul(p.milli_cpu, r));
        d.memory = sat_add(d.memory, sat_mul(p.memory, r));
        d.storage = sat_add(d.storage, sat_mul(p.ephemeral_storage, r));
        d.pods = sat_add(d.pods, r);
        for (const auto& [name, v] : p.scalars)
            d.scalars[name] = sat_add(d.scalars[name], sat_mul(v, r));
    }
    std::int64_t k = std::numeric_limits<std::int64_t>::max();
    auto bound = [&](std::int64_t have, std::int64_t want) {
        if (want > 0)
            k = std::min(k, have / want);
    };
    for (const auto& [index, d] : per_node) {
        const auto& n = nodes[index];
        bound(n.milli_cpu, d.cpu);
        bound(n.memory, d.memory);
        bound(n.ephemeral_storage, d.storage);
        bound(n.pods, d.pods);
        for (const auto& [name, want] : d.scalars) {
            auto it = n.scalars.find(name);
            bound(it == n.scalars.end() ? 0 : it->second, want);
        }
    }
    return k;
}

// The most node visits a packing with growing capacity (negative amounts) may take before it counts as a
// call that does not answer in time: Karmada's loop takes about a microsecond per visit, and
// karmada-scheduler's --scheduler-estimator-timeout is 3 s.
constexpr std::int64_t visit_budget = std::int64_t(1) << 25;

} // namespace

accurate_estimate estimate_accurate_sets(const prepared_member& member, std::span<const model::component> components)
{
    accurate_estimate out;
    out.nodes = member.nodes.size();
    if (member.nodes.empty())
        return out; // EstimateComponents: snapShot.NumNodes() == 0 answers 0
    std::vector<prepared_node> nodes;
    nodes.reserve(member.snapshot_order.size());
    for (std::size_t i : member.snapshot_order)
        nodes.push_back(member.nodes[i]);
    // Resources only shrink when every amount and replica count is >= 0 and no node has a negative
    // scalar: then a node that holds no replica of a component never will again, a component of 0
    // replicas changes nothing, and a set that repeats on the same nodes is counted in one step.
    bool monotonic = true;
    std::vector<set_part> parts;
    for (const auto& c : components) {
        set_part p;
        p.c = &c;
        for (const auto& [name, v] : c.request) {
            if (name == "cpu")
                p.milli_cpu = go::add(p.milli_cpu, v);
            else if (name == "memory")
                p.memory = go::add(p.memory, v);
            else if (name == "ephemeral-storage")
                p.ephemeral_storage = go::add(p.ephemeral_storage, v);
            else if (name != "pods" && model::is_scalar_resource_name(name))
                p.scalars.emplace_back(name, v);
            else
                continue;
            monotonic = monotonic && v >= 0;
        }
        monotonic = monotonic && c.replicas >= 0;
        for (std::size_t i = 0; i < nodes.size(); ++i) {
            const auto& n = *nodes[i].node;
            std::string why = c.claim && !node_affinity_matches(*c.claim, n)
                                  ? "node affinity/selector"
                                  : untolerated(c.claim ? std::span<const model::toleration>(c.claim->tolerations)
                                                        : std::span<const model::toleration>(),
                                                n);
            if (why.empty())
                p.nodes.push_back(i);
            else if (p.first_excluded.empty())
                p.first_excluded = n.name + ": " + why;
        }
        if (monotonic && c.replicas == 0)
            continue; // places nothing and always succeeds
        parts.push_back(std::move(p));
    }
    for (const auto& n : nodes)
        for (const auto& [name, v] : n.scalars)
            monotonic = monotonic && (v >= 0 || !model::is_scalar_resource_name(name));
    constexpr std::int32_t upper = std::numeric_limits<std::int32_t>::max();
    std::int32_t sets = 0;
    std::int64_t visits = 0;
    const set_part* failed = nullptr;
    std::vector<std::size_t> placed(parts.size());
    while (sets < upper && failed == nullptr && !(monotonic && parts.empty())) {
        bool single = true; // every part of this set went to one node
        for (std::size_t i = 0; i < parts.size(); ++i) {
            auto& p = parts[i];
            std::int32_t remaining = p.c->replicas;
            std::size_t used = 0;
            ++visits;
            for (std::size_t k = monotonic ? p.next : 0; k < p.nodes.size(); ++k) {
                ++visits;
                auto& n = nodes[p.nodes[k]];
                std::string bound;
                std::int64_t fit = max_divided(n, p.c->request, bound);
                if (fit == 0) {
                    if (monotonic && k == p.next)
                        ++p.next;
                    continue;
                }
                if (std::int64_t(remaining) < fit)
                    fit = remaining;
                take(n, p, fit);
                remaining = static_cast<std::int32_t>(static_cast<std::uint32_t>(remaining) -
                                                      static_cast<std::uint32_t>(go_int32(fit)));
                placed[i] = p.nodes[k];
                ++used;
                if (remaining == 0)
                    break;
            }
            single = single && used == 1;
            if (remaining != 0) {
                failed = &p;
                break;
            }
        }
        if (failed != nullptr)
            break;
        ++sets;
        if (monotonic && single && !parts.empty()) {
            std::int64_t more = std::min<std::int64_t>(repeats(nodes, parts, placed), upper - sets);
            if (more > 0) {
                for (std::size_t i = 0; i < parts.size(); ++i)
                    take(nodes[placed[i]], parts[i], go::mul(more, parts[i].c->replicas));
                sets = static_cast<std::int32_t>(sets + more);
            }
        }
        if (!monotonic && visits > visit_budget) {
            out.failure = "its first-fit packing does not end within karmada-scheduler's estimator timeout "
                          "(a component's negative request or replica count gives capacity back)";
            return out;
        }
    }
    out.replicas = sets;
    if (failed == nullptr) {
        out.failure = "its first-fit packing only stops at MaxInt32 complete sets, far beyond karmada-scheduler's "
                      "estimator timeout" + std::string(parts.empty() ? " (every component has 0 replicas)" : "");
        return out;
    }
    out.matching = failed->nodes.size();
    out.first_excluded = failed->first_excluded;
    std::map<std::string, std::size_t> bounds;
    for (std::size_t k : failed->nodes) {
        std::string bound;
        max_divided(nodes[k], failed->c->request, bound);
        ++bounds[bound];
    }
    std::string resource = "pods";
    std::size_t most = 0;
    for (const auto& [name, count] : bounds)
        if (count > most) {
            most = count;
            resource = name;
        }
    out.bound = resource;
    out.component = failed->c->name;
    return out;
}

std::string describe(const accurate_estimate& e)
{
    if (e.nodes == 0)
        return "karmada-scheduler-estimator: the member has no nodes";
    std::string s = "karmada-scheduler-estimator: ";
    const std::string of = e.component.empty() ? std::string() : " of component " + e.component;
    if (e.matching == 0)
        s += "no node matches" + (e.component.empty() ? std::string() : " component " + e.component);
    else
        s += (e.bound == "pods" ? std::string("pod count") : e.bound) + of + " (" + std::to_string(e.matching) +
             " of " + std::to_string(e.nodes) + " node(s) match";
    if (!e.first_excluded.empty())
        s += std::string(e.matching == 0 ? " (" : "; ") + "excluded " + e.first_excluded;
    return s + ")";
}

} // namespace kpw::scheduling
