// SPDX-License-Identifier: Apache-2.0
// The in-tree filter plugins karmada-scheduler runs on every cluster (spec 2.1).
#pragma once

#include <span>
#include <string>
#include <string_view>

#include "model/cluster.hpp"
#include "model/policy.hpp"

namespace kpw::scheduling {

// Standard metav1.LabelSelector semantics: all matchLabels and all matchExpressions. An empty selector
// matches everything; a selector that would not parse (unknown operator, In/NotIn without values,
// Exists/DoesNotExist with values) matches nothing, as LabelSelectorAsSelector's error makes it.
bool selector_matches(const model::label_selector& selector, const model::label_map& labels);

// karmada: pkg/util/selector.go — zone against spec.zones, provider/region as labels of a synthetic set.
bool field_selector_matches(const model::field_selector& selector, const model::cluster& cluster);

// karmada: util.ClusterMatches — exclude, then labelSelector, then fieldSelector, then clusterNames.
bool cluster_matches(const model::cluster& cluster, const model::cluster_affinity& affinity);

// karmada: plugins/tainttoleration — the first NoSchedule/NoExecute taint no toleration tolerates, or
// nullptr when the cluster passes.
const model::taint* untolerated_taint(const model::cluster& cluster, std::span<const model::toleration> tolerations);

bool tolerates(const model::toleration& toleration, const model::taint& taint);

// karmada: plugins/apienablement — the group version lists the kind. Absent means disabled or unknown;
// both fail.
bool api_enabled(const model::cluster& cluster, std::string_view api_version, std::string_view kind);

// karmada: plugins/spreadconstraint — the spreadByField a cluster cannot be grouped by (provider,
// region or zone with an empty field), or "" when it passes. spreadByLabel filters nothing.
std::string_view missing_spread_field(const model::cluster& cluster,
                                      std::span<const model::spread_constraint> constraints);

// "key=value:Effect" as Kubernetes' Taint.ToString renders a taint (the FitError text uses it).
std::string taint_string(const model::taint& taint);

// Why cluster_matches is false, in the order it checks ("" when it matches): the exclude list, the
// labelSelector, the fieldSelector or clusterNames.
std::string affinity_mismatch(const model::cluster& cluster, const model::cluster_affinity& affinity);

} // namespace kpw::scheduling
