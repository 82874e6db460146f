// SPDX-License-Identifier: Apache-2.0
// Deleting a policy: the claim comes off the template and its binding, the placement stays (detector.go
// handlePolicyDeletion, claim.go CleanupPPClaimMetadata).
#include <doctest/doctest.h>

#include "claim_support.hpp"
#include "scheduling/policy_deletion.hpp"

using namespace kpw;
using namespace kpw::scheduling;
using namespace kpw::scheduling::test;

namespace {

model::policy pp(std::string name, std::string id, std::vector<model::resource_selector> selectors)
{
    model::policy p;
    p.api_version = "policy.karmada.io/v1alpha1";
    p.kind = std::string(model::kind_propagation_policy);
    p.metadata.name = std::move(name);
    p.metadata.ns = "default";
    if (!id.empty())
        p.metadata.labels[std::string(model::pp_permanent_id_label)] = std::move(id);
    for (auto& s : selectors)
        s.ns = "default"; // the mutating webhook's default
    p.spec.resource_selectors = std::move(selectors);
    return p;
}

// The binding the detector wrote for web, claimed by PropagationPolicy default/<name> with id "0b7c-uuid".
model::binding web_binding(const std::string& name)
{
    model::binding b;
    b.kind = std::string(model::kind_resource_binding);
    b.namespace_ = "default";
    b.name = "web-deployment";
    b.labels[std::string(model::pp_permanent_id_label)] = "0b7c-uuid";
    b.annotations[std::string(model::pp_namespace_annotation)] = "default";
    b.annotations[std::string(model::pp_name_annotation)] = name;
    b.claim = model::policy_claim{false, "default", name, "0b7c-uuid"};
    b.clusters = {{"member1", 2, {}}, {"member2", 1, {}}};
    return b;
}

} // namespace

TEST_CASE("deleting the holder takes the claim off the template and the binding; the clusters stay")
{
    std::vector<model::workload> workloads{web_workload()};
    claim_by_pp(workloads[0], "old");
    workloads[0].labels["app"] = "web";
    std::vector<model::binding> bindings{web_binding("old")};
    const std::vector<model::policy> deleted{pp("old", "0b7c-uuid", {select_web()})};

    const auto released = delete_policies(deleted, workloads, bindings);
    REQUIRE(released.size() == 1);
    CHECK(released[0].workload == 0);
    CHECK(released[0].claim.name == "old");
    CHECK(released[0].binding);
    CHECK_FALSE(recorded_claim(workloads[0]).has_value());
    CHECK(workloads[0].labels.at("app") == "web"); // only the claim keys go
    CHECK(workloads[0].annotations.empty());
    CHECK_FALSE(bindings[0].claim.has_value());
    CHECK(bindings[0].labels.empty());
    CHECK(bindings[0].clusters == std::vector<model::target_cluster>{{"member1", 2, {}}, {"member2", 1, {}}});
}

TEST_CASE("the permanent id decides: a policy of the same name with another id releases nothing")
{
    std::vector<model::workload> workloads{web_workload()};
    claim_by_pp(workloads[0], "old");
    std::vector<model::binding> bindings{web_binding("old")};
    const std::vector<model::policy> deleted{pp("old", "another-uuid", {select_web()})};
    CHECK(delete_policies(deleted, workloads, bindings).empty());
    CHECK(recorded_claim(workloads[0]).has_value());
    CHECK(bindings[0].claim.has_value());
}

TEST_CASE("a policy read from files (no permanent id) releases the claims that name it")
{
    std::vector<model::workload> workloads{web_workload()};
    std::vector<model::binding> bindings{web_binding("old")};
    CHECK(delete_policies(std::vector{pp("other", "", {select_web()})}, workloads, bindings).empty());
    const auto released = delete_policies(std::vector{pp("old", "", {select_web()})}, workloads, bindings);
    REQUIRE(released.size() == 1); // the binding held the claim, the template from git did not
    CHECK_FALSE(bindings[0].claim.has_value());
}

TEST_CASE("the deletion reaches templates by apiVersion, kind and namespace, not by name or labels")
{
    std::vector<model::workload> workloads{web_workload()};
    claim_by_pp(workloads[0], "old");
    std::vector<model::binding> bindings{web_binding("old")};
    // Edited since it claimed web: it names another Deployment now, and still reaches web.
    CHECK(delete_policies(std::vector{pp("old", "0b7c-uuid", {select_web("api")})}, workloads, bindings).size() == 1);

    std::vector<model::workload> again{web_workload()};
    claim_by_pp(again[0], "old");
    std::vector<model::binding> again_bindings{web_binding("old")};
    auto statefulsets = select_all();
    statefulsets.kind = "StatefulSet";
    // It selects another kind only now: web keeps the stale claim until it changes itself.
    CHECK(delete_policies(std::vector{pp("old", "0b7c-uuid", {statefulsets})}, again, again_bindings).empty());
    CHECK(recorded_claim(again[0]).has_value());
}

TEST_CASE("deleting a ClusterPropagationPolicy leaves a PropagationPolicy's claim alone")
{
    std::vector<model::workload> workloads{web_workload()};
    claim_by_pp(workloads[0], "keep");
    std::vector<model::binding> bindings{web_binding("keep")};
    model::policy cpp = pp("keep", "", {select_web()});
    cpp.kind = std::string(model::kind_cluster_propagation_policy);
    cpp.metadata.ns.clear();
    cpp.spec.resource_selectors[0].ns.clear();
    CHECK(delete_policies(std::vector{cpp}, workloads, bindings).empty());
    CHECK(bindings[0].claim.has_value());
}

TEST_CASE("a template whose binding never held the claim is released alone")
{
    std::vector<model::workload> workloads{web_workload()};
    claim_by_pp(workloads[0], "old");
    std::vector<model::binding> bindings{web_binding("old")};
    bindings[0].labels.clear();
    bindings[0].annotations.clear();
    bindings[0].claim.reset(); // another object controls it: ApplyPolicy never wrote the claim (karmada#2090)
    const auto released = delete_policies(std::vector{pp("old", "0b7c-uuid", {select_web()})}, workloads, bindings);
    REQUIRE(released.size() == 1);
    CHECK_FALSE(released[0].binding);
    CHECK_FALSE(recorded_claim(workloads[0]).has_value());
}
