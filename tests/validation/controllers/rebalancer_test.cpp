// SPDX-License-Identifier: Apache-2.0
// WorkloadRebalancer (day2-semantics §4.10) and GenerateBindingName.
#include <doctest/doctest.h>

#include "controllers/rebalancer.hpp"
#include "scheduling/binding_pairing.hpp"

using namespace kpw;
using scheduling::generate_binding_name;

namespace {

model::binding rb(std::string ns, std::string name, std::optional<model::timestamp> triggered)
{
    model::binding b;
    b.kind = ns.empty() ? "ClusterResourceBinding" : "ResourceBinding";
    b.namespace_ = std::move(ns);
    b.name = std::move(name);
    b.generation = 2;
    b.reschedule_triggered_at = triggered;
    return b;
}

} // namespace

TEST_CASE("GenerateBindingName lower-cases name-kind and turns ':' into '.'")
{
    CHECK(generate_binding_name("Deployment", "nginx") == "nginx-deployment");
    CHECK(generate_binding_name("ClusterRole", "system:aggregate-to-edit") == "system.aggregate-to-edit-clusterrole");
    CHECK(generate_binding_name("Deployment", "Web") == "web-deployment");
}

TEST_CASE("the rebalancer sets rescheduleTriggeredAt when unset or older, and bumps the generation")
{
    std::vector<model::binding> bindings{rb("shop", "web-deployment", std::nullopt), rb("shop", "api-deployment", 50),
                                         rb("shop", "late-deployment", 200), rb("", "reader-clusterrole", 100)};
    std::vector<controllers::workload_reference> refs{{"apps/v1", "Deployment", "shop", "web"},
                                                      {"apps/v1", "Deployment", "shop", "api"},
                                                      {"apps/v1", "Deployment", "shop", "late"},
                                                      {"rbac.authorization.k8s.io/v1", "ClusterRole", "", "reader"}};
    auto observed = controllers::run_rebalancer(refs, 100, bindings);
    CHECK(bindings[0].reschedule_triggered_at == 100);
    CHECK(bindings[0].generation == 3);
    CHECK(bindings[1].reschedule_triggered_at == 100);
    CHECK(bindings[2].reschedule_triggered_at == 200);
    CHECK(bindings[2].generation == 2);
    CHECK(bindings[3].reschedule_triggered_at == 100); // equal: not after, left alone
    CHECK(bindings[3].generation == 2);
    REQUIRE(observed.size() == 4);
    for (const auto& o : observed)
        CHECK(o.result == "Successful");
    CHECK(observed[0].workload.name == "api"); // sorted by "apiVersion kind namespace name"
    CHECK(observed[3].workload.kind == "ClusterRole");
}

TEST_CASE("a workload without its binding fails with ReferencedBindingNotFound; namespace picks RB or CRB")
{
    std::vector<model::binding> bindings{rb("", "web-deployment", std::nullopt)};
    std::vector<controllers::workload_reference> refs{{"apps/v1", "Deployment", "shop", "web"},
                                                      {"apps/v1", "Deployment", "shop", "web"}};
    auto observed = controllers::run_rebalancer(refs, 100, bindings);
    REQUIRE(observed.size() == 1);
    CHECK(observed[0].result == "Failed");
    CHECK(observed[0].reason == "ReferencedBindingNotFound");
    CHECK_FALSE(bindings[0].reschedule_triggered_at.has_value());
}
