// SPDX-License-Identifier: Apache-2.0
// Where Karmada's estimate of a replica and the member's kube-scheduler part: sidecar init containers.
#pragma once

#include <optional>
#include <string>

#include "model/placement.hpp"
#include "model/workload.hpp"

namespace kpw::scheduling {

// The warning text (sidecar-request-not-counted) for a workload whose pod template has sidecars that
// Karmada counts for less than the member's kube-scheduler does (model::sidecar_gap), when `placement`
// divides its replicas by the clusters' capacity (dynamic weight or Aggregated: the estimators answer how
// many replicas fit); nothing otherwise. The dry run itself stays Karmada's.
std::optional<std::string> sidecar_request_not_counted(const model::placement& placement, const model::workload& w);

} // namespace kpw::scheduling
