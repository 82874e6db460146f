// SPDX-License-Identifier: Apache-2.0
// Cluster and workload inventories from loaded documents; Lists expanded, decode errors reported.
#include "scheduling/inventory.hpp"

#include <algorithm>

#include "doc/locate.hpp"
#include "model/cluster_decode.hpp"
#include "model/workload_decode.hpp"
#include "schema/go_types.hpp"

namespace kpw::scheduling {

namespace {

// Calls `each` on the document itself, or on every item of a List.
template <class F>
void for_each_object(const doc::value& document, F&& each)
{
    const doc::value* items = doc::list_items(document);
    if (items == nullptr) {
        each(document);
        return;
    }
    for (const auto& item : items->items())
        each(item);
}

std::string label(std::string_view what, std::string_view name)
{
    return std::string(what) + " " + (name.empty() ? "<unnamed>" : std::string(name));
}

void report(std::string_view what, std::string_view name, const doc::value& object, const field::error_list& errors,
            std::vector<inventory_issue>& issues)
{
    for (const auto& e : errors)
        issues.push_back({doc::locate(object, e.field), label(what, name) + ": " + e.str()});
}

bool karmada_api(std::string_view api_version)
{
    auto group = api_version.substr(0, api_version.find('/'));
    return group.ends_with("karmada.io");
}

} // namespace

void cluster_inventory::add(const doc::value& document, std::vector<inventory_issue>& issues)
{
    for_each_object(document, [&](const doc::value& object) {
        if (!model::is_cluster_object(object)) {
            ++ignored_;
            return;
        }
        auto decoded = model::decode_cluster(object);
        report("cluster", decoded.value.name, object, decoded.errors, issues);
        if (!decoded.value.name.empty())
            clusters_.push_back(std::move(decoded.value));
    });
}

void cluster_inventory::seal([[maybe_unused]] std::vector<inventory_issue>& issues)
{
    std::stable_sort(clusters_.begin(), clusters_.end(),
                     [](const model::cluster& a, const model::cluster& b) { return a.name < b.name; });
    std::vector<model::cluster> unique;
    unique.reserve(clusters_.size());
    for (auto& c : clusters_) {
        if (!unique.empty() && unique.back().name == c.name) {
            // No issue: applying both, the later one updates the earlier (kubectl apply), and that is the
            // Cluster Karmada's scheduler reads (conformance).
            unique.back() = std::move(c);
            continue;
        }
        unique.push_back(std::move(c));
    }
    clusters_ = std::move(unique);
}

const model::cluster* cluster_inventory::find(std::string_view name) const
{
    auto it = std::lower_bound(clusters_.begin(), clusters_.end(), name,
                               [](const model::cluster& c, std::string_view n) { return c.name < n; });
    return it != clusters_.end() && it->name == name ? &*it : nullptr;
}

namespace {

// Calls `take(object, workload)` for each resource template of `document` that decodes with a name.
template <class F>
void for_each_workload(const doc::value& document, std::string_view default_namespace,
                       std::vector<inventory_issue>& issues, F&& take)
{
    for_each_object(document, [&](const doc::value& object) {
        if (!object.is_mapping() || object.string_at("kind").empty() || object.string_at("apiVersion").empty()) {
            issues.push_back({object.pos(), "not a Kubernetes object (a mapping with apiVersion and kind)"});
            return;
        }
        if (karmada_api(object.string_at("apiVersion")))
            return;
        // A built-in kind kube-apiserver cannot decode into its Go type is an object it never holds.
        if (auto bad = schema::go_decode_check(object)) {
            const doc::value* metadata = object.find("metadata");
            const std::string at = bad->at.str();
            issues.push_back({doc::locate(object, at),
                              label(object.string_at("kind"), metadata ? metadata->string_at("name") : "") + ": " +
                                  (at.empty() ? "" : at + ": ") + bad->message +
                                  " (the API server refuses such an object, so no snapshot holds one)"});
            return;
        }
        auto decoded = model::decode_workload(object, default_namespace);
        report(decoded.value.kind, decoded.value.name, object, decoded.errors, issues);
        if (!decoded.value.name.empty())
            take(object, std::move(decoded.value));
    });
}

} // namespace

void add_workloads(std::vector<model::workload>& out, const doc::value& document, std::string_view default_namespace,
                   std::vector<inventory_issue>& issues)
{
    for_each_workload(document, default_namespace, issues,
                      [&](const doc::value&, model::workload w) { out.push_back(std::move(w)); });
}

void add_workload_manifests(std::vector<model::workload_manifest>& out, const doc::value& document,
                            std::string_view default_namespace, std::vector<inventory_issue>& issues)
{
    for_each_workload(document, default_namespace, issues, [&](const doc::value& object, model::workload w) {
        const doc::value* replicas = object.find_path({"spec", "replicas"});
        out.push_back({std::move(w), replicas != nullptr && !replicas->is_null()});
    });
}

} // namespace kpw::scheduling
