// SPDX-License-Identifier: Apache-2.0
#include "model/kubectl_apply.hpp"

#include "doc/load.hpp"

namespace kpw::model {

namespace {

// The keys of metadata.<field> in the last-applied configuration, and whether it set spec.replicas. An
// annotation that is not JSON (edited by hand) counts as none, as kubectl's patcher reads it.
struct last_applied {
    std::vector<std::string> labels, annotations;
    bool replicas = false;
};

last_applied read_last_applied(const workload& live)
{
    last_applied out;
    auto it = live.annotations.find(last_applied_annotation);
    if (it == live.annotations.end())
        return out;
    auto root = doc::parse_json(it->second);
    if (!root || !root->is_mapping())
        return out;
    const auto keys_of = [&](std::string_view field, std::vector<std::string>& into) {
        if (const doc::value* m = root->find_path({"metadata", field}); m != nullptr && m->is_mapping())
            for (const auto& [key, value] : m->members())
                into.emplace_back(key);
    };
    keys_of("labels", out.labels);
    keys_of("annotations", out.annotations);
    const doc::value* replicas = root->find_path({"spec", "replicas"});
    out.replicas = replicas != nullptr && !replicas->is_null();
    return out;
}

// live, less what kubectl applied before and the manifest dropped, with the manifest's over it.
label_map merged(const label_map& live, const std::vector<std::string>& applied_before, const label_map& manifest)
{
    label_map out = live;
    for (const auto& key : applied_before)
        if (!manifest.contains(key))
            out.erase(key);
    for (const auto& [key, value] : manifest)
        out.insert_or_assign(key, value);
    return out;
}

} // namespace

workload kubectl_applied(const workload* live, const workload_manifest& manifest)
{
    if (live == nullptr)
        return manifest.decoded;
    const last_applied before = read_last_applied(*live);
    workload out = manifest.decoded;
    out.uid = live->uid;
    out.labels = merged(live->labels, before.labels, manifest.decoded.labels);
    out.annotations = merged(live->annotations, before.annotations, manifest.decoded.annotations);
    if (!manifest.sets_replicas && !before.replicas)
        out.replicas = live->replicas;
    return out;
}

} // namespace kpw::model
