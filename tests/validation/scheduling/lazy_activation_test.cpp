// SPDX-License-Identifier: Apache-2.0
// activationPreference Lazy in a change: when the detector claims a template but leaves its binding alone.
#include <doctest/doctest.h>

#include "claim_support.hpp"
#include "scheduling/lazy_activation.hpp"

using namespace kpw;
using namespace kpw::scheduling;
using namespace kpw::scheduling::test;

namespace {

constexpr template_events in_a_change{true, false, false};

claim_explanation claimed_by(std::size_t policy, std::optional<model::policy_claim> holder = {})
{
    claim_explanation c;
    c.policy = policy;
    c.holder = std::move(holder);
    c.candidates.push_back({policy, 0, match_priority::mismatch, true, ""});
    return c;
}

model::policy_claim pp(std::string name) { return {false, "default", std::move(name), ""}; }

} // namespace

TEST_CASE("a Lazy policy's own change leaves the binding; a first apply, a user's change or a release do not")
{
    policy_set set;
    set.add("lazy", select_web()).activation_preference = "Lazy";
    set.views[0].settled = false; // created or updated by the change
    const auto c = claimed_by(0, pp("lazy"));
    CHECK(lazy_skips_binding(c, set.views, in_a_change));
    CHECK_FALSE(lazy_skips_binding(c, set.views, template_events{false, false, false})); // lint without --base
    CHECK_FALSE(lazy_skips_binding(c, set.views, template_events{true, true, false}));   // the template changed too
    CHECK_FALSE(lazy_skips_binding(c, set.views, template_events{true, false, true}));   // a deletion released it
    auto released = c;
    released.released_unmatched = true; // cleanPPUnmatchedRBs took the claim off: an update event without one
    CHECK_FALSE(lazy_skips_binding(released, set.views, in_a_change));
}

TEST_CASE("another policy's reconcile queues the template as a user's event unless it is Lazy too")
{
    policy_set set;
    set.add("lazy", select_web(), 10).activation_preference = "Lazy";
    set.add("eager", select_web(), 1);
    set.views[0].settled = true;
    set.views[1].settled = false; // the eager policy is created: it matches the waiting template
    auto unclaimed = claimed_by(0);
    unclaimed.candidates.push_back({1, 1, match_priority::mismatch, true, ""});
    CHECK_FALSE(lazy_skips_binding(unclaimed, set.views, in_a_change));
    set.views[1].settled = true; // nothing but the Lazy policy is reconciled: no user's event
    CHECK(lazy_skips_binding(unclaimed, set.views, in_a_change));
    // A held template is queued by its holder's reconcile (the bindings it holds), not by other matches.
    set.views[1].settled = false;
    auto held = claimed_by(0, pp("lazy"));
    held.candidates = unclaimed.candidates;
    CHECK(lazy_skips_binding(held, set.views, in_a_change));
    auto held_by_eager = claimed_by(0, pp("eager"));
    CHECK_FALSE(lazy_skips_binding(held_by_eager, set.views, in_a_change));
}

TEST_CASE("a policy that is not Lazy always writes the binding")
{
    policy_set set;
    set.add("eager", select_web());
    set.views[0].settled = false;
    CHECK_FALSE(lazy_skips_binding(claimed_by(0, pp("eager")), set.views, in_a_change));
}
