// SPDX-License-Identifier: Apache-2.0
// A pod spec's node claim (nodeSelector, required node affinity, tolerations) as Karmada copies it into
// the binding's replicaRequirements.nodeClaim.
#include "model/cluster_decode.hpp"
#include "model/workload_decode.hpp"

namespace kpw::model {

namespace {

std::vector<selector_requirement> requirements(const doc::value* node, const field::path& at, field::error_list& errors)
{
    return read::struct_list<selector_requirement>(node, at, errors, [&](const doc::value& item, const field::path& p) {
        selector_requirement r;
        r.key = read::string(item.find("key"), p.child("key"), errors);
        r.op = read::string(item.find("operator"), p.child("operator"), errors);
        r.values = read::list<std::string>(item.find("values"), p.child("values"), errors,
                                           [&](const doc::value& v, const field::path& vp) { return read::string(&v, vp, errors); });
        return r;
    });
}

std::vector<toleration> tolerations(const doc::value* node, const field::path& at, field::error_list& errors)
{
    return read::struct_list<toleration>(node, at, errors, [&](const doc::value& item, const field::path& p) {
        toleration t;
        t.key = read::string(item.find("key"), p.child("key"), errors);
        t.op = read::string(item.find("operator"), p.child("operator"), errors);
        t.value = read::string(item.find("value"), p.child("value"), errors);
        t.effect = read::string(item.find("effect"), p.child("effect"), errors);
        return t;
    });
}

// A corev1.NodeSelector's terms.
std::vector<node_selector_term> terms(const doc::value& selector, const field::path& at, field::error_list& errors)
{
    return read::struct_list<node_selector_term>(
        selector.find("nodeSelectorTerms"), at.child("nodeSelectorTerms"), errors,
        [&](const doc::value& item, const field::path& p) {
            return node_selector_term{requirements(item.find("matchExpressions"), p.child("matchExpressions"), errors),
                                      requirements(item.find("matchFields"), p.child("matchFields"), errors)};
        });
}

} // namespace

std::optional<node_claim> decode_binding_node_claim(const doc::value* node, const field::path& at, field::error_list& errors)
{
    if (node == nullptr || node->is_null())
        return std::nullopt;
    node_claim c;
    c.node_selector = read::string_map(node->find("nodeSelector"), at.child("nodeSelector"), errors);
    c.tolerations = tolerations(node->find("tolerations"), at.child("tolerations"), errors);
    if (const doc::value* hard = node->find("hardNodeAffinity"); hard != nullptr && hard->is_mapping())
        c.hard_node_affinity = terms(*hard, at.child("hardNodeAffinity"), errors);
    return c;
}

std::optional<node_claim> decode_node_claim(const doc::value& pod_spec, const field::path& at, field::error_list& errors)
{
    if (!claims_nodes(pod_spec))
        return std::nullopt;
    node_claim c;
    c.node_selector = read::string_map(pod_spec.find("nodeSelector"), at.child("nodeSelector"), errors);
    c.tolerations = tolerations(pod_spec.find("tolerations"), at.child("tolerations"), errors);
    const doc::value* required =
        pod_spec.find_path({"affinity", "nodeAffinity", "requiredDuringSchedulingIgnoredDuringExecution"});
    if (required != nullptr && required->is_mapping())
        c.hard_node_affinity =
            terms(*required, at.child("affinity").child("nodeAffinity").child("requiredDuringSchedulingIgnoredDuringExecution"),
                  errors);
    return c;
}

} // namespace kpw::model
