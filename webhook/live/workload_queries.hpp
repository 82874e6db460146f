// SPDX-License-Identifier: Apache-2.0
// workload_queries: which resource templates a set of policies can claim, as the reads that fetch them.
#pragma once

#include <string>
#include <vector>

#include "lint/inputs.hpp"

namespace kpw::live {

// One read: every object of (apiVersion, kind) in `namespace_` ("" = every namespace, or a
// cluster-scoped kind), or just `name` in it.
struct workload_query {
    std::string api_version, kind, namespace_, name;
    friend bool operator==(const workload_query&, const workload_query&) = default;
};

// From the PropagationPolicies and ClusterPropagationPolicies of `policies` (documents that do not parse
// or are not policies are skipped: lint reports them): their resourceSelectors, merged so that no object
// is read twice (a namespace-wide read drops the named reads in it, an all-namespaces read drops both).
// A PropagationPolicy selects in its own namespace (metadata.namespace, else `default_namespace`);
// a ClusterPropagationPolicy in the selector's namespace, or every namespace. Sorted.
std::vector<workload_query> workload_queries(const lint::input_set& policies, const std::string& default_namespace);

} // namespace kpw::live
