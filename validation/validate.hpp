// SPDX-License-Identifier: Apache-2.0
// The validation module's front door: the one call `serve` and `lint` both make.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "doc/value.hpp"
#include "field/error.hpp"
#include "model/policy.hpp"
#include "settings/karmada_release.hpp"

namespace kpw {

enum class policy_kind { propagation_policy, cluster_propagation_policy };

// PropagationPolicy / ClusterPropagationPolicy of policy.karmada.io (any version); nullopt otherwise.
std::optional<policy_kind> policy_kind_of(std::string_view api_version, std::string_view kind);
std::string_view kind_name(policy_kind k); // "PropagationPolicy" / "ClusterPropagationPolicy"
// The apiVersion the kind's CRD serves ("policy.karmada.io/v1alpha1"), from the embedded CRD data.
std::string_view served_api_version(policy_kind k);

struct validation_options {
    // Newer Karmada also admits overflowAffinities with Divided + Aggregated; off by default
    // (the project follows the overflow proposal: Divided + Weighted + dynamicWeight only).
    bool allow_aggregated_overflow = false;
    // Whose CRDs and webhook decide (--karmada-version).
    settings::karmada_release release = settings::newest_karmada_release;
};

enum class admission_operation { create, update };

// What the validating webhook decides for one object (Karmada's validating.go, §6-§8 of the rules).
struct admission_verdict {
    enum class outcome { allowed, denied, undecodable };
    outcome result = outcome::allowed;
    std::string message;            // denied: Karmada's aggregate; undecodable: the decode error
    field::error_list errors;       // the field errors behind a denial (empty for U1/U2/label denials)
    field::warning_list warnings;   // never a reason to deny
};

// `object` has passed kube-apiserver decoding, CRD defaults and Karmada's mutating webhook.
// `old_object` is required for update; `request_namespace` is the AdmissionRequest's namespace (the one Karmada
// validates the spec in). `require_permanent_id` mirrors Karmada's label check.
admission_verdict validate_admission(policy_kind kind, admission_operation op, const doc::value& object,
                                     const doc::value* old_object, std::string_view request_namespace,
                                     bool require_permanent_id, const validation_options& options);

// What `kubectl apply` of a manifest would meet: CRD schema + metadata checks on the document as
// written (plus CRD defaults), then Karmada's mutating defaults and the webhook's spec rules.
struct manifest_verdict {
    field::error_list errors;
    field::warning_list warnings;
    std::string policy_namespace; // the namespace the policy was judged in ("" for a CPP)
    doc::value defaulted;        // the object as the API server would store it (for the dry run)
    // Karmada's mutating webhook decodes the object into its Go types before the CRD schema runs: a
    // value of the wrong JSON type there (a string priority) is refused with encoding/json's first
    // type error ("json: cannot unmarshal string into Go struct field PropagationSpec.spec.priority of
    // type int32"), and the API server stops. Empty when the object decodes.
    std::string mutating_refusal;
    std::string mutating_refusal_at; // a rendered field path of the offending value, for its position
};

// kubectl apply of a policy the server already holds (`stored`, as the server stores it) is an UPDATE, and
// Karmada's validating webhook refuses one that changes spec.schedulerName or the permanent-id label
// (rules::validate_update). `defaulted` is manifest_verdict::defaulted of the new version. kubectl's
// three-way merge keeps a label its last apply did not write (the stored last-applied-configuration
// says; without one, `stored_as_applied` says whether `stored` is itself what was applied, as a base
// file of lint --base is) and deletes one it wrote that the new version lacks. Karmada's denial text, or
// nullopt.
std::optional<std::string> update_refusal(policy_kind kind, const doc::value& defaulted, const model::policy& stored,
                                          bool stored_as_applied);

// `default_namespace` applies to a PropagationPolicy without metadata.namespace (kubectl's "default").
manifest_verdict validate_manifest(policy_kind kind, const doc::value& object, std::string_view default_namespace,
                                   const validation_options& options);

} // namespace kpw
