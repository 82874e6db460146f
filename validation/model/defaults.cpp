// SPDX-License-Identifier: Apache-2.0
// Mutating defaults of karmada pkg/webhook/{propagationpolicy,clusterpropagationpolicy}/mutating.go.
#include "model/defaults.hpp"

namespace kpw::model {
namespace {

// karmada: pkg/util/helper/policy.go SetDefaultSpreadConstraints (M2, M3).
void default_spread_constraints(std::vector<spread_constraint>& constraints)
{
    for (auto& c : constraints) {
        if (c.spread_by_field.empty() && c.spread_by_label.empty())
            c.spread_by_field = spread_by_field_cluster;
        if (c.min_groups == 0)
            c.min_groups = 1;
    }
}

// karmada: pkg/util/helper/policy.go ContainsServiceImport (M4): exact group/version match only.
bool selects_service_import(const std::vector<resource_selector>& selectors)
{
    for (const auto& s : selectors)
        if (s.kind == "ServiceImport" && s.api_version == "multicluster.x-k8s.io/v1alpha1")
            return true;
    return false;
}

// karmada: pkg/util/helper/policy.go SetReplicaDivisionPreferenceWeighted (M5).
void default_division_preference(placement& p)
{
    if (!p.replica_scheduling)
        return; // no strategy means Duplicated: nothing to default
    auto& rs = *p.replica_scheduling;
    if (rs.replica_scheduling_type == replica_scheduling_divided && rs.replica_division_preference.empty())
        rs.replica_division_preference = division_preference_weighted;
}

// karmada: pkg/util/helper/policy.go SetDefaultGracePeriodSeconds (M6): the deprecated Graciously too, so
// v1.18.2 admits `purgeMode: Graciously` without gracePeriodSeconds (held-out divergence, issue 36).
void default_grace_period(std::optional<failover_behavior>& failover)
{
    if (!failover || !failover->application)
        return;
    auto& app = *failover->application;
    if (purges_gracefully(app.purge_mode) && !app.grace_period_seconds)
        app.grace_period_seconds = 600;
}

} // namespace

void apply_mutating_defaults(policy& p, std::string_view request_namespace)
{
    auto& spec = p.spec;
    // M1: karmada propagationpolicy/mutating.go fills empty selector namespaces (PP only).
    if (p.kind != kind_cluster_propagation_policy)
        for (auto& s : spec.resource_selectors)
            if (s.ns.empty())
                s.ns = request_namespace;
    default_spread_constraints(spec.placement.spread_constraints);
    if (selects_service_import(spec.resource_selectors))
        spec.propagate_deps = true;
    default_division_preference(spec.placement);
    default_grace_period(spec.failover);
}

} // namespace kpw::model
