// SPDX-License-Identifier: Apache-2.0
// The accurate estimator: what karmada-scheduler-estimator answers for one member cluster
// (MaxAvailableReplicas), from the member's Nodes and Pods. docs/estimator.md lists the Karmada files.
#pragma once

#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <vector>

#include "model/member_state.hpp"
#include "model/node_claim.hpp"
#include "model/workload.hpp"

namespace kpw::scheduling {

// One node as the estimator's NodeResourceEstimator sees it after getNodesAvailableResources:
// allocatable minus the requests of its pods (each clamped at 0, Resource.SubResource), and the pod
// count limit minus the number of its pods.
struct prepared_node {
    const model::node* node = nullptr;
    std::int64_t milli_cpu = 0;
    std::int64_t memory = 0;
    std::int64_t ephemeral_storage = 0;
    std::int64_t pods = 0;
    std::map<std::string, std::int64_t, std::less<>> scalars; // extended resources, hugepages-, ...
};

// A member's nodes, prepared once per snapshot (borrows the member state).
struct prepared_member {
    std::vector<prepared_node> nodes;
    // Indices into `nodes` in the order of the estimator snapshot's node list, which first-fit packing
    // walks (the sum of MaxAvailableReplicas does not depend on it): the cache's nodeTree.list(), one node
    // of each zone in turn (zones in the order first seen, GetZoneKey: region and zone labels, beta labels
    // first), each zone's nodes in the order the informer added them, which is the name order the
    // kube-apiserver lists them in.
    std::vector<std::size_t> snapshot_order;
};

// The estimator's cache: pods with a nodeName of a listed node and a phase other than Succeeded and
// Failed count against that node (assignedPod, newPodInformer's field selector).
prepared_member prepare_member(const model::member_state& state);

// What bounds the accurate answer, for --explain.
struct accurate_estimate {
    std::int32_t replicas = 0;
    std::size_t nodes = 0;          // nodes in the member
    std::size_t matching = 0;       // nodes that pass the node claim (affinity, selector, taints)
    std::string bound;              // the resource that bounds most matching nodes ("cpu", "pods", ...)
    std::string first_excluded;     // the first excluded node and why ("idc-b: taint k=v:NoSchedule", ...)
    std::string component;          // component sets: the component that no longer fits (the others: its)
    // Non-empty: the call fails (karmada-scheduler then drops every karmada-scheduler-estimator answer of
    // the scheduling, available.hpp), and why. Only component sets can fail this way.
    std::string failure;
};

// NodeResourceEstimator.Estimate (the only plugin enabled by default; ResourceQuotaEstimate is off):
// the sum over matching nodes of Resource.MaxDivided(request), each converted to int32 and summed in
// int32 as Go does; a member without nodes answers 0. `claim` nullptr: no node claim.
accurate_estimate estimate_accurate(const prepared_member& member, const model::replica_request& request,
                                    const model::node_claim* claim);

// NodeResourceEstimator.EstimateComponents (MaxAvailableComponentSets): first-fit packing of complete
// sets on the member's nodes in snapshot order (estimator/scheduling_simulator_components.go
// SimulateScheduling, v1.17.1 and v1.18.2; the per-pod loop of noderesource.go in v1.16.0 packs the same):
// for each set, each component in order places its replicas on the nodes its node claim matches, each
// node taking min(remaining, MaxDivided(request + 1 pod)) and giving up those resources, until a
// component cannot place them all. `replicas` is the number of complete sets; `bound` names the
// component that no longer fits and what bounds it ("cpu of component worker"), `matching` and
// `first_excluded` are that component's. A member without nodes answers 0. A loop that reaches
// MaxInt32 sets (v1.17.1 and v1.18.2 stop there, v1.16.0 never stops; every component of 0 replicas is
// one way) is a call that times out: `failure` says so.
accurate_estimate estimate_accurate_sets(const prepared_member& member, std::span<const model::component> components);

// "karmada-scheduler-estimator: cpu (3 of 5 node(s) match; excluded gpu-1: taint gpu=true:NoSchedule)";
// "pod count" when the pods a node still allows bind; "no node matches (excluded ...)"; for component
// sets "cpu of component worker (1 of 1 node(s) match)", "no node matches component worker (...)".
std::string describe(const accurate_estimate& e);

} // namespace kpw::scheduling
