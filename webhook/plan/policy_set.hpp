// SPDX-License-Identifier: Apache-2.0
// policy_set: the policies on the server once PATH is applied (kubectl apply semantics: same kind,
// namespace and name replaces; --prune deletes what PATH no longer holds).
#pragma once

#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "lint/inputs.hpp"

namespace kpw::plan {

// A policy's identity on the server; namespace_ is "" for a ClusterPropagationPolicy.
struct policy_key {
    std::string kind, namespace_, name;
    auto operator<=>(const policy_key&) const = default;
};

// The PropagationPolicies and ClusterPropagationPolicies of `inputs` (List items too); a
// PropagationPolicy without a namespace is in `default_namespace`. Documents that do not parse are
// skipped here (lint reports them).
std::set<policy_key> policy_keys(const lint::input_set& inputs, const std::string& default_namespace);

// --prune, as `kubectl apply --prune --all`: which server policies applying `applied` deletes:
// PropagationPolicies of the namespaces `applied` has PropagationPolicies in, and every
// ClusterPropagationPolicy when `applied` has one, that `applied` does not hold.
std::set<policy_key> pruned_keys(const std::set<policy_key>& server, const std::set<policy_key>& applied);

// The server's policy lists without the policies in `drop` (replaced by PATH, or pruned): each list
// re-encoded as JSON with the same file name.
lint::input_set without(const lint::input_set& server, const std::set<policy_key>& drop);

} // namespace kpw::plan
