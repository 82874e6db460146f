// SPDX-License-Identifier: Apache-2.0
// Reading --member-state DIR into model::member_states and attaching it to the snapshot.
#include "snapshot/member_state.hpp"

#include <algorithm>
#include <filesystem>
#include <system_error>

#include "doc/load.hpp"
#include "lint/inputs.hpp"
#include "lint/kubectl_reader.hpp"
#include "model/member_state_decode.hpp"

namespace kpw::snapshot {

namespace fs = std::filesystem;

void add_member_files(model::member_state& out, const lint::input_set& files, std::vector<lint::file_error>& errors)
{
    errors.insert(errors.end(), files.errors.begin(), files.errors.end());
    for (const auto& in : files.files) {
        auto docs = doc::load_documents(in.text);
        if (!docs) {
            errors.push_back({in.name, docs.error().where, docs.error().message});
            continue;
        }
        std::vector<model::member_issue> issues;
        for (auto& d : *docs) {
            if (auto refused = lint::kubectl_refusal(d.root, in.name)) {
                errors.push_back(std::move(*refused));
                continue;
            }
            add_member_objects(out, d.root, issues);
        }
        for (auto& i : issues)
            errors.push_back({in.name, i.where, std::move(i.message)});
    }
}

void load_member_states(state& out, const std::string& dir, std::vector<lint::file_error>& errors)
{
    std::error_code ec;
    if (!fs::is_directory(dir, ec)) {
        errors.push_back({dir, {}, "--member-state: not a directory (one subdirectory per member cluster, named as its "
                                   "Cluster object, holding that member's Nodes and Pods)"});
        return;
    }
    std::vector<fs::path> entries;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
        entries.push_back(it->path());
    if (ec) {
        errors.push_back({dir, {}, "--member-state: " + ec.message()});
        return;
    }
    std::sort(entries.begin(), entries.end());
    std::vector<member_inputs> members;
    for (const auto& path : entries) {
        std::string cluster = path.filename().string();
        if (!fs::is_directory(path, ec)) {
            // A README beside the members is fine; a manifest there is a member state in the wrong place.
            const auto ext = path.extension().string();
            if (ext == ".yaml" || ext == ".yml" || ext == ".json")
                errors.push_back({path.string(), {},
                                  "--member-state: expected a directory per member cluster (named as its Cluster), "
                                  "found a file"});
            continue;
        }
        if (out.snapshot && std::none_of(out.clusters.clusters().begin(), out.clusters.clusters().end(),
                                         [&](const model::cluster& c) { return c.name == cluster; })) {
            errors.push_back({path.string(), {}, "--member-state: no Cluster " + cluster + " in the snapshot"});
            continue;
        }
        members.push_back({std::move(cluster), path.string(), lint::collect_inputs({path.string()})});
    }
    load_member_inputs(out, std::move(members), errors);
}

void load_member_inputs(state& out, std::vector<member_inputs> members, std::vector<lint::file_error>& errors)
{
    model::member_states states;
    for (auto& m : members) {
        model::member_state state;
        state.cluster = m.cluster;
        add_member_files(state, m.files, errors);
        std::vector<model::member_issue> issues;
        model::seal_member(state, issues);
        for (auto& i : issues)
            errors.push_back({m.source, {}, std::move(i.message)});
        states.members.push_back(std::move(state));
    }
    out.members = std::move(states);
    if (out.snapshot)
        out.snapshot->use_members(out.members);
}

} // namespace kpw::snapshot
