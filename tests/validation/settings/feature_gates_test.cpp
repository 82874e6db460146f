// SPDX-License-Identifier: Apache-2.0
#include "settings/feature_gates.hpp"

#include <doctest/doctest.h>

using kpw::settings::feature_gates;
using kpw::settings::parse_feature_gates;

TEST_CASE("feature gates start at the binaries' defaults")
{
    feature_gates g;
    CHECK_FALSE(g.failover());
    CHECK(g.graceful_eviction());
    CHECK(g.customized_cluster_resource_modeling());
    CHECK_FALSE(g.priority_based_scheduling()); // alpha and off in v1.18.2 (beta and on only after it)
    CHECK_FALSE(g.policy_preemption());
    CHECK_FALSE(g.multiple_pod_templates_scheduling());
    CHECK(g.non_defaults().empty());
}

TEST_CASE("--feature-gates sets named gates and says what differs from the defaults")
{
    auto g = parse_feature_gates(" Failover=true, GracefulEviction=false ,MultiplePodTemplatesScheduling=t");
    REQUIRE(g.ok());
    CHECK(g->failover());
    CHECK_FALSE(g->graceful_eviction());
    CHECK(g->multiple_pod_templates_scheduling());
    CHECK(g->non_defaults() == "Failover=true,GracefulEviction=false,MultiplePodTemplatesScheduling=true");
}

TEST_CASE("AllAlpha and AllBeta set every gate of their stage except those named explicitly")
{
    auto g = parse_feature_gates("PropagationPolicyPreemption=false,AllAlpha=true,AllBeta=true");
    REQUIRE(g.ok());
    CHECK(g->failover()); // Beta
    CHECK(g->multiple_pod_templates_scheduling()); // Alpha
    CHECK_FALSE(g->policy_preemption()); // named: wins whatever the order
    auto off = parse_feature_gates("AllBeta=false");
    REQUIRE(off.ok());
    CHECK_FALSE(off->graceful_eviction());
    CHECK_FALSE(off->multiple_pod_templates_scheduling()); // Alpha stays at its default
}

TEST_CASE("an unknown gate, a missing value and a non-boolean value are errors naming the entry")
{
    auto unknown = parse_feature_gates("Failover=true,Failovr=true");
    REQUIRE_FALSE(unknown.ok());
    CHECK(unknown.error().message.find("unrecognized feature gate: Failovr") == 0);
    auto missing = parse_feature_gates("Failover");
    REQUIRE_FALSE(missing.ok());
    CHECK(missing.error().message.find("missing bool value for Failover") == 0);
    auto bad = parse_feature_gates("Failover=yes");
    REQUIRE_FALSE(bad.ok());
    CHECK(bad.error().message.find("invalid value of Failover=yes") == 0);
    CHECK(parse_feature_gates("").ok());
}
