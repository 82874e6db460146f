// SPDX-License-Identifier: Apache-2.0
// Placeholder front door; the rules land with the validation-core work (issue 2).
#include "validate.hpp"

namespace kpw {

std::optional<policy_kind> policy_kind_of(std::string_view api_version, std::string_view kind)
{
    if (api_version.substr(0, api_version.find('/')) != "policy.karmada.io")
        return std::nullopt;
    if (kind == "PropagationPolicy")
        return policy_kind::propagation_policy;
    if (kind == "ClusterPropagationPolicy")
        return policy_kind::cluster_propagation_policy;
    return std::nullopt;
}

std::string_view kind_name(policy_kind k)
{
    return k == policy_kind::propagation_policy ? "PropagationPolicy" : "ClusterPropagationPolicy";
}

admission_verdict validate_admission(policy_kind, admission_operation, const doc::value&, const doc::value*, bool,
                                     const validation_options&)
{
    return {};
}

manifest_verdict validate_manifest(policy_kind, const doc::value& object, std::string_view, const validation_options&)
{
    manifest_verdict v;
    v.defaulted = object;
    return v;
}

} // namespace kpw
