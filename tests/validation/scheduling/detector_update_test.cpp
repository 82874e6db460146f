// SPDX-License-Identifier: Apache-2.0
// The detector's pass over an existing binding (detector_update): who holds it afterwards, and whether the
// placement is applied.
#include <doctest/doctest.h>

#include "claim_support.hpp"
#include "scheduling/detector_update.hpp"

using namespace kpw;
using namespace kpw::scheduling;
using namespace kpw::scheduling::test;

namespace {

// PropagationPolicies default/old and default/new with the first two specs of `set`.
struct old_and_new {
    model::policy old_policy, new_policy;
    explicit old_and_new(const policy_set& set)
    {
        old_policy.kind = new_policy.kind = std::string(model::kind_propagation_policy);
        old_policy.metadata.name = "old";
        new_policy.metadata.name = "new";
        old_policy.spec = set.specs[0];
        new_policy.spec = set.specs[1];
    }
};

} // namespace

TEST_CASE("a binding another object controls is released all the same when its holder no longer selects it")
{
    // policy.go removeRBsClaimMetadata checks no owner: cleanPPUnmatchedRBs takes the claim off, and no
    // policy can write the binding again (ApplyPolicy: "different owner reference UID", karmada#2090).
    policy_set set;
    set.add("old", select_web("api")); // the holder, edited: it names another Deployment now
    set.add("new", select_web());      // matches web: would claim it
    const old_and_new objects(set);
    const std::vector<const model::policy*> policies{&objects.old_policy, &objects.new_policy};

    model::workload w = web_workload();
    w.uid = "template-uid";
    model::binding b;
    b.kind = std::string(model::kind_resource_binding);
    b.namespace_ = "default";
    b.name = "web-deployment";
    b.claim = model::policy_claim{false, "default", "old", "0b7c-uuid"};
    b.controller_owner_uid = "another-uid";
    const model::policy_claim known = *b.claim;
    const claim_explanation claim = explain_claim(set.views, w, &known, false);
    REQUIRE(claim.released_unmatched);

    const auto u = update_binding(b, &w, &claim, &b, set.views, policies, settings::feature_gates(), {}, true);
    CHECK(u.refused);
    CHECK_FALSE(u.policy.has_value());

    b.controller_owner_uid = "template-uid"; // the template's own binding: the new claimer updates it
    const auto mine = update_binding(b, &w, &claim, &b, set.views, policies, settings::feature_gates(), {}, true);
    REQUIRE(mine.policy.has_value());
    CHECK(*mine.policy == 1);
}

TEST_CASE("a binding named after the template but recording another: the template's new claimer writes it")
{
    // The binding's claim keys name "old", but it records another object, so web is unclaimed: the detector
    // claims it for the policy ranking first and ApplyPolicy writes that policy into the binding it finds by
    // name (conformance case binding-named-after-template-records-another).
    policy_set set;
    set.add("old", select_web());
    set.add("new", select_web(), 5);
    const old_and_new objects(set);
    const std::vector<const model::policy*> policies{&objects.old_policy, &objects.new_policy};

    const model::workload w = web_workload();
    model::binding b;
    b.kind = std::string(model::kind_resource_binding);
    b.namespace_ = "default";
    b.name = "web-deployment";
    b.claim = model::policy_claim{false, "default", "old", "0b7c-uuid"};
    const claim_explanation unclaimed = explain_claim(set.views, w, nullptr, false);
    REQUIRE(unclaimed.policy == std::optional<std::size_t>(1));

    const auto u = update_binding(b, &w, &unclaimed, nullptr, set.views, policies, settings::feature_gates(), {}, true);
    CHECK(u.policy == std::optional<std::size_t>(1));

    // The binding that records web carries the claim web has: it stays with "old" (claims are sticky).
    const model::policy_claim known = *b.claim;
    const claim_explanation held = explain_claim(set.views, w, &known, false);
    const auto kept = update_binding(b, &w, &held, &b, set.views, policies, settings::feature_gates(), {}, true);
    CHECK(kept.policy == std::optional<std::size_t>(0));
}
