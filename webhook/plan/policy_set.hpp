// SPDX-License-Identifier: Apache-2.0
// policy_set: the policies on the server once PATH is applied (kubectl apply semantics: same kind,
// namespace and name replaces; --prune deletes what PATH no longer holds).
#pragma once

#include <functional>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "lint/dry_run.hpp"
#include "lint/inputs.hpp"

namespace kpw::plan {

using lint::key_of;
using lint::policy_key;

// The PropagationPolicies and ClusterPropagationPolicies of `inputs` (List items too); a
// PropagationPolicy without a namespace is in `default_namespace`. Documents that do not parse are
// skipped here (lint reports them).
// `enforce_namespace` (-n given): a PropagationPolicy of another namespace is one kubectl apply refuses, so
// it is no key of what is applied (lint reports the refusal).
std::set<policy_key> policy_keys(const lint::input_set& inputs, const std::string& default_namespace,
                                 bool enforce_namespace = false);

// The policies of `inputs` that carry kubectl.kubernetes.io/last-applied-configuration: the ones kubectl
// apply created or last wrote client-side, the only ones its --prune deletes.
std::set<policy_key> last_applied_keys(const lint::input_set& inputs, const std::string& default_namespace);

// What --prune does to the server's policies PATH does not hold.
struct prune_outcome {
    std::set<policy_key> deleted;
    std::set<policy_key> not_applied; // in scope, but without the last-applied annotation: never pruned
    // Would be deleted, but PATH does not apply cleanly (a policy denied, a file kubectl cannot read):
    // kubectl apply returns its errors before its post-processor prunes (apply.go Run), so nothing is.
    std::set<policy_key> blocked;
};

// --prune, as `kubectl apply --prune --all` with the policy kinds in its --prune-allowlist (kubectl
// pkg/cmd/apply/prune.go, pruner.pruneAll and pruner.prune): PropagationPolicies only in the namespaces
// of what PATH applies (MarkNamespaceVisited: here PATH's PropagationPolicies' namespaces, and the
// namespace of -n, which kubectl enforces: `enforced_namespace`, empty when not given), and every
// ClusterPropagationPolicy (non-namespaced kinds are pruned whatever PATH holds); of those, only the ones
// with the last-applied annotation (`last_applied`), and never one PATH holds (visitedUids).
prune_outcome pruned_keys(const std::set<policy_key>& server, const std::set<policy_key>& last_applied,
                          const std::set<policy_key>& applied, const std::string& enforced_namespace);

// The typed policies among `admitted` (run_lint's, with `r` its report) whose key is in `keys`: the policies a
// change deletes, as they are on the server (selectors and permanent id included).
std::vector<model::policy> admitted_policies(const lint::report& r, const std::vector<lint::typed_policy>& admitted,
                                             const std::set<policy_key>& keys);

// The policies `validated` (PATH linted, no dry run needed) denies and that no admitted document of PATH
// replaces: kubectl apply fails for each, and the server keeps the version it has, which still claims
// what it selects.
std::set<policy_key> refused_keys(const lint::report& validated);

// The typed policies among `admitted` (run_lint's, with `r` its report) by key: what the server
// holds before the change, which makes a policy of PATH with the same key an UPDATE (lint_options::stored).
std::map<policy_key, model::policy> stored_policies(const lint::report& r, const std::vector<lint::typed_policy>& admitted);

// The typed policies among `admitted` (run_lint's, with `r` its report) whose key is in `keys`, as they stand
// on the server: the server's versions of the policies whose update is refused (refused_keys).
std::vector<lint::standing_policy> standing_policies(const lint::report& r,
                                                     const std::vector<lint::typed_policy>& admitted,
                                                     const std::set<policy_key>& keys);

// Whether a policy is one of `admitted` (run_lint's, with `r` its report) unchanged: same kind, namespace
// and name as admitted, and a change the detector of `release` does not reconcile
// (scheduling::reconciled_on_update; dry_run_context::settled). `applied`: the admitted objects as written
// are what kubectl last applied (lint --base's files), so a difference in what PATH writes counts too.
std::function<bool(const lint::typed_policy&)> unchanged_from(const lint::report& r,
                                                              const std::vector<lint::typed_policy>& admitted,
                                                              settings::karmada_release release, bool applied);

// The version among `admitted` (run_lint's, with `r` its report; they must outlive the function) that a
// policy of the change updates, nullptr for a policy it creates (dry_run_context::base_version).
std::function<const model::policy*(const lint::typed_policy&)> base_version_from(
    const lint::report& r, const std::vector<lint::typed_policy>& admitted);

// The server's policy lists without the policies in `drop` (replaced by PATH, or pruned): each list
// re-encoded as JSON with the same file name.
lint::input_set without(const lint::input_set& server, const std::set<policy_key>& drop);

} // namespace kpw::plan
