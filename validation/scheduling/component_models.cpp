// SPDX-License-Identifier: Apache-2.0
// Multi-component sets on a cluster's resource-model nodes (karmada's component scheduling simulator).
#include <algorithm>
#include <limits>

#include "base/go_int.hpp"
#include "scheduling/component_sets.hpp"

namespace kpw::scheduling {

namespace {

// Identical nodes in a row: model nodes start as one run per grade, and first-fit placement only ever
// splits a run into a used prefix, one partly used node and an untouched rest. Node order is kept, so
// the result equals karmada's node-by-node loop. Capacities live in one flat buffer (`width` each:
// the job's modelled resources, then pods).
struct run {
    std::int64_t count = 0;
    std::size_t at = 0; // offset of the capacities in the buffer
};

struct nodes {
    std::vector<run> runs;
    std::vector<std::int64_t> capacity;
    std::size_t width = 0;

    std::int64_t* of(const run& r) { return capacity.data() + r.at; }

    // Splits runs[i] so that its first `n` nodes (0 < n < count) are a run of their own.
    void split(std::size_t i, std::int64_t n)
    {
        std::size_t at = capacity.size();
        capacity.insert(capacity.end(), capacity.begin() + static_cast<std::ptrdiff_t>(runs[i].at),
                        capacity.begin() + static_cast<std::ptrdiff_t>(runs[i].at + width));
        run rest{runs[i].count - n, at};
        runs[i].count = n;
        runs.insert(runs.begin() + static_cast<std::ptrdiff_t>(i) + 1, rest);
    }
};

// util.Resource.MaxDivided: min over positive requests of capacity / request, then the pods left.
std::int64_t fit(const std::int64_t* cap, const std::int64_t* demand, std::size_t width)
{
    std::int64_t f = std::numeric_limits<std::int64_t>::max();
    for (std::size_t j = 0; j + 1 < width; ++j)
        if (demand[j] > 0)
            f = std::min(f, cap[j] / demand[j]);
    return std::min(f, cap[width - 1]);
}

// util.Resource.SubResource(required × n), in Go int64 (Multiply and the subtraction wrap): every
// resource floored at 0.
void take(std::int64_t* cap, const std::int64_t* demand, std::size_t width, std::int64_t n)
{
    for (std::size_t j = 0; j < width; ++j)
        cap[j] = std::max<std::int64_t>(go::sub(cap[j], go::mul(demand[j], n)), 0);
}

// scheduleComponent: the replicas first-fit over the nodes in order; true when all are placed.
bool place(nodes& n, const std::int64_t* demand, std::int64_t remaining)
{
    if (remaining == 0)
        return true;
    for (std::size_t i = 0; i < n.runs.size(); ++i) {
        std::int64_t f = fit(n.of(n.runs[i]), demand, n.width);
        if (f == 0)
            continue;
        if (remaining < f) { // one node takes the rest (a negative count adds capacity)
            if (n.runs[i].count > 1)
                n.split(i, 1);
            take(n.of(n.runs[i]), demand, n.width, remaining);
            return true;
        }
        std::int64_t full = std::min(n.runs[i].count, remaining / f);
        if (full < n.runs[i].count)
            n.split(i, full);
        take(n.of(n.runs[i]), demand, n.width, f);
        remaining -= f * full;
        if (remaining == 0)
            return true;
    }
    return remaining == 0;
}

} // namespace

std::int32_t model_component_sets(const set_cluster& c, const set_job& job, std::int32_t upper)
{
    if (upper <= 0)
        return 0;
    thread_local nodes n; // reused: no allocation per estimate once warm
    n.width = job.model_ids.size() + 1;
    n.runs.clear();
    n.capacity.clear();
    for (const auto& g : c.grades) {
        n.runs.push_back({g.count, n.capacity.size()});
        for (int id : job.model_ids)
            n.capacity.push_back(id >= 0 && static_cast<std::size_t>(id) < g.capacity.size()
                                     ? g.capacity[static_cast<std::size_t>(id)]
                                     : 0);
        n.capacity.push_back(model_node_pods);
    }
    std::int32_t sets = 0;
    for (; sets < upper; ++sets)
        for (std::size_t p = 0; p < job.parts.size(); ++p)
            if (!place(n, job.model_demand.data() + p * n.width, job.parts[p].replicas))
                return sets;
    return sets;
}

} // namespace kpw::scheduling
