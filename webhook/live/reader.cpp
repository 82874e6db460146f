// SPDX-License-Identifier: Apache-2.0
#include "live/reader.hpp"

namespace kpw::live {

namespace {

constexpr std::string_view cluster_api = "cluster.karmada.io/v1alpha1";
constexpr std::string_view policy_api = "policy.karmada.io/v1alpha1";
constexpr std::string_view work_api = "work.karmada.io/v1alpha2";

} // namespace

std::string read_label(const kube::api_resource& r, const std::string& namespace_, const std::string& name)
{
    std::string label = r.resource;
    if (!r.group.empty())
        label += "." + r.group;
    if (!name.empty())
        label += "/" + name;
    if (r.namespaced)
        label += namespace_.empty() ? " -A" : " -n " + namespace_;
    if (!r.via.empty())
        label += " via " + r.via;
    return label;
}

std::string cluster_proxy_path(const std::string& cluster)
{
    return "/apis/cluster.karmada.io/v1alpha1/clusters/" + cluster + "/proxy";
}

result<kube::api_resource> reader::require(std::string_view api_version, std::string_view kind)
{
    auto found = client_.resolve(api_version, kind);
    if (!found)
        return found.error();
    if (!*found)
        return failure{"the API server at " + client_.config().server + " does not serve " + std::string(kind) + " (" +
                       std::string(api_version) + "): is this karmada-apiserver? (" + client_.config().identity() + ")", {}};
    return **found;
}

result<bool> reader::add_list(const kube::api_resource& r, const std::string& namespace_, lint::input_set& out)
{
    auto listed = client_.list(r, namespace_);
    if (!listed)
        return listed.error();
    out.files.push_back({read_label(r, namespace_), std::move(listed->json), false, true});
    return true;
}

result<lint::input_set> reader::member_state(const std::string& cluster)
{
    lint::input_set out;
    const std::string via = cluster_proxy_path(cluster);
    for (const kube::api_resource& r : {kube::api_resource{"", "v1", "nodes", "Node", false, via},
                                        kube::api_resource{"", "v1", "pods", "Pod", true, via}})
        if (auto added = add_list(r, {}, out); !added)
            return added.error();
    return out;
}

result<lint::input_set> reader::clusters()
{
    lint::input_set out;
    auto cluster = require(cluster_api, "Cluster");
    if (!cluster)
        return cluster.error();
    if (auto added = add_list(*cluster, {}, out); !added)
        return added.error();
    // ClusterTaintPolicy is newer than some control planes: read it when served.
    auto taint_policy = client_.resolve(policy_api, "ClusterTaintPolicy");
    if (!taint_policy)
        return taint_policy.error();
    if (*taint_policy)
        if (auto added = add_list(**taint_policy, {}, out); !added)
            return added.error();
    return out;
}

result<lint::input_set> reader::lists(std::string_view api_version, std::initializer_list<std::string_view> kinds)
{
    lint::input_set out;
    for (std::string_view kind : kinds) {
        auto r = require(api_version, kind);
        if (!r)
            return r.error();
        if (auto added = add_list(*r, {}, out); !added)
            return added.error();
    }
    return out;
}

result<lint::input_set> reader::bindings()
{
    return lists(work_api, {"ResourceBinding", "ClusterResourceBinding"});
}

result<lint::input_set> reader::policies()
{
    return lists(policy_api, {"PropagationPolicy", "ClusterPropagationPolicy"});
}

result<lint::input_set> reader::workloads(const std::vector<workload_query>& queries, std::vector<std::string>& notes)
{
    lint::input_set out;
    for (const auto& q : queries) {
        auto found = client_.resolve(q.api_version, q.kind);
        if (!found)
            return found.error();
        if (!*found) {
            notes.push_back("the API server does not serve " + q.kind + " (" + q.api_version +
                            "): no resource templates of that kind were read");
            continue;
        }
        const kube::api_resource& r = **found;
        // A cluster-scoped kind has no namespace, whatever the selector says.
        const std::string ns = r.namespaced ? q.namespace_ : std::string();
        if (q.name.empty()) {
            if (auto added = add_list(r, ns, out); !added)
                return added.error();
            continue;
        }
        auto object = client_.get(r, ns, q.name);
        if (!object)
            return object.error();
        if (*object)
            out.files.push_back({read_label(r, ns, q.name), std::move(**object), false});
    }
    return out;
}

} // namespace kpw::live
