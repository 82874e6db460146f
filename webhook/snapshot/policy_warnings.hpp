// SPDX-License-Identifier: Apache-2.0
// What a snapshot says about one admitted policy, as AdmissionReview warning texts (serve --clusters).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "model/policy.hpp"
#include "scheduling/simulator.hpp"
#include "snapshot/load.hpp"

namespace kpw::snapshot {

// One text per affinity that matches no cluster of the snapshot (lint's "affinity-matches-no-cluster"),
// then one per known workload the policy would claim but leave unschedulable. A workload counts as
// claimed when the policy alone would claim it (karmada's detector rules for one policy): serve does
// not know the other policies. `policy_namespace` is empty for a ClusterPropagationPolicy.
// Texts are not sanitised or cut here: the admission layer does that for every warning.
std::vector<std::string> policy_warnings(const state& known, const model::policy& policy,
                                         std::string_view policy_namespace, const scheduling::options& options = {});

} // namespace kpw::snapshot
