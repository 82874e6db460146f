// SPDX-License-Identifier: Apache-2.0
// Placement rules: affinity co-existence, overflow scheduling mode, workload affinity, tolerations.
#include "rules/rules.hpp"

#include "model/encode.hpp"
#include "rules/label_key.hpp"

namespace kpw::rules {
namespace {

constexpr std::string_view overflow_upstream_msg =
    "overflowAffinities can only be used together with dynamic weight or aggregated scheduling";
constexpr std::string_view overflow_project_msg =
    "overflowAffinities require replicaScheduling with replicaSchedulingType Divided, "
    "replicaDivisionPreference Weighted and weightPreference.dynamicWeight set";

// Whether overflow tiers may be used with this replica scheduling (judged on defaulted values).
// Upstream admits Divided + Aggregated too; the project follows the overflow proposal and admits
// only Divided + Weighted + dynamicWeight unless allow_aggregated_overflow is set (issue 2).
bool overflow_allowed(const model::placement& p, bool allow_aggregated)
{
    if (!p.replica_scheduling || p.replica_scheduling->replica_scheduling_type != model::replica_scheduling_divided)
        return false;
    const auto& rs = *p.replica_scheduling;
    if (rs.replica_division_preference == model::division_preference_aggregated)
        return allow_aggregated;
    return rs.replica_division_preference == model::division_preference_weighted && rs.weight_preference &&
           !rs.weight_preference->dynamic_weight.empty();
}

// P2 for every term with overflow tiers, in index order (reported before all per-term errors).
// karmada: pkg/util/validation/validation.go validateOverflowAffinities (scheduling-mode part)
void validate_overflow_mode(const model::placement& p, const field::path& at, const options& opts,
                            field::error_list& errs)
{
    if (overflow_allowed(p, opts.allow_aggregated_overflow))
        return;
    const std::string_view msg = opts.allow_aggregated_overflow ? overflow_upstream_msg : overflow_project_msg;
    for (std::size_t i = 0; i < p.cluster_affinities.size(); ++i) {
        const auto& tiers = p.cluster_affinities[i].overflow_affinities;
        if (tiers.non_nil())
            errs.push_back(field::invalid(at.child("clusterAffinities").index(i).child("overflowAffinities"),
                                          model::go_json(tiers), std::string(msg)));
    }
}

// W1-W3. karmada: pkg/util/validation/validation.go ValidateWorkloadAffinity
void validate_workload_affinity(const model::workload_affinity& w, const field::path& at, field::error_list& errs)
{
    if (w.affinity)
        validate_label_key(w.affinity->group_by_label_key, at.child("affinity").child("groupByLabelKey"), errs);
    if (w.anti_affinity)
        validate_label_key(w.anti_affinity->group_by_label_key, at.child("antiAffinity").child("groupByLabelKey"),
                           errs);
    // Reported on workloadAffinity; positioned at the second of the two keys.
    if (w.affinity && w.anti_affinity && w.affinity->group_by_label_key == w.anti_affinity->group_by_label_key)
        errs.push_back(field::located(field::invalid(at, model::go_json(w),
                                                     "affinity and antiAffinity must not use the same groupByLabelKey"),
                                      at.child("antiAffinity").child("groupByLabelKey")));
}

// T1. karmada: pkg/util/validation/validation.go ValidateClusterTolerations (Lt/Gt are node-only operators)
void validate_tolerations(const std::vector<model::toleration>& tolerations, const field::path& at,
                          settings::karmada_release release, field::error_list& errs)
{
    if (!settings::has(release, settings::changes::cluster_toleration_operators))
        return;
    for (std::size_t i = 0; i < tolerations.size(); ++i) {
        const auto& op = tolerations[i].op;
        if (op == "Lt" || op == "Gt")
            errs.push_back(field::not_supported(at.index(i).child("operator"), field::go_quote(op),
                                                {"", "Exists", "Equal"}));
    }
}

} // namespace

// karmada: pkg/util/validation/validation.go ValidatePlacement
void validate_placement(const model::placement& p, const field::path& at, const options& opts,
                        field::error_list& errs)
{
    // P1: Go's `!= nil`, so an explicit `[]` counts where the object still has one (an admission review;
    // the mutating webhook's round trip drops it from what kubectl applies).
    // Reported on the placement; positioned at clusterAffinities, the field the message names first.
    if (p.cluster_affinity && p.cluster_affinities.non_nil())
        errs.push_back(field::located(
            field::invalid(at, model::go_json(p), "clusterAffinities cannot co-exist with clusterAffinity"),
            at.child("clusterAffinities")));
    validate_overflow_mode(p, at, opts, errs);
    if (p.cluster_affinity)
        validate_cluster_affinity(*p.cluster_affinity, at.child("clusterAffinity"), errs);
    validate_cluster_affinities(p.cluster_affinities, at.child("clusterAffinities"), errs, opts.release);
    validate_spread_constraints(p.spread_constraints, at.child("spreadConstraints"), errs);
    if (p.workload_affinity)
        validate_workload_affinity(*p.workload_affinity, at.child("workloadAffinity"), errs);
    validate_tolerations(p.cluster_tolerations, at.child("clusterTolerations"), opts.release, errs);
}

} // namespace kpw::rules
