// SPDX-License-Identifier: Apache-2.0
// Karmada's mutating-webhook defaults (validation-rules §3.2), applied to the typed model.
#pragma once

#include <string_view>

#include "model/policy.hpp"

namespace kpw::model {

// M1-M6 of validation-rules §3.2, as karmada's mutating handlers apply them on CREATE and UPDATE.
// Expects the CRD defaults (§3.1) to be in place already (M5 and M6 read their results).
// `request_namespace` is the policy's namespace (PP); M1 is skipped for a ClusterPropagationPolicy.
// M7/M8 (permanent-id label, finalizer) are not applied: they are random or irrelevant to validation.
void apply_mutating_defaults(policy& p, std::string_view request_namespace);

} // namespace kpw::model
