// SPDX-License-Identifier: Apache-2.0
#include "stream_inputs.hpp"

#include "model/decode.hpp"
#include "validate.hpp"

namespace kpw::fuzz {

namespace {

// A policy, as lint takes it (a document or an item of a List), through validate_manifest; false for
// any other object.
bool take_policy(const doc::value& object, const stream_limits& limits, stream_inputs& in)
{
    if (!object.is_mapping())
        return false;
    auto kind = policy_kind_of(object.string_at("apiVersion"), object.string_at("kind"));
    if (!kind)
        return false;
    manifest_verdict v = validate_manifest(*kind, object, "default", {});
    if (v.errors.empty() && in.policies.size() < limits.policies)
        in.policies.push_back(model::decode(v.defaulted));
    return true;
}

} // namespace

bool read_stream_inputs(std::string_view text, const stream_limits& limits, stream_inputs& in)
{
    // As lint reads a snapshot: one JSON object (kubectl get -o json) through RapidJSON, else YAML.
    const auto docs = doc::load_documents(text);
    if (!docs)
        return false;
    std::vector<scheduling::inventory_issue> issues;
    for (const doc::document& d : *docs) {
        if (!d.root.is_mapping() || take_policy(d.root, limits, in))
            continue;
        if (const doc::value* items = doc::list_items(d.root))
            for (const doc::value& item : items->items())
                take_policy(item, limits, in);
        // The inventories take their own kinds (a List's items too) and ignore the rest.
        in.clusters.add(d.root, issues);
        if (in.workloads.size() < limits.workloads)
            scheduling::add_workloads(in.workloads, d.root, "default", issues);
        if (limits.bindings > 0 && in.bindings.size() < limits.bindings)
            in.bindings.add(d.root, issues);
    }
    in.clusters.seal(issues);
    in.bindings.seal(issues);
    if (in.workloads.size() > limits.workloads)
        in.workloads.resize(limits.workloads);
    if (in.bindings.size() > limits.bindings)
        in.bindings.mutable_bindings().resize(limits.bindings);
    return true;
}

} // namespace kpw::fuzz
