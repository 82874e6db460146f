// SPDX-License-Identifier: Apache-2.0
#include "stream_inputs.hpp"

#include "model/decode.hpp"
#include "validate.hpp"

namespace kpw::fuzz {

bool read_stream_inputs(std::string_view text, const stream_limits& limits, stream_inputs& in)
{
    const auto docs = doc::load_yaml(text);
    if (!docs)
        return false;
    std::vector<scheduling::inventory_issue> issues;
    for (const doc::document& d : *docs) {
        if (!d.root.is_mapping())
            continue;
        if (auto kind = policy_kind_of(d.root.string_at("apiVersion"), d.root.string_at("kind"))) {
            manifest_verdict v = validate_manifest(*kind, d.root, "default", {});
            if (v.errors.empty() && in.policies.size() < limits.policies)
                in.policies.push_back(model::decode(v.defaulted));
            continue;
        }
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
