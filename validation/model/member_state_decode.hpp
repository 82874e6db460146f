// SPDX-License-Identifier: Apache-2.0
// Decoding a member cluster's Nodes and Pods (`kubectl get nodes,pods -A -o yaml` against the member)
// into model::member_state, each problem at the offending field.
#pragma once

#include <string>
#include <vector>

#include "base/result.hpp"
#include "doc/value.hpp"
#include "model/member_state.hpp"

namespace kpw::model {

struct member_issue {
    position where;
    std::string message; // "Node worker-1: status.allocatable[cpu]: Invalid value: ..."
};

// Adds the Nodes and Pods of one document to `out`: a v1 List (its items), a NodeList/PodList, or a
// single Node or Pod. Any other kind is an issue: the member state holds what the estimator reads,
// nothing else (a ResourceQuota is read only behind the estimator's ResourceQuotaEstimate gate, off by
// default in every release, and is not modelled). Decoding is lenient like the estimator's informers:
// unknown fields are ignored, a field of the wrong type is an issue and reads as its zero value.
void add_member_objects(member_state& out, const doc::value& root, std::vector<member_issue>& issues);

// After every file of the member is in: nodes and pods sorted by name, duplicates (two Nodes of one
// name, two Pods of one uid) reported, since a cluster cannot hold them.
void seal_member(member_state& state, std::vector<member_issue>& issues);

} // namespace kpw::model
