// SPDX-License-Identifier: Apache-2.0
// reader: the objects a dry run needs, read from karmada-apiserver as `kubectl get -o json` would print
// them, so that the loaders (and so every decision) are the ones the exported files go through.
#pragma once

#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.hpp"
#include "kube/client.hpp"
#include "lint/inputs.hpp"
#include "live/workload_queries.hpp"

namespace kpw::live {

class reader {
public:
    explicit reader(kube::client& client) : client_(client) {}

    // Clusters (cluster.karmada.io, served by karmada-aggregated-apiserver) and ClusterTaintPolicies when
    // the server has them. A server without cluster.karmada.io is refused: "is this karmada-apiserver?".
    result<lint::input_set> clusters();
    // ResourceBindings in every namespace and ClusterResourceBindings.
    result<lint::input_set> bindings();
    // PropagationPolicies in every namespace and ClusterPropagationPolicies.
    result<lint::input_set> policies();
    // The resource templates behind `queries`, namespace by namespace. A kind the server does not serve
    // reads nothing and adds a line to `notes`.
    result<lint::input_set> workloads(const std::vector<workload_query>& queries, std::vector<std::string>& notes);
    // One member cluster's Nodes and Pods (all namespaces) through karmada-aggregated-apiserver's cluster
    // proxy, what `kubectl get nodes,pods -A -o json` against the member prints: the member state
    // karmada-scheduler-estimator works from (snapshot::add_member_files reads it as it reads the files).
    result<lint::input_set> member_state(const std::string& cluster);

private:
    // One list as an input file named after the read ("<server> clusters.cluster.karmada.io").
    result<bool> add_list(const kube::api_resource& r, const std::string& namespace_, lint::input_set& out);
    result<kube::api_resource> require(std::string_view api_version, std::string_view kind);
    // Every object of each kind (all namespaces), one input per kind; each kind must be served.
    result<lint::input_set> lists(std::string_view api_version, std::initializer_list<std::string_view> kinds);

    kube::client& client_;
};

// How a read is named in messages and as the "file" of what it returned: "clusters.cluster.karmada.io",
// "deployments.apps -n shop", "deployments.apps/web -n shop" (kubectl's resource.group notation).
std::string read_label(const kube::api_resource& r, const std::string& namespace_, const std::string& name = {});

// The path of Karmada's cluster proxy to member `cluster`'s API server.
std::string cluster_proxy_path(const std::string& cluster);

} // namespace kpw::live
