// SPDX-License-Identifier: Apache-2.0
// Karmada's validating-webhook rules, one function per API struct (karmada pkg/util/validation/validation.go).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "field/error.hpp"
#include "model/policy.hpp"
#include "settings/karmada_release.hpp"

namespace kpw::rules {

struct options {
    // The policy's namespace for a PropagationPolicy (rule R1); empty for a ClusterPropagationPolicy.
    std::string_view request_namespace;
    // Also admit overflowAffinities with Divided + Aggregated (newer upstream); see rule P2.
    bool allow_aggregated_overflow = false;
    // The release whose webhook decides (settings::changes says what differs).
    settings::karmada_release release = settings::newest_karmada_release;
};

// The whole spec, errors appended in the order of validation-rules §6.10. Expects the defaulted
// model (CRD + mutating defaults). Never throws.
// karmada: pkg/util/validation/validation.go ValidatePropagationSpec (+ the webhook's namespace check)
field::error_list validate_propagation_spec(const model::propagation_spec& spec, const options& opts);

// P1, P2, F1, clusterAffinities, spread constraints, workload affinity, tolerations (§6.3-6.8).
void validate_placement(const model::placement& p, const field::path& at, const options& opts,
                        field::error_list& errs);

// F1: a cluster affinity's field selector (§6.4).
void validate_cluster_affinity(const model::cluster_affinity& a, const field::path& at, field::error_list& errs);

// A1-A3 and O1-O4 for every term (§6.5).
void validate_cluster_affinities(const std::vector<model::cluster_affinity_term>& terms, const field::path& at,
                                 field::error_list& errs,
                                 settings::karmada_release release = settings::newest_karmada_release);

// The FS rule: the first unsupported key or operator of a field selector, or nullopt.
std::optional<std::string> field_selector_error(const model::field_selector& s);

// S1-S6 (§6.6).
void validate_spread_constraints(const std::vector<model::spread_constraint>& constraints, const field::path& at,
                                 field::error_list& errs);

// D1, FA1-FA5, FC1 (§6.9).
void validate_failover(const model::propagation_spec& spec, const field::path& spec_path, field::error_list& errs,
                       settings::karmada_release release = settings::newest_karmada_release);

// Object metadata as the generic apiserver checks it before any webhook, in its order (§4.2):
// metadata.name required and a DNS-1123 subdomain; label keys and values; annotation keys and their
// total size; finalizer names.
// kube-apiserver: apimachinery ValidateObjectMetaAccessor (NameIsDNSSubdomain), ValidateLabels,
// ValidateAnnotations, ValidateFinalizers
// `namespaced` (a PropagationPolicy): a non-empty metadata.namespace must be a DNS-1123 label.
// `release`: whose apimachinery words the name checks (settings::changes::apimachinery_name_wording).
void validate_object_meta(const model::object_meta& meta, bool namespaced, field::error_list& errs,
                          settings::karmada_release release = settings::newest_karmada_release);

// UPDATE-only checks U1, U2 (§6.1): the denial message, or nullopt when the update may proceed.
std::optional<std::string> validate_update(const model::policy& now, const model::policy& old);

// The permanent-id label check (§6.2): the denial message, or nullopt when the label is present.
std::optional<std::string> validate_permanent_id(const model::policy& p);

// The label key of a kind's permanent id (PP or CPP).
std::string_view permanent_id_label(std::string_view kind);

// Findings that never deny (see rules/catalogue.hpp for the list and why each matters).
field::warning_list spec_warnings(const model::propagation_spec& spec);

} // namespace kpw::rules
