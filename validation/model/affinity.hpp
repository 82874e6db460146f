// SPDX-License-Identifier: Apache-2.0
// Typed model: label/field selectors, cluster affinities, affinity terms and overflow tiers.
#pragma once

// Part of the typed model; include model/policy.hpp (see there for the presence conventions).

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "model/go_collection.hpp"

namespace kpw::model {

// ---- selectors ----------------------------------------------------------------------------

// metav1.LabelSelectorRequirement and corev1.NodeSelectorRequirement share this shape.
struct selector_requirement {
    std::string key;
    std::string op; // JSON "operator" (a C++ keyword)
    go_slice<std::string> values;
    friend bool operator==(const selector_requirement&, const selector_requirement&) = default;
};

// metav1.LabelSelector.
struct label_selector {
    go_map<std::string, std::string> match_labels; // sorted, as Go encodes maps
    go_slice<selector_requirement> match_expressions;
    friend bool operator==(const label_selector&, const label_selector&) = default;
};

// FieldSelector: keys provider/region/zone, operators In/NotIn (checked by the webhook).
struct field_selector {
    go_slice<selector_requirement> match_expressions;
    friend bool operator==(const field_selector&, const field_selector&) = default;
};

// ClusterAffinity.
struct cluster_affinity {
    std::optional<model::label_selector> label_selector;
    std::optional<model::field_selector> field_selector;
    go_slice<std::string> cluster_names;
    go_slice<std::string> exclude;
    friend bool operator==(const cluster_affinity&, const cluster_affinity&) = default;
};

// OverflowClusterAffinity: a named overflow tier; the ClusterAffinity is inlined in JSON.
struct overflow_cluster_affinity {
    std::string affinity_name;
    model::cluster_affinity cluster_affinity; // inline
    friend bool operator==(const overflow_cluster_affinity&, const overflow_cluster_affinity&) = default;
};

// ClusterAffinityTerm: one scheduling group; the ClusterAffinity is inlined in JSON.
struct cluster_affinity_term {
    std::string affinity_name;
    model::cluster_affinity cluster_affinity; // inline
    go_slice<overflow_cluster_affinity> overflow_affinities;
    friend bool operator==(const cluster_affinity_term&, const cluster_affinity_term&) = default;
};

} // namespace kpw::model
