// SPDX-License-Identifier: Apache-2.0
// Loading the snapshot and workloads: lint's input collection, JSON fast path, YAML with positions.
#include "snapshot/load.hpp"

#include "doc/load.hpp"
#include "lint/inputs.hpp"
#include "lint/kubectl_reader.hpp"
#include "lint/repeated_keys.hpp"

namespace kpw::snapshot {

namespace {

// Loads every document of one text and hands each root (with the text's name) to `take`; parse failures
// and kubectl's refusals become file errors. With `warnings`, a repeated key (doc::repeated_key) becomes a
// duplicate-key warning there.
template <class F>
void for_each_document(std::string_view text, const std::string& name, std::vector<lint::file_error>& errors,
                       std::vector<lint::snapshot_warning>* warnings, F&& take)
{
    // `kubectl get clusters -o json` output goes through RapidJSON (doc::load_documents).
    auto docs = doc::load_documents(text);
    if (!docs) {
        errors.push_back({name, docs.error().where, docs.error().message});
        // Read as kubectl reads it (the reader a `kubectl apply` of the export would use): the documents
        // before the one that does not parse still count, and their own refusals are reported.
        docs = doc::documents_before_failure(text);
    }
    std::vector<scheduling::inventory_issue> issues;
    for (auto& d : *docs) {
        if (warnings)
            lint::add_repeated_key_warnings(d, name, *warnings);
        if (auto refused = lint::kubectl_refusal(d.root, name)) {
            issues.push_back({refused->where, std::move(refused->message)});
            continue;
        }
        take(d.root, name, issues);
    }
    for (auto& i : issues)
        errors.push_back({name, i.where, std::move(i.message)});
}

// The same over every file of the inputs.
template <class F>
void for_each_document(const lint::input_set& inputs, std::vector<lint::file_error>& errors,
                       std::vector<lint::snapshot_warning>& warnings, F&& take)
{
    errors.insert(errors.end(), inputs.errors.begin(), inputs.errors.end());
    for (const auto& in : inputs.files)
        for_each_document(in.text, in.name, errors, &warnings, take);
}

// ClusterTaintPolicies given with the clusters (a drill's cluster controller applies them).
void add_taint_policies(std::vector<model::cluster_taint_policy>& out, const doc::value& root,
                        std::vector<scheduling::inventory_issue>& issues)
{
    auto take = [&](const doc::value& object) {
        if (!model::is_cluster_taint_policy_object(object))
            return;
        auto d = model::decode_cluster_taint_policy(object);
        for (const auto& e : d.errors)
            issues.push_back({object.pos(), "ClusterTaintPolicy " + d.value.name + ": " + e.str()});
        out.push_back(std::move(d.value));
    };
    if (const doc::value* items = doc::list_items(root)) {
        for (const auto& item : items->items())
            take(item);
        return;
    }
    take(root);
}

} // namespace

std::optional<lint::input_set> read_paths(const std::vector<std::string>& paths)
{
    if (paths.empty())
        return std::nullopt;
    return lint::collect_inputs(paths);
}

void load(state& out, const std::vector<std::string>& cluster_paths, const std::vector<std::string>& workload_paths,
          const std::string& default_namespace, std::vector<lint::file_error>& errors)
{
    load(out, read_paths(cluster_paths), read_paths(workload_paths), default_namespace, errors);
}

namespace {

// Once every Cluster is in: sorted, and the scheduler's view prepared over them.
void seal_clusters(state& out, std::vector<lint::file_error>& errors)
{
    std::vector<scheduling::inventory_issue> seal_issues;
    out.clusters.seal(seal_issues);
    for (auto& i : seal_issues)
        errors.push_back({"--clusters", i.where, std::move(i.message)});
    out.snapshot = std::make_unique<scheduling::snapshot>(out.clusters.clusters());
}

} // namespace

void load(state& out, const std::optional<lint::input_set>& clusters, const std::optional<lint::input_set>& workloads,
          const std::string& default_namespace, std::vector<lint::file_error>& errors)
{
    if (clusters) {
        for_each_document(*clusters, errors, out.load_warnings, [&](const doc::value& root, const std::string&, auto& issues) {
            out.clusters.add(root, issues);
            add_taint_policies(out.taint_policies, root, issues);
        });
        seal_clusters(out, errors);
    }
    if (workloads) {
        out.have_workloads = true;
        for_each_document(*workloads, errors, out.load_warnings,
                          [&](const doc::value& root, const std::string& file, auto& issues) {
                              const std::size_t first = out.workloads.size();
                              scheduling::add_workloads(out.workloads, root, default_namespace, issues);
                              for (std::size_t i = first; i < out.workloads.size(); ++i)
                                  out.workloads[i].source = file;
                          });
    }
}

decoded_object decode_cluster_object(std::string_view json, const std::string& source)
{
    decoded_object out;
    for_each_document(json, source, out.errors, nullptr, [&](const doc::value& root, const std::string&, auto& issues) {
        scheduling::cluster_inventory one;
        one.add(root, issues);
        out.clusters.assign(one.clusters().begin(), one.clusters().end());
        add_taint_policies(out.taint_policies, root, issues);
    });
    return out;
}

decoded_object decode_workload_object(std::string_view json, const std::string& default_namespace, const std::string& source)
{
    decoded_object out;
    for_each_document(json, source, out.errors, nullptr, [&](const doc::value& root, const std::string&, auto& issues) {
        scheduling::add_workloads(out.workloads, root, default_namespace, issues);
    });
    return out;
}

void load(state& out, const std::vector<const decoded_object*>& clusters,
          const std::vector<const decoded_object*>* workloads, std::vector<lint::file_error>& errors)
{
    for (const decoded_object* d : clusters) {
        errors.insert(errors.end(), d->errors.begin(), d->errors.end());
        for (const auto& c : d->clusters)
            out.clusters.add(model::cluster(c));
        out.taint_policies.insert(out.taint_policies.end(), d->taint_policies.begin(), d->taint_policies.end());
    }
    seal_clusters(out, errors);
    if (workloads == nullptr)
        return;
    out.have_workloads = true;
    out.workloads.reserve(workloads->size());
    for (const decoded_object* d : *workloads) {
        errors.insert(errors.end(), d->errors.begin(), d->errors.end());
        out.workloads.insert(out.workloads.end(), d->workloads.begin(), d->workloads.end());
    }
}

} // namespace kpw::snapshot

namespace kpw::snapshot {

void load_bindings(state& out, const std::vector<std::string>& binding_paths, std::vector<lint::file_error>& errors)
{
    load_bindings(out, read_paths(binding_paths), errors);
}

void load_bindings(state& out, const std::optional<lint::input_set>& bindings, std::vector<lint::file_error>& errors)
{
    if (!bindings)
        return;
    out.have_bindings = true;
    std::vector<scheduling::inventory_issue> seal_issues;
    for_each_document(*bindings, errors, out.load_warnings, [&](const doc::value& root, const std::string& file, auto& issues) {
        const std::size_t before = out.bindings.size();
        out.bindings.add(root, issues);
        for (std::size_t i = before; i < out.bindings.size(); ++i)
            out.bindings.mutable_bindings()[i].source = file; // findings about a binding point into its file
    });
    out.bindings.seal(seal_issues);
    for (auto& i : seal_issues)
        errors.push_back({"--bindings", i.where, std::move(i.message)});
}

} // namespace kpw::snapshot
