// SPDX-License-Identifier: Apache-2.0
// model -> doc::value in Go encoding/json's shape: struct field order, omitempty, sorted map keys.
#pragma once

#include <string>
#include <vector>

#include "doc/value.hpp"
#include "model/policy.hpp"

namespace kpw::model {

// Each API struct as Go's json.Marshal would emit it (validation-rules §7.2). doc::to_json of the
// result is the compact JSON Karmada shows as a bad value.
doc::value to_value(const selector_requirement& v);
doc::value to_value(const label_selector& v);
doc::value to_value(const field_selector& v);
doc::value to_value(const cluster_affinity& v);
doc::value to_value(const overflow_cluster_affinity& v);
doc::value to_value(const cluster_affinity_term& v);
doc::value to_value(const toleration& v);
doc::value to_value(const spread_constraint& v);
doc::value to_value(const static_cluster_weight& v);
doc::value to_value(const cluster_preferences& v);
doc::value to_value(const replica_scheduling_strategy& v);
doc::value to_value(const workload_affinity_term& v);
doc::value to_value(const workload_affinity& v);
doc::value to_value(const placement& v);
doc::value to_value(const state_preservation_rule& v);
doc::value to_value(const state_preservation& v);
doc::value to_value(const decision_conditions& v);
doc::value to_value(const application_failover_behavior& v);
doc::value to_value(const cluster_failover_behavior& v);
doc::value to_value(const failover_behavior& v);
doc::value to_value(const suspend_clusters& v);
doc::value to_value(const schedule_priority& v);
doc::value to_value(const suspension& v);
doc::value to_value(const resource_selector& v);
doc::value to_value(const propagation_spec& v);
doc::value to_value(const object_meta& v);
// The whole object: kind, apiVersion, metadata, spec (TypeMeta is inlined first in Go).
doc::value to_value(const policy& v);

template <class T>
doc::value to_value(const std::vector<T>& list)
{
    doc::value out = doc::value::sequence();
    for (const auto& item : list)
        out.push_back(to_value(item));
    return out;
}

// Compact Go JSON of any API struct or list of them.
template <class T>
std::string go_json(const T& v)
{
    return doc::to_json(to_value(v));
}

} // namespace kpw::model
