// SPDX-License-Identifier: Apache-2.0
// k8s.io/apimachinery pkg/runtime/serializer/json json.go Serializer.Decode and meta.go SimpleMetaFactory.Interpret,
// schema.ParseGroupVersion, runtime.UseOrCreateObject and runtime.DecodeInto, for an object decoded into a policy.
#include "model/typed_decode.hpp"

#include <algorithm>
#include <array>

#include "field/error.hpp"
#include "model/go_names.hpp"

namespace kpw::model {
namespace {

constexpr std::string_view policy_group = "policy.karmada.io";
constexpr std::string_view policy_version = "v1alpha1";

// Kinds Karmada's aggregated scheme (pkg/util/gclient) registers for a group/version, as far as an object
// sent to a policy webhook may name them: policy.karmada.io/v1alpha1's (zz_generated.register.go) and the
// common built-in workloads. Another kind is reported as not registered.
bool registered(std::string_view group, std::string_view version, std::string_view kind)
{
    struct gvk {
        std::string_view group, version, kind;
    };
    static constexpr std::array<gvk, 21> known{{
        {policy_group, policy_version, "PropagationPolicy"},     {policy_group, policy_version, "ClusterPropagationPolicy"},
        {policy_group, policy_version, "OverridePolicy"},        {policy_group, policy_version, "ClusterOverridePolicy"},
        {policy_group, policy_version, "FederatedResourceQuota"}, {policy_group, policy_version, "ClusterTaintPolicy"},
        {policy_group, policy_version, "PropagationPolicyList"}, {policy_group, policy_version, "ClusterPropagationPolicyList"},
        {"apps", "v1", "Deployment"},   {"apps", "v1", "StatefulSet"}, {"apps", "v1", "DaemonSet"},
        {"apps", "v1", "ReplicaSet"},   {"batch", "v1", "Job"},        {"batch", "v1", "CronJob"},
        {"", "v1", "Pod"},              {"", "v1", "Service"},         {"", "v1", "ConfigMap"},
        {"", "v1", "Secret"},           {"", "v1", "Namespace"},       {"", "v1", "ServiceAccount"},
        {"", "v1", "PersistentVolumeClaim"},
    }};
    return std::any_of(known.begin(), known.end(),
                       [&](const gvk& k) { return k.group == group && k.version == version && k.kind == kind; });
}

std::string group_version(std::string_view group, std::string_view version)
{
    return group.empty() ? std::string(version) : std::string(group) + "/" + std::string(version);
}

} // namespace

typed_refusal typed_decode_refusal(const doc::value& object, std::string_view into_kind, settings::karmada_release release)
{
    constexpr std::string_view interpret = "couldn't get version/kind; json parse error: json: cannot unmarshal ";
    if (!object.is_mapping())
        return {std::string(interpret) + std::string(json_value_word(object)) +
               " into Go value of type struct { APIVersion string \"json:\\\"apiVersion,omitempty\\\"\"; "
               "Kind string \"json:\\\"kind,omitempty\\\"\" }"};
    // Interpret: encoding/json into struct{APIVersion, Kind string}: keys match case-insensitively, the
    // last match wins, and the first type error is the one reported.
    std::string api_version, kind;
    std::string type_error;
    for (const auto& [key, v] : object.members()) {
        const bool api = json_names_field(key, "apiVersion");
        if (!api && !json_names_field(key, "kind"))
            continue;
        if (v.is_null())
            continue;
        if (!v.is_string()) {
            if (type_error.empty())
                type_error = std::string(interpret) + std::string(json_value_word(v)) + " into Go struct field ." +
                             (api ? "apiVersion" : "kind") + " of type string";
            continue;
        }
        (api ? api_version : kind) = v.text();
    }
    if (!type_error.empty())
        return {type_error};
    // schema.ParseGroupVersion
    std::string group, version;
    if (!api_version.empty() && api_version != "/") {
        const auto slash = api_version.find('/');
        if (slash == std::string::npos) {
            version = api_version;
        } else if (api_version.find('/', slash + 1) != std::string::npos) {
            return {"unexpected GroupVersion string: " + api_version};
        } else {
            group = api_version.substr(0, slash);
            version = api_version.substr(slash + 1);
        }
    }
    // gvkWithDefaults: what is missing comes from the Go type decoded into.
    if (kind.empty())
        kind = into_kind;
    if (version.empty() && (group.empty() || group == policy_group)) {
        group = policy_group;
        version = policy_version;
    }
    if (group == policy_group && version == policy_version && kind == into_kind)
        return {};
    if (version.empty())
        return {"Object 'apiVersion' is missing in '" + doc::to_json(object) + "'"};
    if (registered(group, version, kind))
        return {"unable to decode " + group + "/" + version + ", Kind=" + kind + " into *v1alpha1." + std::string(into_kind),
                group == policy_group && version == policy_version &&
                    (kind == "PropagationPolicy" || kind == "ClusterPropagationPolicy")};
    // The scheme is named by runtime.NewScheme's call site, a line of apimachinery that moved in v0.35.
    const std::string_view scheme =
        settings::has(release, settings::changes::apimachinery_scheme_name) ? "pkg/runtime/scheme.go:111"
                                                                            : "pkg/runtime/scheme.go:110";
    return {"no kind " + field::go_quote(kind) + " is registered for version " +
            field::go_quote(group_version(group, version)) + " in scheme " + field::go_quote(scheme)};
}

} // namespace kpw::model
