// SPDX-License-Identifier: Apache-2.0
// Structure-aware edits of the schedule target's input: the document tree, not its bytes.
#include "schedule_mutator.hpp"

#include <array>
#include <functional>
#include <optional>
#include <random>
#include <unordered_map>

#include "doc/load.hpp"

namespace kpw::fuzz {
namespace {

using rng = std::minstd_rand;

struct stream {
    std::vector<doc::value> objects; // Lists flattened into their items
    std::vector<std::size_t> clusters, workloads, policies;
};

std::size_t below(rng& r, std::size_t n)
{
    return n == 0 ? 0 : std::uniform_int_distribution<std::size_t>(0, n - 1)(r);
}

template <typename T, std::size_t N>
const T& one_of(rng& r, const std::array<T, N>& choices)
{
    return choices[below(r, N)];
}

doc::value str(std::string s)
{
    return doc::value::string(std::move(s));
}

// The mapping at `key` below `parent`, made one if absent or of another type.
doc::value& child(doc::value& parent, std::string key)
{
    doc::value* v = parent.find(key);
    return v && v->is_mapping() ? *v : parent.set(std::move(key), doc::value::mapping());
}

// Which objects are clusters, workloads and policies (by kind, or a workload's spec fields).
void index_objects(stream& s)
{
    s.clusters.clear();
    s.workloads.clear();
    s.policies.clear();
    for (std::size_t i = 0; i < s.objects.size(); ++i) {
        const std::string_view kind = s.objects[i].string_at("kind");
        if (kind == "Cluster")
            s.clusters.push_back(i);
        else if (kind == "PropagationPolicy" || kind == "ClusterPropagationPolicy")
            s.policies.push_back(i);
        else if (s.objects[i].find_path({"spec", "template"}) || s.objects[i].find_path({"spec", "replicas"}))
            s.workloads.push_back(i);
    }
}

stream read_stream(std::string_view input)
{
    stream s;
    auto docs = doc::load_documents(input);
    if (!docs)
        return s;
    for (doc::document& d : *docs) {
        if (const doc::value* items = doc::list_items(d.root)) {
            for (const doc::value& item : items->items())
                s.objects.push_back(item);
        } else {
            s.objects.push_back(std::move(d.root));
        }
    }
    index_objects(s);
    return s;
}

// Loading the input was most of an edit's cost (yaml-cpp under ASan: 29% of the schedule campaign's
// time), and libFuzzer edits the same bytes again and again: the corpus units it picks, and inside a
// mutation chain the output of the edit before. So loaded streams are kept by the input's hash (the
// map is dropped whole when full: bounded memory without eviction bookkeeping), and the last edit's
// stream is kept as its output loads (emptied objects dropped) for the next edit of a chain; edits
// do not fill the map, which stays for the corpus. A hash collision only gives another edit.
class stream_cache {
public:
    const stream& load(std::string_view input)
    {
        const std::size_t k = key(input);
        if (last_ && k == last_key_)
            return *last_;
        if (loaded_.size() >= capacity)
            loaded_.clear();
        auto [at, added] = loaded_.try_emplace(k);
        if (added)
            at->second = read_stream(input);
        return at->second;
    }

    void keep(std::string_view output, stream edited)
    {
        std::erase_if(edited.objects, [](const doc::value& o) { return o.members().empty(); });
        index_objects(edited);
        last_key_ = key(output);
        last_ = std::move(edited);
    }

    void clear()
    {
        loaded_.clear();
        last_.reset();
    }

private:
    static constexpr std::size_t capacity = 4096;

    static std::size_t key(std::string_view bytes) { return std::hash<std::string_view>{}(bytes) ^ bytes.size(); }

    std::unordered_map<std::size_t, stream> loaded_;
    std::size_t last_key_ = 0;
    std::optional<stream> last_;
};

stream_cache& loaded()
{
    static stream_cache cache;
    return cache;
}

std::string cluster_name(const stream& s, rng& r)
{
    if (s.clusters.empty())
        return "member1";
    const doc::value* name = s.objects[s.clusters[below(r, s.clusters.size())]].find_path({"metadata", "name"});
    return name ? name->text() : "member1";
}

void edit_replicas(stream& s, rng& r)
{
    static constexpr std::array<std::int64_t, 12> counts = {0, 1, 2, 3, 4, 5, 7, 10, 16, 31, 100, 1000};
    if (s.workloads.empty())
        return;
    doc::value& w = s.objects[s.workloads[below(r, s.workloads.size())]];
    child(w, "spec").set("replicas", doc::value::integer(below(r, 3) ? one_of(r, counts) : std::int64_t(below(r, 64))));
}

void edit_requests(stream& s, rng& r)
{
    static constexpr std::array<const char*, 6> cpu = {"1m", "100m", "250m", "600m", "2", "64"};
    static constexpr std::array<const char*, 5> memory = {"1Mi", "128Mi", "1152Mi", "8Gi", "1Ti"};
    if (s.workloads.empty())
        return;
    doc::value& pod = child(child(child(s.objects[s.workloads[below(r, s.workloads.size())]], "spec"), "template"), "spec");
    doc::value* containers = pod.find("containers");
    if (!containers || !containers->is_sequence() || containers->items().empty()) {
        containers = &pod.set("containers", doc::value::sequence());
        containers->push_back(doc::value::mapping());
    }
    doc::value& c = containers->items()[below(r, containers->items().size())];
    if (!c.is_mapping())
        c = doc::value::mapping();
    doc::value& requests = child(child(c, "resources"), "requests");
    requests.set("cpu", str(one_of(r, cpu)));
    requests.set("memory", str(one_of(r, memory)));
}

doc::value weight_list(const stream& s, rng& r)
{
    doc::value list = doc::value::sequence();
    for (std::size_t i = 0, n = 1 + below(r, 3); i < n; ++i) {
        doc::value names = doc::value::sequence();
        names.push_back(str(cluster_name(s, r)));
        doc::value target = doc::value::mapping();
        target.set("clusterNames", std::move(names));
        doc::value entry = doc::value::mapping();
        entry.set("targetCluster", std::move(target));
        entry.set("weight", doc::value::integer(1 + static_cast<std::int64_t>(below(r, 5))));
        list.push_back(std::move(entry));
    }
    return list;
}

// Duplicated, Divided/Aggregated, Divided/Weighted by static weights or by available replicas.
void edit_replica_scheduling(stream& s, doc::value& placement, rng& r)
{
    doc::value rs = doc::value::mapping();
    const std::size_t shape = below(r, 5);
    rs.set("replicaSchedulingType", str(shape == 0 ? "Duplicated" : "Divided"));
    if (shape == 1)
        rs.set("replicaDivisionPreference", str("Aggregated"));
    if (shape >= 2) {
        rs.set("replicaDivisionPreference", str("Weighted"));
        doc::value& wp = rs.set("weightPreference", doc::value::mapping());
        if (shape == 2)
            wp.set("dynamicWeight", str("AvailableReplicas"));
        else if (shape == 3)
            wp.set("staticWeightList", weight_list(s, r));
    }
    placement.set("replicaScheduling", std::move(rs));
}

doc::value spread(std::string field, std::int64_t min_groups, std::int64_t max_groups)
{
    doc::value c = doc::value::mapping();
    c.set("spreadByField", str(std::move(field)));
    c.set("maxGroups", doc::value::integer(max_groups));
    c.set("minGroups", doc::value::integer(min_groups));
    return c;
}

// A cluster constraint (Karmada requires one next to any other field) and maybe a region, zone or
// provider one; or none at all.
void edit_spread(doc::value& placement, rng& r)
{
    static constexpr std::array<const char*, 3> fields = {"region", "zone", "provider"};
    if (below(r, 5) == 0) {
        placement.erase("spreadConstraints");
        return;
    }
    doc::value list = doc::value::sequence();
    auto groups = [&r](std::int64_t& lo, std::int64_t& hi) {
        lo = 1 + static_cast<std::int64_t>(below(r, 3));
        hi = lo + static_cast<std::int64_t>(below(r, 3));
    };
    std::int64_t lo = 0, hi = 0;
    if (below(r, 2)) {
        groups(lo, hi);
        list.push_back(spread(one_of(r, fields), lo, hi));
    }
    groups(lo, hi);
    list.push_back(spread("cluster", lo, hi));
    placement.set("spreadConstraints", std::move(list));
}

void edit_affinity(stream& s, doc::value& placement, rng& r)
{
    placement.erase("clusterAffinities");
    if (below(r, 4) == 0) {
        placement.erase("clusterAffinity");
        return;
    }
    doc::value names = doc::value::sequence();
    for (std::size_t i = 0, n = 1 + below(r, 4); i < n; ++i)
        names.push_back(str(cluster_name(s, r)));
    doc::value& affinity = placement.set("clusterAffinity", doc::value::mapping());
    affinity.set(below(r, 5) ? "clusterNames" : "exclude", std::move(names));
}

void edit_policy(stream& s, rng& r)
{
    if (s.policies.empty())
        return;
    doc::value& placement = child(child(s.objects[s.policies[below(r, s.policies.size())]], "spec"), "placement");
    switch (below(r, 3)) {
    case 0: return edit_replica_scheduling(s, placement, r);
    case 1: return edit_spread(placement, r);
    default: return edit_affinity(s, placement, r);
    }
}

doc::value resources(std::int64_t cpu, std::int64_t memory_gi, std::int64_t pods)
{
    doc::value m = doc::value::mapping();
    m.set("cpu", str(std::to_string(cpu)));
    m.set("memory", str(std::to_string(memory_gi) + "Gi"));
    m.set("pods", str(std::to_string(pods)));
    return m;
}

void edit_capacity(stream& s, rng& r)
{
    static constexpr std::array<std::int64_t, 7> cpus = {0, 1, 2, 4, 8, 32, 512};
    if (s.clusters.empty())
        return;
    doc::value& summary = child(child(s.objects[s.clusters[below(r, s.clusters.size())]], "status"), "resourceSummary");
    const std::int64_t cpu = one_of(r, cpus), pods = static_cast<std::int64_t>(below(r, 3) ? 110 : below(r, 8));
    summary.set("allocatable", resources(cpu, cpu * 4, pods));
    summary.set("allocated", resources(static_cast<std::int64_t>(below(r, static_cast<std::size_t>(cpu) + 1)), 0,
                                       static_cast<std::int64_t>(below(r, static_cast<std::size_t>(pods) + 1))));
    if (below(r, 4) == 0)
        summary.erase("allocatableModelings");
}

void edit_topology(stream& s, rng& r)
{
    static constexpr std::array<const char*, 3> regions = {"r1", "r2", "r3"}, zones = {"z1", "z2", "z3"};
    static constexpr std::array<const char*, 2> providers = {"p1", "p2"};
    if (s.clusters.empty())
        return;
    doc::value& spec = child(s.objects[s.clusters[below(r, s.clusters.size())]], "spec");
    spec.set("region", str(one_of(r, regions)));
    spec.set("zone", str(one_of(r, zones)));
    spec.set("provider", str(one_of(r, providers)));
}

// A copy of a cluster under a new name, or one cluster fewer.
void edit_cluster_set(stream& s, rng& r)
{
    if (s.clusters.empty())
        return;
    const std::size_t at = s.clusters[below(r, s.clusters.size())];
    if (s.clusters.size() > 1 && below(r, 3) == 0) {
        s.objects[at] = doc::value::mapping();
        return;
    }
    doc::value copy = s.objects[at];
    child(copy, "metadata").set("name", str("member" + std::to_string(below(r, 100))));
    s.objects.push_back(std::move(copy));
}

} // namespace

std::optional<std::string> edit_schedule_input(std::string_view input, std::uint32_t seed)
{
    stream_cache& cache = loaded();
    stream s = cache.load(input);
    if (s.objects.empty())
        return std::nullopt;
    rng r(seed);
    for (std::size_t i = 0, n = 1 + below(r, 3); i < n; ++i) {
        switch (below(r, 7)) {
        case 0: edit_replicas(s, r); break;
        case 1: edit_requests(s, r); break;
        case 2: edit_capacity(s, r); break;
        case 3: edit_topology(s, r); break;
        case 4: edit_cluster_set(s, r); break;
        default: edit_policy(s, r); break;
        }
    }
    // One JSON List, as `kubectl get -o json` prints: the targets read it through RapidJSON, not the
    // YAML scanner that was most of an execution's cost (the YAML path is the manifest target's).
    std::string out = R"({"apiVersion":"v1","kind":"List","items":[)";
    bool first = true;
    for (const doc::value& o : s.objects)
        if (!o.members().empty()) {
            out += first ? "" : ",";
            doc::append_json(out, o);
            first = false;
        }
    if (first)
        return std::string(); // every object emptied: nothing to hand back
    out += "]}";
    cache.keep(out, std::move(s));
    return out;
}

void forget_loaded_inputs()
{
    loaded().clear();
}

} // namespace kpw::fuzz
