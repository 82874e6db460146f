// SPDX-License-Identifier: Apache-2.0
// model::cluster_taint_policy: policy.karmada.io/v1alpha1 ClusterTaintPolicy (day2-semantics §4.3) and its decoder.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "doc/value.hpp"
#include "field/error.hpp"
#include "model/affinity.hpp"
#include "model/cluster.hpp"

namespace kpw::model {

inline constexpr std::string_view kind_cluster_taint_policy = "ClusterTaintPolicy";

// MatchCondition: {conditionType, operator In|NotIn, statusValues}.
struct match_condition {
    std::string condition_type;
    std::string op; // JSON "operator"
    std::vector<std::string> status_values;
    friend bool operator==(const match_condition&, const match_condition&) = default;
};

struct cluster_taint_policy {
    std::string name;
    std::optional<timestamp> creation_timestamp; // the controller's evaluation order
    std::optional<cluster_affinity> target_clusters; // nullopt: every cluster
    std::vector<match_condition> add_on_conditions;
    std::vector<match_condition> remove_on_conditions;
    std::vector<taint> taints; // key, value, effect (no timeAdded)
    position where;
};

struct cluster_taint_policy_decoding {
    cluster_taint_policy value;
    field::error_list errors;
};

// apiVersion policy.karmada.io/<any version> and kind ClusterTaintPolicy.
bool is_cluster_taint_policy_object(const doc::value& object);

// Lenient decoding with type errors at their paths; also reported: another version than v1alpha1, a
// missing name, an unparsable creationTimestamp, an effect other than NoSchedule/NoExecute and an
// operator other than In/NotIn (the CRD enums).
cluster_taint_policy_decoding decode_cluster_taint_policy(const doc::value& object);

} // namespace kpw::model
