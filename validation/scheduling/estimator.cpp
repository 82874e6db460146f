// SPDX-License-Identifier: Apache-2.0
// General estimator: pods left, the resource-model path and the resource-summary path.
#include "scheduling/estimator.hpp"

#include <algorithm>
#include <limits>

#include "base/go_int.hpp"

namespace kpw::scheduling {

namespace {

using model::quantity;


// karmada util.Resource units: cpu in millicores, everything else whole units, rounded up.
std::int64_t units(int id, const quantity& q)
{
    return id == resource_table::cpu ? q.milli_ceil() : q.value_ceil();
}

std::int64_t amount_of(const std::vector<resource_amount>& list, int id, std::int64_t absent)
{
    for (const auto& r : list)
        if (r.id == id)
            return r.value;
    return absent;
}

// Models build when both lists are non-empty and no count is negative (else: the summary path).
void prepare_models(const model::cluster& c, const model::resource_summary& s, resource_table& table,
                    prepared_cluster& out)
{
    if (c.resource_models.empty() || s.allocatable_modelings.empty())
        return;
    for (const auto& m : s.allocatable_modelings) {
        if (m.count < 0) {
            out.nodes.clear();
            return;
        }
        const model::resource_model* grade = model::model_of_grade(c, m.grade);
        if (m.count == 0 || grade == nullptr)
            continue;
        prepared_cluster::node_group g;
        // Bounded so that an absurd node count cannot overflow; the simulator places at most MaxInt32 anyway.
        g.count = std::min<std::int64_t>(m.count, std::int64_t(1) << 32);
        for (const auto& r : grade->ranges) {
            int id = table.intern(r.name);
            g.capacity.push_back({id, units(id, r.min)});
        }
        out.nodes.push_back(std::move(g));
    }
    out.use_models = true;
}

// karmada: getMaximumReplicasBasedOnResourceModels — each node holds min over requested resources of
// floor(capacity / request), at most 110; a resource the model does not define has capacity 0.
std::int64_t model_estimate(const prepared_cluster& c, const prepared_request& r)
{
    std::int64_t total = 0;
    for (const auto& g : c.nodes) {
        std::int64_t fit = model_node_pods;
        for (const auto& a : r.amounts) {
            std::int64_t cap = a.id == resource_table::pods ? model_node_pods : amount_of(g.capacity, a.id, 0);
            fit = std::min(fit, cap / a.value);
        }
        total = go::add(total, go::mul(g.count, std::max<std::int64_t>(fit, 0))); // Go int64: a count past range wraps
    }
    return total;
}

// karmada v1.16.0/v1.17.1 general.go getMaximumReplicasBasedOnResourceModels (:427-463 of v1.17.1, the same
// in v1.16.0) and getNodeAvailableReplicas (:356-383): the first model index every requested resource's
// minimum reaches (Quantity.Cmp; none: 0 replicas), then for each model from there with a non-zero count,
// count × min over requests of floor(minimum / request) (cpu in millicores, else Value(), both rounded up;
// 0 counts as 1, no request as MaxInt64), summed in wrapping int64. nullopt: a requested resource no model
// defines (the error that sends Karmada to the summary). Karmada walks the request in Go's random map order
// and returns at the first resource that decides; here, in name order. An index past a short list (a model
// without that resource, fewer allocatableModelings than models) makes karmada-scheduler panic: the first
// such index goes to `panic` (when given), and the walk goes on reading it as a count or minimum of 0.
std::optional<std::int64_t> legacy_model_estimate(const prepared_cluster& c, const prepared_request& r,
                                                  index_panic* panic = nullptr)
{
    auto past = [&](std::size_t index, std::size_t length) {
        if (index < length)
            return false;
        if (panic != nullptr && panic->length < 0)
            *panic = {static_cast<std::int64_t>(index), static_cast<std::int64_t>(length)};
        return true;
    };
    const auto& l = c.legacy;
    auto minimums = [&](int id) -> const std::vector<quantity>* {
        for (const auto& [rid, list] : l.minimums)
            if (rid == id)
                return &list;
        return nullptr;
    };
    std::size_t first = 0;
    for (const auto& a : r.amounts) {
        const auto* list = minimums(a.id);
        if (list == nullptr)
            return std::nullopt;
        const quantity want = a.id == resource_table::cpu ? quantity::from_millis(a.value) : quantity::from_int(a.value);
        auto fits = std::find_if(list->begin(), list->end(), [&](const quantity& m) { return m >= want; });
        if (fits == list->end())
            return 0;
        first = std::max(first, static_cast<std::size_t>(fits - list->begin()));
    }
    std::int64_t total = 0;
    for (std::size_t i = first; i < l.models; ++i) {
        std::int64_t count = past(i, l.counts.size()) ? 0 : l.counts[i];
        if (count == 0)
            continue;
        std::int64_t per = std::numeric_limits<std::int64_t>::max();
        for (const auto& a : r.amounts) {
            const auto* list = minimums(a.id);
            std::int64_t have = list != nullptr && !past(i, list->size()) ? units(a.id, (*list)[i]) : 0;
            per = std::min(per, have / a.value);
        }
        if (per == 0)
            per = 1;
        total = go::add(total, go::mul(count, per));
    }
    return total;
}

// karmada: the per-resource loop over allocatable − allocated − allocating. `bound` gets the resource
// that gives the minimum (pods when none is smaller than the pods left).
std::int64_t summary_estimate(const prepared_cluster& c, const prepared_request& r, int& bound)
{
    std::int64_t fit = c.pods_left;
    bound = resource_table::pods;
    for (const auto& a : r.amounts) {
        std::int64_t free = amount_of(c.free, a.id, -1);
        if (free < 0) {
            bound = a.id;
            return 0;
        }
        if (free / a.value < fit) {
            fit = free / a.value;
            bound = a.id;
        }
    }
    return fit;
}

// maxAvailableReplicas returns int32(maximumReplicas): Go's conversion keeps the low 32 bits, so pods or
// replicas past MaxInt32 (a hand-written summary) wrap, possibly to -1, which calAvailableReplicas then
// skips as UnauthenticReplica (available.cpp).
estimate converted(std::int64_t v, estimate_source source, int bound = -1)
{
    return {go::int32(v), source, bound};
}

} // namespace

int resource_table::intern(std::string_view name)
{
    int id = find(name);
    if (id >= 0)
        return id;
    names_.emplace_back(name);
    return static_cast<int>(names_.size()) - 1;
}

int resource_table::find(std::string_view name) const
{
    for (std::size_t i = 0; i < names_.size(); ++i)
        if (names_[i] == name)
            return static_cast<int>(i);
    return -1;
}

std::int64_t allowed_pod_number(const model::resource_summary& s)
{
    auto pods = [](const model::resource_list& list) { return model::amount_in(list, "pods").value_ceil(); };
    return go::sub(go::sub(pods(s.allocatable), pods(s.allocated)), pods(s.allocating));
}

prepared_cluster prepare_cluster(const model::cluster& c, resource_table& table)
{
    prepared_cluster out;
    if (!c.resource_summary)
        return out;
    const auto& s = *c.resource_summary;
    out.has_summary = true;
    out.pods_left = allowed_pod_number(s);
    for (const auto& [name, total] : s.allocatable) {
        int id = table.intern(name);
        quantity free = total - model::amount_in(s.allocated, name) - model::amount_in(s.allocating, name);
        out.free.push_back({id, free.value_ceil() <= 0 ? -1 : units(id, free)});
    }
    prepare_models(c, s, table, out);
    if (!s.allocatable_modelings.empty()) {
        auto& l = out.legacy;
        l.present = true;
        l.models = c.resource_models.size();
        for (const auto& m : s.allocatable_modelings)
            l.counts.push_back(m.count);
        for (const auto& m : c.resource_models)
            for (const auto& r : m.ranges) {
                int id = table.intern(r.name);
                auto it = std::find_if(l.minimums.begin(), l.minimums.end(), [&](const auto& e) { return e.first == id; });
                if (it == l.minimums.end())
                    it = l.minimums.insert(l.minimums.end(), {id, {}});
                it->second.push_back(r.min);
            }
    }
    return out;
}

prepared_request prepare_request(const model::workload& w, const resource_table& table)
{
    prepared_request out;
    out.has_requirements = w.has_requirements;
    out.by_name = w.request;
    out.claim = w.claim;
    for (const auto& [name, value] : w.request) {
        if (value <= 0)
            continue;
        int id = table.find(name);
        if (id < 0) {
            if (!out.unknown_resource)
                out.unknown_name = name;
            out.unknown_resource = true;
        } else
            out.amounts.push_back({id, value});
    }
    return out;
}

namespace {

// general_estimate; `panic`, when given, gets the first index past a short list the legacy models' walk
// reaches (general_estimate_panic), so that one path decides where Karmada's estimate goes.
estimate estimate_of(const prepared_cluster& c, const prepared_request& r, index_panic* panic)
{
    if (!c.has_summary)
        return {0, estimate_source::no_summary};
    if (c.pods_left <= 0)
        return {0, estimate_source::no_pods_left};
    if (!r.has_requirements)
        return converted(c.pods_left, estimate_source::pods_only);
    const bool legacy = r.models_enabled && r.legacy_models && c.legacy.present;
    const bool graded = r.models_enabled && c.use_models;
    if (legacy && r.unknown_resource)
        return {0, estimate_source::summary, -1}; // no model defines it, nor does the summary
    if (legacy) {
        // maxAvailableReplicas of v1.16.0/v1.17.1 (general.go:66-105 of v1.17.1): the models' answer when it is
        // below the pods left, converted to int32 as it is (negative or wrapped), else the pods left.
        if (auto models = legacy_model_estimate(c, r, panic)) {
            if (*models < c.pods_left)
                return converted(*models, estimate_source::resource_models);
            return converted(c.pods_left, estimate_source::resource_models, resource_table::pods);
        }
        int bound = -1;
        std::int64_t fit = summary_estimate(c, r, bound);
        return converted(fit, estimate_source::summary, bound);
    }
    if (r.unknown_resource)
        return {0, graded ? estimate_source::resource_models : estimate_source::summary, -1};
    if (graded) {
        // SimulateScheduling(..., math.MaxInt32) places at most MaxInt32 replicas.
        std::int64_t models = std::min<std::int64_t>(model_estimate(c, r), unlimited_replicas);
        return models < c.pods_left ? converted(models, estimate_source::resource_models)
                                    : converted(c.pods_left, estimate_source::resource_models, resource_table::pods);
    }
    int bound = -1;
    std::int64_t fit = summary_estimate(c, r, bound);
    return converted(fit, estimate_source::summary, bound);
}

} // namespace

estimate general_estimate(const prepared_cluster& c, const prepared_request& r)
{
    return estimate_of(c, r, nullptr);
}

std::optional<index_panic> general_estimate_panic(const prepared_cluster& c, const prepared_request& r)
{
    index_panic panic;
    (void)estimate_of(c, r, &panic);
    return panic.length < 0 ? std::nullopt : std::optional<index_panic>(panic);
}

std::string index_panic::str() const
{
    return "runtime error: index out of range [" + std::to_string(index) + "] with length " + std::to_string(length);
}

std::string bound_by(const estimate& e, const prepared_request& r, const resource_table& table)
{
    switch (e.source) {
    case estimate_source::no_summary: return "no resourceSummary";
    case estimate_source::no_pods_left:
    case estimate_source::pods_only: return "pods";
    case estimate_source::resource_models:
    case estimate_source::summary: break;
    }
    if (r.unknown_resource)
        return r.unknown_name + " (offered by no cluster)";
    if (e.bound >= 0)
        return table.name(e.bound);
    return "resource models";
}

estimate general_estimate(const model::cluster& cluster, const model::workload& workload)
{
    // Interning the request first keeps one code path: a resource the cluster lacks is then "absent".
    resource_table table;
    for (const auto& [name, value] : workload.request)
        table.intern(name);
    auto prepared = prepare_cluster(cluster, table);
    return general_estimate(prepared, prepare_request(workload, table));
}

} // namespace kpw::scheduling
