// SPDX-License-Identifier: Apache-2.0
// The base side of lint --base as the server holds it: the detector had claimed every template a base
// policy selects (detector.go OnAdd / Reconcile, policy.go propagateResource), so claims the change meets
// are sticky even when the workload files carry none.
#include <doctest/doctest.h>

#include "claim_support.hpp"
#include "scheduling/base_claims.hpp"

using namespace kpw;
using namespace kpw::scheduling;
using namespace kpw::scheduling::test;

namespace {

model::policy policy_of(const policy_set& set, std::size_t i)
{
    model::policy p;
    p.kind = std::string(set.views[i].cluster_scoped ? model::kind_cluster_propagation_policy
                                                      : model::kind_propagation_policy);
    p.metadata.name = std::string(set.views[i].name);
    p.metadata.ns = std::string(set.views[i].ns);
    p.spec = set.specs[i];
    return p;
}

model::binding unclaimed_web_binding()
{
    model::binding b;
    b.kind = std::string(model::kind_resource_binding);
    b.namespace_ = "default";
    b.name = "web-deployment";
    b.clusters = {{"member1", 3, {}}};
    return b;
}

} // namespace

TEST_CASE("an unclaimed template goes to the base policy that ranks first, on the template and its binding")
{
    policy_set set;
    set.add("all", select_all(), 5, true); // a ClusterPropagationPolicy loses to any PropagationPolicy
    set.add("by-label", select_labels("app", "web"));
    set.add("by-name", select_web());
    set.specs[2].priority = 1;
    const std::vector<model::policy> policies{policy_of(set, 0), policy_of(set, 1), policy_of(set, 2)};
    const std::vector<const model::policy*> ptrs{&policies[0], &policies[1], &policies[2]};
    std::vector<model::workload> workloads{web_workload()};
    std::vector<model::binding> bindings{unclaimed_web_binding()};
    const std::vector<std::optional<model::policy_claim>> known(1);

    CHECK(claim_unclaimed(set.views, ptrs, workloads, bindings, known, settings::feature_gates{}) == std::vector<std::size_t>{0});
    const auto claim = recorded_claim(workloads[0]);
    REQUIRE(claim.has_value());
    CHECK(claim->name == "by-name");
    CHECK(claim->namespace_ == "default");
    REQUIRE(bindings[0].claim.has_value());
    CHECK(*bindings[0].claim == *claim);
    CHECK(bindings[0].clusters == std::vector<model::target_cluster>{{"member1", 3, {}}}); // placement untouched
}

TEST_CASE("a claimed template, one its binding claims, and one another controller holds stay as they are")
{
    policy_set set;
    set.add("new", select_web());
    const std::vector<model::policy> policies{policy_of(set, 0)};
    const std::vector<const model::policy*> ptrs{&policies[0]};

    std::vector<model::workload> labelled{web_workload()};
    claim_by_pp(labelled[0], "old");
    std::vector<model::binding> none;
    CHECK(claim_unclaimed(set.views, ptrs, labelled, none, std::vector<std::optional<model::policy_claim>>(1),
                          settings::feature_gates{}).empty());
    CHECK(recorded_claim(labelled[0])->name == "old");

    std::vector<model::workload> plain{web_workload()};
    const std::vector<std::optional<model::policy_claim>> known{model::policy_claim{false, "default", "old", "id"}};
    CHECK(claim_unclaimed(set.views, ptrs, plain, none, known, settings::feature_gates{}).empty());
    CHECK_FALSE(recorded_claim(plain[0]).has_value());

    std::vector<model::workload> handed{web_workload()};
    handed[0].labels[std::string(claimed_by_label)] = "multiclusterservice";
    CHECK(claim_unclaimed(set.views, ptrs, handed, none, std::vector<std::optional<model::policy_claim>>(1),
                          settings::feature_gates{}).empty());
}

TEST_CASE("no base policy selects it: it stays unclaimed")
{
    policy_set set;
    set.add("api", select_web("api"));
    const std::vector<model::policy> policies{policy_of(set, 0)};
    const std::vector<const model::policy*> ptrs{&policies[0]};
    std::vector<model::workload> workloads{web_workload()};
    std::vector<model::binding> bindings{unclaimed_web_binding()};
    CHECK(claim_unclaimed(set.views, ptrs, workloads, bindings, std::vector<std::optional<model::policy_claim>>(1),
                          settings::feature_gates{})
              .empty());
    CHECK_FALSE(bindings[0].claim.has_value());
}

TEST_CASE("a binding another object controls keeps no claim; its template is claimed (karmada#2090)")
{
    policy_set set;
    set.add("all", select_all());
    const std::vector<model::policy> policies{policy_of(set, 0)};
    const std::vector<const model::policy*> ptrs{&policies[0]};
    std::vector<model::workload> workloads{web_workload()};
    workloads[0].uid = "template-uid";
    std::vector<model::binding> bindings{unclaimed_web_binding()};
    bindings[0].controller_owner_uid = "another-uid";
    CHECK(claim_unclaimed(set.views, ptrs, workloads, bindings, std::vector<std::optional<model::policy_claim>>(1),
                          settings::feature_gates{}) ==
          std::vector<std::size_t>{0});
    CHECK(recorded_claim(workloads[0]).has_value());
    CHECK_FALSE(bindings[0].claim.has_value());
}
