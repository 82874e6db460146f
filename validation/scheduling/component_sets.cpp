// SPDX-License-Identifier: Apache-2.0
// Multi-component scheduling: MaxAvailableComponentSets of the general estimator and its per-run cache
// (which jobs it applies to and what it writes: multi_template.cpp).
#include "scheduling/component_sets.hpp"

#include <algorithm>
#include <map>
#include <set>

#include "base/go_int.hpp"
#include "model/components.hpp"
#include "scheduling/available.hpp"

namespace kpw::scheduling {

namespace {

using model::quantity;


std::int32_t clamp32(std::int64_t v)
{
    return static_cast<std::int32_t>(std::clamp<std::int64_t>(v, 0, unlimited_replicas));
}

std::int64_t at(const std::vector<std::int64_t>& v, int id)
{
    return id >= 0 && static_cast<std::size_t>(id) < v.size() ? v[static_cast<std::size_t>(id)] : 0;
}

void put(std::vector<std::int64_t>& v, int id, std::int64_t value)
{
    if (v.size() <= static_cast<std::size_t>(id))
        v.resize(static_cast<std::size_t>(id) + 1, 0);
    v[static_cast<std::size_t>(id)] = value;
}

// karmada general.go buildModelNodes: grades of spec.resourceModels in ascending order (each once, with
// its last model: model::model_of_grade), with the summed allocatableModelings count of that grade;
// capacity = each range's min (util.NewResource keeps cpu, memory, ephemeral-storage and scalar
// resources), pods 110. A negative count fails the build.
void prepare_grades(const model::cluster& c, resource_table& table, set_cluster& out)
{
    out.models_build = !c.resource_models.empty();
    std::map<std::int64_t, std::int64_t> count;
    for (const auto& m : c.resource_summary->allocatable_modelings) {
        if (m.count < 0)
            out.models_build = false;
        count[m.grade] = go::add(count[m.grade], m.count);
    }
    std::set<std::int64_t> grades; // ascending, each once
    for (const auto& m : c.resource_models)
        grades.insert(m.grade);
    for (const std::int64_t grade : grades) {
        const model::resource_model* m = model::model_of_grade(c, grade);
        auto n = count.find(grade);
        if (n == count.end() || n->second <= 0)
            continue;
        set_cluster::grade g;
        g.count = std::min<std::int64_t>(n->second, std::int64_t(1) << 32);
        for (const auto& r : m->ranges) {
            if (r.name == "pods" || !(r.name == "cpu" || r.name == "memory" || r.name == "ephemeral-storage" ||
                                      model::is_scalar_resource_name(r.name)))
                continue;
            put(g.capacity, table.intern(r.name), r.name == "cpu" ? r.min.milli_ceil() : r.min.value_ceil());
        }
        out.grades.push_back(std::move(g));
    }
}

// The model path's per-job inputs (set_job::model_ids, model_demand).
void prepare_model_demand(set_job& job)
{
    for (const auto& p : job.parts)
        for (const auto& r : p.per_replica)
            if (std::find(job.model_ids.begin(), job.model_ids.end(), r.id) == job.model_ids.end())
                job.model_ids.push_back(r.id);
    std::size_t width = job.model_ids.size() + 1;
    job.model_demand.assign(job.parts.size() * width, 0);
    for (std::size_t i = 0; i < job.parts.size(); ++i) {
        for (const auto& r : job.parts[i].per_replica) {
            auto j = std::find(job.model_ids.begin(), job.model_ids.end(), r.id) - job.model_ids.begin();
            auto& demand = job.model_demand[i * width + static_cast<std::size_t>(j)];
            demand = go::add(demand, r.value);
        }
        job.model_demand[i * width + width - 1] = 1;
    }
}

struct bounded {
    std::int64_t sets;
    set_bound bound;
    std::size_t index = 0; // into set_job::per_set, for resource / resource_exhausted
};

// karmada general.go resourceBoundedSets: from podBound down by every positive per-set resource.
bounded resource_bounded(const set_cluster& c, const set_job& job, std::int64_t pod_bound)
{
    bounded b{pod_bound, set_bound::pods};
    for (std::size_t i = 0; i < job.per_set.size(); ++i) {
        const auto& r = job.per_set[i];
        if (r.value <= 0)
            continue;
        std::int64_t available = at(c.available, r.id);
        if (available <= 0)
            return {0, set_bound::resource_exhausted, i};
        if (available / r.value < b.sets)
            b = {available / r.value, set_bound::resource, i};
    }
    return b;
}

} // namespace

std::string_view set_bound_name(set_bound b)
{
    switch (b) {
    case set_bound::no_summary: return "no resource summary";
    case set_bound::no_pods_left: return "no pods left";
    case set_bound::pods: return "pods";
    case set_bound::resource: return "resource";
    case set_bound::resource_exhausted: return "resource exhausted";
    case set_bound::resource_models: return "resource models";
    }
    return "";
}

std::int64_t estimator_int64(const quantity& q)
{
    return model::stored_notation(q) == model::notation::binary_si ? q.value_ceil() : q.milli_ceil();
}

set_cluster prepare_set_cluster(const model::cluster& c, resource_table& table, const settings::feature_gates& gates)
{
    set_cluster out;
    if (!c.resource_summary)
        return out;
    const auto& s = *c.resource_summary;
    out.has_summary = true;
    out.pods_left = allowed_pod_number(s);
    // karmada general.go availableResourceMap: Sub keeps the allocatable's format.
    for (const auto& [name, total] : s.allocatable)
        put(out.available, table.intern(name),
            estimator_int64(total - model::amount_in(s.allocated, name) - model::amount_in(s.allocating, name)));
    out.use_models = gates.customized_cluster_resource_modeling() && !s.allocatable_modelings.empty();
    if (out.use_models)
        prepare_grades(c, table, out);
    return out;
}

set_job prepare_set_job(const std::vector<model::component>& components, const resource_table& table)
{
    set_job job;
    std::map<std::string, std::int64_t, std::less<>> per_set; // karmada general.go perSetRequirement
    for (const auto& c : components) {
        job.pods_per_set += c.replicas;
        set_job::part part{c.replicas, {}};
        for (const auto& [name, q] : model::request_quantities(c)) {
            // perSetRequirement: resourceRequirements[r] += baseAmount * replicas, in Go int64 (wrapping;
            // resourceBoundedSets then skips a requirement that wrapped to <= 0).
            per_set[name] = go::add(per_set[name], go::mul(estimator_int64(q), c.replicas));
            bool modelled = name == "cpu" || name == "memory" || name == "ephemeral-storage" ||
                            model::is_scalar_resource_name(name);
            if (modelled)
                part.per_replica.push_back({table.find(name), name == "cpu" ? q.milli_ceil() : q.value_ceil()});
        }
        job.parts.push_back(std::move(part));
    }
    prepare_model_demand(job);
    for (const auto& [name, total] : per_set) {
        if (total == 0)
            continue;
        int id = table.find(name);
        if (id < 0 && total > 0 && job.unknown.empty())
            job.unknown = name;
        if (id >= 0) {
            job.per_set.push_back({id, total});
            job.per_set_names.push_back(name);
        }
    }
    return job;
}

namespace {

// The estimate with the bounding resource as an index (set_job::per_set_names, or -2 for job.unknown).
component_set_cache::entry estimate_entry(const set_cluster& c, const set_job& job)
{
    using entry = component_set_cache::entry;
    if (!c.has_summary)
        return {0, set_bound::no_summary, -1};
    if (c.pods_left <= 0)
        return {0, set_bound::no_pods_left, -1};
    if (job.pods_per_set <= 0)
        return {clamp32(c.pods_left), set_bound::pods, -1};
    if (!job.unknown.empty())
        return {0, set_bound::resource_exhausted, -2};
    auto b = resource_bounded(c, job, c.pods_left / job.pods_per_set);
    entry out{clamp32(b.sets), b.bound, b.bound != set_bound::pods ? static_cast<std::int32_t>(b.index) : -1};
    if (b.bound == set_bound::resource_exhausted || !c.use_models || !c.models_build)
        return out;
    std::int32_t modelled = model_component_sets(c, job, out.sets);
    if (modelled < out.sets)
        return {modelled, set_bound::resource_models, -1};
    return out;
}

component_set_estimate named(const component_set_cache::entry& e, const set_job& job)
{
    std::string resource = e.resource == -2  ? job.unknown
                           : e.resource >= 0 ? job.per_set_names[static_cast<std::size_t>(e.resource)]
                                             : std::string();
    return {e.sets, e.bound, std::move(resource)};
}

// Everything estimate_entry reads of a job, as one string (resource ids are the cache's table's).
std::string shape_key(const set_job& job)
{
    std::string key = std::to_string(job.pods_per_set);
    key.append("|").append(job.unknown).append("|");
    for (const auto& r : job.per_set)
        key.append(std::to_string(r.id)).append(":").append(std::to_string(r.value)).append(",");
    key.append("|");
    for (int id : job.model_ids)
        key.append(std::to_string(id)).append(",");
    key.append("|");
    for (const auto& p : job.parts)
        key.append(std::to_string(p.replicas)).append(",");
    key.append("|");
    for (auto v : job.model_demand)
        key.append(std::to_string(v)).append(",");
    return key;
}

// What karmada-scheduler-estimator reads of the components besides their replicas: each one's request and
// node claim, in order (first-fit packs them in order).
void append_accurate_key(std::string& key, std::span<const model::component> components)
{
    key.append("\naccurate:");
    for (const auto& c : components) {
        key.append(std::to_string(c.replicas)).append(1, '/');
        for (const auto& [name, v] : c.request)
            key.append(name).append(1, '=').append(std::to_string(v)).append(1, ',');
        append_claim_key(key, c.claim ? &*c.claim : nullptr);
        key.append(1, '\x1c');
    }
}

} // namespace

component_set_estimate max_available_component_sets(const set_cluster& c, const set_job& job)
{
    return named(estimate_entry(c, job), job);
}

std::string set_bound_by(const component_set_estimate& e, const set_job& job)
{
    switch (e.bound) {
    case set_bound::no_summary: return "no resourceSummary";
    case set_bound::no_pods_left:
    case set_bound::pods: return "pods";
    case set_bound::resource_models: return "resource models";
    case set_bound::resource:
    case set_bound::resource_exhausted: break;
    }
    if (!job.unknown.empty() && e.resource == job.unknown)
        return e.resource + " (offered by no cluster)";
    return e.resource;
}

void component_set_cache::bind(std::span<const model::cluster> clusters, const settings::feature_gates& gates,
                               const snapshot* members)
{
    bool modeling = gates.customized_cluster_resource_modeling();
    if (bound_ && data_ == clusters.data() && size_ == clusters.size() && modeling_ == modeling && members_ == members)
        return;
    bound_ = true;
    members_ = members;
    data_ = clusters.data();
    size_ = clusters.size();
    modeling_ = modeling;
    table_ = resource_table{};
    memo_.clear();
    clusters_.clear();
    clusters_.reserve(clusters.size());
    for (const auto& c : clusters)
        clusters_.push_back(prepare_set_cluster(c, table_, gates));
}

job_sets::job_sets(component_set_cache& cache, std::span<const model::cluster> clusters,
                   const std::vector<model::component>& components, const settings::feature_gates& gates,
                   const snapshot* members)
    : cache_(&cache), components_(components)
{
    if (members != nullptr && !members->has_estimators())
        members = nullptr;
    cache.bind(clusters, gates, members);
    job_ = prepare_set_job(components, cache.table_);
    auto key = shape_key(job_);
    if (members != nullptr)
        append_accurate_key(key, components);
    auto it = cache.memo_.find(key);
    if (it == cache.memo_.end() && cache.memo_.size() >= component_set_cache::max_shapes) {
        own_.general.resize(clusters.size());
        memo_ = &own_;
        return;
    }
    if (it == cache.memo_.end())
        it = cache.memo_.emplace(std::move(key), component_set_cache::shape_memo{
                                                     std::vector<component_set_cache::entry>(clusters.size()), {}})
                 .first;
    memo_ = &it->second;
}

const component_set_cache::entry& job_sets::entry_of(std::size_t index)
{
    auto& e = memo_->general[index];
    if (e.sets < 0)
        e = estimate_entry(cache_->clusters_[index], job_);
    return e;
}

component_set_estimate job_sets::estimate(std::size_t index)
{
    return named(entry_of(index), job_);
}

const accurate_estimate* job_sets::accurate(std::size_t index)
{
    const prepared_member* member = cache_->members_ != nullptr ? cache_->members_->member(index) : nullptr;
    if (member == nullptr)
        return nullptr;
    auto& slots = memo_->accurate;
    if (slots.empty())
        slots.resize(memo_->general.size());
    auto& slot = slots[index];
    if (!slot)
        slot = estimate_accurate_sets(*member, components_);
    return &*slot;
}

namespace {

// karmada estimatorclient.UnauthenticReplica, skipped by the merge.
constexpr std::int32_t unauthentic_sets = -1;

const accurate_estimate* counted(const accurate_estimate* a)
{
    return a != nullptr && a->failure.empty() && a->replicas != unauthentic_sets ? a : nullptr;
}

} // namespace

std::int32_t job_sets::available(std::size_t index, bool accurate)
{
    std::int32_t out = sets(index);
    if (const accurate_estimate* a = accurate ? counted(this->accurate(index)) : nullptr; a != nullptr)
        out = std::min(out, a->replicas);
    return out == unlimited_replicas ? 0 : out;
}

std::string job_sets::bound_by(std::size_t index, bool accurate)
{
    std::string general = set_bound_by(estimate(index), job_);
    const accurate_estimate* a = accurate ? counted(this->accurate(index)) : nullptr;
    if (a == nullptr)
        return general;
    if (a->replicas < sets(index))
        return describe(*a);
    return "general estimator: " + general + " (karmada-scheduler-estimator: " + std::to_string(a->replicas) + ")";
}

component_set_estimate max_available_component_sets(const model::cluster& c,
                                                    const std::vector<model::component>& components,
                                                    const settings::feature_gates& gates)
{
    resource_table table;
    auto prepared = prepare_set_cluster(c, table, gates);
    return max_available_component_sets(prepared, prepare_set_job(components, table));
}

} // namespace kpw::scheduling
