// SPDX-License-Identifier: Apache-2.0
// lint: validates policy manifests exactly as `kubectl apply` to a Karmada control plane would judge them.
#pragma once

#include <map>

#include <string>
#include <vector>

#include "lint/dry_run.hpp"
#include "lint/inputs.hpp"
#include "lint/report.hpp"
#include "schema/schema.hpp"
#include "settings/feature_gates.hpp"
#include "validate.hpp"

namespace kpw::lint {

struct lint_options {
    std::string default_namespace = "default"; // kubectl's namespace for a PropagationPolicy without one
    // -n given on the command line: kubectl apply -n then refuses a namespaced object of another namespace
    // (cli-runtime's RequireNamespace visitor, which the builder adds when the namespace is enforced).
    bool enforce_namespace = false;
    validation_options validation;
    // --validate: what an unknown field does, as kubectl's flag of that name (sent to the API server as
    // fieldValidation). Strict, kubectl's default since 1.27: the object is refused (BadRequest).
    schema::field_validation field_validation = schema::field_validation::strict;
    // --clusters / --workloads: the dry-run scheduling check (null: validation only).
    const dry_run_context* dry_run = nullptr;
    bool unschedulable_is_error = true; // --unschedulable=error|warn
    bool explain = false;               // --explain: every considered cluster in the text output
    settings::feature_gates feature_gates; // --feature-gates, karmada-scheduler's syntax; Karmada's defaults
    // How validation.release was chosen ("--karmada-version v1.17", "the server: ..."); "" for the default.
    std::string release_decided_by;
    // lint --base and plan: the policies on the server before the change, by key (null: none). A
    // policy of PATH whose old version is here is an UPDATE to Karmada's validating webhook
    // (update_refusal: spec.schedulerName and the permanent-id label cannot change).
    const std::map<policy_key, model::policy>* stored = nullptr;
    // The stored policies are the files kubectl last applied (lint --base), not the server's objects (plan).
    bool stored_as_applied = false;
};


// Lints every document of every input: documents of other kinds are counted as skipped, `kind: List`
// items are linted one by one, unparsable files become file_errors.
report run_lint(const input_set& inputs, const lint_options& options);

// The same, also handing back every admitted policy in typed, defaulted form (`simulate` takes the
// policies as lint admits them).
report run_lint(const input_set& inputs, const lint_options& options, std::vector<typed_policy>& admitted);

// One policy object (already loaded) into a result; positions resolved against `object`.
policy_result lint_policy(policy_kind kind, const doc::value& object, const std::string& file, int document,
                          const lint_options& options);

// 0: every policy allowed; 1: a denial or an unschedulable workload; 2: a file could not be read or parsed.
int exit_code(const report& r);

} // namespace kpw::lint
