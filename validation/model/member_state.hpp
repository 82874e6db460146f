// SPDX-License-Identifier: Apache-2.0
// model::member_state: one member cluster's Nodes and Pods, what karmada-scheduler-estimator's cache
// holds (pkg/estimator/server/eventhandlers.go, pkg/util/lifted/scheduler/cache).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "base/result.hpp"
#include "model/cluster.hpp"

namespace kpw::model {

// Resource amounts in karmada's util.Resource units (cpu millicores, everything else whole units,
// each rounded up), sorted by name.
using resource_units = std::vector<std::pair<std::string, std::int64_t>>;

// A corev1.Node as the estimator reads it: labels and name (node affinity), spec.unschedulable and
// spec.taints (tolerations), status.allocatable (the capacity pods are counted against).
struct node {
    std::string name;
    label_map labels;
    bool unschedulable = false;
    std::vector<taint> taints;
    resource_units allocatable; // util.NewResource(status.allocatable): "pods" included
    position where;
};

// A corev1.Pod: only the fields the estimator's cache reads.
struct pod {
    std::string namespace_;
    std::string name;
    std::string uid;       // the cache's key: a pod without one is never added (GetPodKey's error)
    std::string node_name; // spec.nodeName; "" = not assigned (the informer's FilterFunc drops it)
    std::string phase;     // status.phase; Succeeded/Failed pods are not listed (newPodInformer)
    // calculateResource: containers' requests summed, each init container's raising the maximum,
    // overhead added; as stored (kube-apiserver already copied limits into missing requests).
    resource_units requests;
    position where;
};

struct member_state {
    std::string cluster; // the Cluster object's name (the directory's name)
    std::vector<node> nodes;
    std::vector<pod> pods;
};

// Every member state given; a cluster without one has no karmada-scheduler-estimator.
struct member_states {
    std::vector<member_state> members; // sorted by cluster name
    const member_state* find(std::string_view cluster) const;
};

} // namespace kpw::model
