// SPDX-License-Identifier: Apache-2.0
// Loading the snapshot and workloads: lint's input collection, JSON fast path, YAML with positions.
#include "snapshot/load.hpp"

#include "doc/load.hpp"
#include "lint/inputs.hpp"

namespace kpw::snapshot {

namespace {

bool looks_like_json(std::string_view text)
{
    auto first = text.find_first_not_of(" \t\r\n");
    return first != std::string_view::npos && text[first] == '{';
}

// Loads every document of the inputs and hands each root to `take`; parse failures become file errors.
template <class F>
void for_each_document(const std::vector<std::string>& paths, std::vector<lint::file_error>& errors, F&& take)
{
    lint::input_set inputs = lint::collect_inputs(paths);
    errors.insert(errors.end(), inputs.errors.begin(), inputs.errors.end());
    for (const auto& in : inputs.files) {
        std::vector<scheduling::inventory_issue> issues;
        // `kubectl get clusters -o json` output: RapidJSON reads a large snapshot an order of magnitude
        // faster than the YAML scanner. Positions are lost, so anything it rejects goes the YAML way.
        if (looks_like_json(in.text)) {
            if (auto root = doc::parse_json(in.text)) {
                take(*root, issues);
                for (auto& i : issues)
                    errors.push_back({in.name, i.where, std::move(i.message)});
                continue;
            }
        }
        auto docs = doc::load_yaml(in.text);
        if (!docs) {
            errors.push_back({in.name, docs.error().where, docs.error().message});
            continue;
        }
        for (const auto& d : *docs)
            take(d.root, issues);
        for (auto& i : issues)
            errors.push_back({in.name, i.where, std::move(i.message)});
    }
}

} // namespace

void load(state& out, const std::vector<std::string>& cluster_paths, const std::vector<std::string>& workload_paths,
          const std::string& default_namespace, std::vector<lint::file_error>& errors)
{
    if (!cluster_paths.empty()) {
        std::vector<scheduling::inventory_issue> seal_issues;
        for_each_document(cluster_paths, errors, [&](const doc::value& root, auto& issues) { out.clusters.add(root, issues); });
        out.clusters.seal(seal_issues);
        for (auto& i : seal_issues)
            errors.push_back({"--clusters", i.where, std::move(i.message)});
        out.snapshot = std::make_unique<scheduling::snapshot>(out.clusters.clusters());
    }
    if (!workload_paths.empty()) {
        out.have_workloads = true;
        for_each_document(workload_paths, errors, [&](const doc::value& root, auto& issues) {
            scheduling::add_workloads(out.workloads, root, default_namespace, issues);
        });
    }
}

} // namespace kpw::snapshot
