// SPDX-License-Identifier: Apache-2.0
// Multi-component sets on a cluster's resource-model nodes (karmada's component scheduling simulator).
#include <algorithm>
#include <limits>

#include "scheduling/component_sets.hpp"

namespace kpw::scheduling {

namespace {

// Identical nodes in a row: model nodes start as one run per grade, and first-fit placement only ever
// splits a run into a used prefix, one partly used node and an untouched rest. Node order is kept, so
// the result equals karmada's node-by-node loop.
struct run {
    std::int64_t count = 0;
    std::vector<std::int64_t> capacity; // the job's modelled resources, then pods
};

struct demand {
    std::int64_t replicas = 0;
    std::vector<std::int64_t> per_replica; // as run::capacity; pods = 1 (AllowedPodNumber = 1)
};

// util.Resource.MaxDivided: min over positive requests of capacity / request, then the pods left.
std::int64_t fit(const run& r, const demand& d)
{
    std::int64_t f = std::numeric_limits<std::int64_t>::max();
    std::size_t pods = r.capacity.size() - 1;
    for (std::size_t j = 0; j < pods; ++j)
        if (d.per_replica[j] > 0)
            f = std::min(f, r.capacity[j] / d.per_replica[j]);
    return std::min(f, r.capacity[pods]);
}

// util.Resource.SubResource(required × n): every resource floored at 0.
void take(run& r, const demand& d, std::int64_t n)
{
    for (std::size_t j = 0; j < r.capacity.size(); ++j)
        r.capacity[j] = std::max<std::int64_t>(r.capacity[j] - d.per_replica[j] * n, 0);
}

// Splits runs[i] so that its first `n` nodes (0 < n < count) are a run of their own.
void split(std::vector<run>& runs, std::size_t i, std::int64_t n)
{
    run rest = runs[i];
    rest.count -= n;
    runs[i].count = n;
    runs.insert(runs.begin() + static_cast<std::ptrdiff_t>(i) + 1, std::move(rest));
}

// scheduleComponent: the replicas first-fit over the nodes in order; true when all are placed.
bool place(std::vector<run>& runs, const demand& d)
{
    std::int64_t remaining = d.replicas;
    if (remaining == 0)
        return true;
    for (std::size_t i = 0; i < runs.size(); ++i) {
        std::int64_t f = fit(runs[i], d);
        if (f == 0)
            continue;
        if (remaining < 0 || remaining < f) { // one node takes the rest (a negative count adds capacity)
            if (runs[i].count > 1)
                split(runs, i, 1);
            take(runs[i], d, remaining);
            return true;
        }
        std::int64_t full = std::min(runs[i].count, remaining / f);
        if (full < runs[i].count)
            split(runs, i, full);
        take(runs[i], d, f);
        remaining -= f * full;
        if (remaining == 0)
            return true;
    }
    return remaining == 0;
}

} // namespace

std::int32_t model_component_sets(const set_cluster& c, const set_job& job, std::int32_t upper)
{
    std::vector<int> ids; // the resources any component requests on the model path
    for (const auto& p : job.parts)
        for (const auto& r : p.per_replica)
            if (std::find(ids.begin(), ids.end(), r.id) == ids.end())
                ids.push_back(r.id);
    std::vector<run> runs;
    for (const auto& g : c.grades) {
        run r{g.count, std::vector<std::int64_t>(ids.size() + 1, 0)};
        for (std::size_t j = 0; j < ids.size(); ++j)
            if (ids[j] >= 0 && static_cast<std::size_t>(ids[j]) < g.capacity.size())
                r.capacity[j] = g.capacity[static_cast<std::size_t>(ids[j])];
        r.capacity[ids.size()] = model_node_pods;
        runs.push_back(std::move(r));
    }
    std::vector<demand> demands;
    for (const auto& p : job.parts) {
        demand d{p.replicas, std::vector<std::int64_t>(ids.size() + 1, 0)};
        for (const auto& r : p.per_replica)
            d.per_replica[static_cast<std::size_t>(std::find(ids.begin(), ids.end(), r.id) - ids.begin())] += r.value;
        d.per_replica[ids.size()] = 1;
        demands.push_back(std::move(d));
    }
    std::int32_t sets = 0;
    for (; sets < upper; ++sets)
        for (const auto& d : demands)
            if (!place(runs, d))
                return sets;
    return sets;
}

} // namespace kpw::scheduling
