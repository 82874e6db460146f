// SPDX-License-Identifier: Apache-2.0
// Loading the dry run's inputs from documents: the cluster snapshot (keyed by name) and the workloads.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.hpp"
#include "doc/value.hpp"
#include "model/cluster.hpp"
#include "model/kubectl_apply.hpp"
#include "model/workload.hpp"

namespace kpw::scheduling {

// A problem with one input object; the caller adds the file name.
struct inventory_issue {
    position where;
    std::string message; // "cluster idc-east-1: status.resourceSummary.allocatable[cpu]: Invalid value: ..."
};

class cluster_inventory {
public:
    // Appends the Clusters of one document: a Cluster, or a List (kind ending in "List") of them, as
    // `kubectl get clusters -o yaml` prints. Objects of other kinds are counted in ignored(). A Cluster
    // with decode errors is kept with the fields that did decode, and each error becomes an issue.
    void add(const doc::value& document, std::vector<inventory_issue>& issues);
    // Appends a Cluster decoded before (serve's live snapshot decodes each object once, as it arrives).
    void add(model::cluster decoded) { clusters_.push_back(std::move(decoded)); }

    // Sorts by name. A name seen twice keeps the later object, as a second kubectl apply updates the
    // first; no issue (`issues` stays for the callers).
    void seal(std::vector<inventory_issue>& issues);

    std::span<const model::cluster> clusters() const { return clusters_; }
    const model::cluster* find(std::string_view name) const; // after seal()
    std::size_t size() const { return clusters_.size(); }
    std::size_t ignored() const { return ignored_; }

private:
    std::vector<model::cluster> clusters_;
    std::size_t ignored_ = 0;
};

// Appends the workloads of one document (an object or a List of objects). Karmada's own objects
// (policy.karmada.io, cluster.karmada.io, work.karmada.io, ...) are not resource templates and are
// skipped; every other object is a workload candidate, non-workloads (ConfigMap, ...) included.
void add_workloads(std::vector<model::workload>& out, const doc::value& document, std::string_view default_namespace,
                   std::vector<inventory_issue>& issues);

// The same, for manifests `kubectl apply` will write (plan's PATH): each with whether it sets spec.replicas.
void add_workload_manifests(std::vector<model::workload_manifest>& out, const doc::value& document,
                            std::string_view default_namespace, std::vector<inventory_issue>& issues);

} // namespace kpw::scheduling
