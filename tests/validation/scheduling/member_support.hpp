// SPDX-License-Identifier: Apache-2.0
// Member state and node claims from YAML for the accurate estimator's tests.
#pragma once

#include <string_view>
#include <vector>

#include <doctest/doctest.h>

#include "doc/load.hpp"
#include "model/member_state_decode.hpp"
#include "model/workload_decode.hpp"

namespace kpw::scheduling::test {

// Member "member1" from Nodes and Pods as `kubectl get nodes,pods -o yaml` writes them; any issue fails.
inline model::member_state member(std::string_view yaml)
{
    model::member_state m;
    m.cluster = "member1";
    std::vector<model::member_issue> issues;
    auto docs = doc::load_yaml(yaml);
    REQUIRE(docs);
    for (const auto& d : *docs)
        model::add_member_objects(m, d.root, issues);
    model::seal_member(m, issues);
    for (const auto& i : issues)
        FAIL_CHECK(i.message);
    return m;
}

// The node claim of a pod spec (nodeSelector, affinity, tolerations).
inline model::node_claim claim_of(std::string_view pod_spec_yaml)
{
    auto docs = doc::load_yaml(pod_spec_yaml);
    REQUIRE(docs);
    field::error_list errors;
    auto c = model::decode_node_claim((*docs)[0].root, field::path::root("spec"), errors);
    CHECK(errors.empty());
    REQUIRE(c);
    return *c;
}

} // namespace kpw::scheduling::test
