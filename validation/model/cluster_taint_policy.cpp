// SPDX-License-Identifier: Apache-2.0
// ClusterTaintPolicy decoding (karmada pkg/apis/policy/v1alpha1/clustertaint_types.go).
#include "model/cluster_taint_policy.hpp"

#include "model/cluster_decode.hpp"
#include "model/placement_decode.hpp"

namespace kpw::model {

namespace {

std::vector<match_condition> decode_matches(const doc::value* node, const field::path& at, field::error_list& errors)
{
    return read::list<match_condition>(node, at, errors, [&](const doc::value& item, const field::path& p) {
        match_condition m;
        m.condition_type = read::string(item.find("conditionType"), p.child("conditionType"), errors);
        m.op = read::string(item.find("operator"), p.child("operator"), errors);
        if (m.op != "In" && m.op != "NotIn")
            errors.push_back(field::not_supported(p.child("operator"), field::go_quote(m.op), {"In", "NotIn"}));
        m.status_values = read::list<std::string>(
            item.find("statusValues"), p.child("statusValues"), errors,
            [&](const doc::value& v, const field::path& vp) { return read::string(&v, vp, errors); });
        return m;
    });
}

std::vector<taint> decode_policy_taints(const doc::value* node, const field::path& at, field::error_list& errors)
{
    return read::list<taint>(node, at, errors, [&](const doc::value& item, const field::path& p) {
        taint t;
        t.key = read::string(item.find("key"), p.child("key"), errors);
        t.value = read::string(item.find("value"), p.child("value"), errors);
        t.effect = read::string(item.find("effect"), p.child("effect"), errors);
        if (t.effect != "NoSchedule" && t.effect != "NoExecute")
            errors.push_back(
                field::not_supported(p.child("effect"), field::go_quote(t.effect), {"NoSchedule", "NoExecute"}));
        return t;
    });
}

} // namespace

bool is_cluster_taint_policy_object(const doc::value& object)
{
    return object.string_at("kind") == kind_cluster_taint_policy &&
           object.string_at("apiVersion").starts_with("policy.karmada.io/");
}

cluster_taint_policy_decoding decode_cluster_taint_policy(const doc::value& object)
{
    cluster_taint_policy_decoding out;
    auto& p = out.value;
    auto& errors = out.errors;
    p.where = object.pos();
    if (auto v = object.string_at("apiVersion"); v != "policy.karmada.io/v1alpha1")
        errors.push_back(field::not_supported(field::path::root("apiVersion"), field::go_quote(v),
                                              {"policy.karmada.io/v1alpha1"}));
    auto meta = field::path::root("metadata");
    if (const doc::value* metadata = object.find("metadata"); metadata != nullptr) {
        p.name = read::string(metadata->find("name"), meta.child("name"), errors);
        p.creation_timestamp = read::time(metadata->find("creationTimestamp"), meta.child("creationTimestamp"), errors);
    }
    if (p.name.empty())
        errors.push_back(field::required(meta.child("name"), "name or generateName is required"));
    const doc::value* spec = object.find("spec");
    if (spec == nullptr || spec->is_null())
        return out;
    auto at = field::path::root("spec");
    p.target_clusters = decode_cluster_affinity(spec->find("targetClusters"), at.child("targetClusters"), errors);
    p.add_on_conditions = decode_matches(spec->find("addOnConditions"), at.child("addOnConditions"), errors);
    p.remove_on_conditions = decode_matches(spec->find("removeOnConditions"), at.child("removeOnConditions"), errors);
    p.taints = decode_policy_taints(spec->find("taints"), at.child("taints"), errors);
    return out;
}

} // namespace kpw::model
