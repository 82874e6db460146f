// SPDX-License-Identifier: Apache-2.0
// What one replica of a pod spec requests: as Karmada counts it for its estimators, and, where the two part
// (restartable init containers, "sidecars"), as the members' kube-scheduler counts it.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "doc/value.hpp"
#include "field/error.hpp"
#include "model/workload.hpp"

namespace kpw::model {

// karmada util.Resource's units: cpu in millicores, every other resource in whole units, each rounded up.
std::int64_t karmada_units(std::string_view name, const quantity& q);

// karmada util.Resource.Add keeps cpu, memory, ephemeral-storage, pods and scalar resources (extended,
// hugepages-, kubernetes.io/-prefixed, attachable-volumes-); every other name is dropped.
bool karmada_keeps(std::string_view name);

// The per-replica request of a pod spec as karmada sums it (helper.GenerateReplicaRequirements):
// limits stand in for missing requests, regular containers are summed, init containers raise the
// per-resource maximum, overhead is added, all in Go int64 (wrapping); util.Resource.Add keeps cpu,
// memory, ephemeral-storage, pods and scalar resources only, and ResourceList() the values above 0.
replica_request pod_request(const doc::value& pod_spec, const field::path& at, field::error_list& errors);

// The sidecar_gap of a pod spec whose pod_request is `karmada` (model/workload.hpp); nullopt when the spec has
// no sidecar, or when kube-scheduler counts no resource higher than Karmada.
std::optional<sidecar_gap> sidecar_gap_of(const doc::value& pod_spec, const replica_request& karmada);

// "cpu 1500m, memory 2Gi" (karmada units: cpu in millicores, the rest whole units; memory in Mi/Gi when exact).
std::string describe_request(const replica_request& r);

} // namespace kpw::model
