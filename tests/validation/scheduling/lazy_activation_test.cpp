// SPDX-License-Identifier: Apache-2.0
// activationPreference Lazy in a change: when the detector claims a template but leaves its binding alone.
#include <doctest/doctest.h>

#include <memory>

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

TEST_CASE("the first reconciled policy that matches a waiting template decides how it is queued")
{
    // views[0] Lazy (claims, priority 10), views[1] eager; both match the unclaimed template.
    const auto make = [](bool lazy_first) {
        auto set = std::make_unique<policy_set>();
        auto& lazy = set->add(lazy_first ? "lazy" : "eager", select_web(), lazy_first ? 10 : 1);
        auto& other = set->add(lazy_first ? "eager" : "lazy", select_web(), lazy_first ? 1 : 10);
        (lazy_first ? lazy : other).activation_preference = "Lazy";
        return set;
    };
    auto lazy_first = make(true);
    auto unclaimed = claimed_by(0);
    unclaimed.candidates.push_back({1, 1, match_priority::mismatch, true, ""});
    lazy_first->views[0].settled = true;
    lazy_first->views[1].settled = false; // only the eager policy is reconciled: it queues without the flag
    CHECK_FALSE(lazy_skips_binding(unclaimed, lazy_first->views, in_a_change));
    lazy_first->views[0].settled = false; // both: the Lazy one's handler takes it off the waiting list first
    CHECK(lazy_skips_binding(unclaimed, lazy_first->views, in_a_change));
    lazy_first->views[1].settled = true;
    CHECK(lazy_skips_binding(unclaimed, lazy_first->views, in_a_change));

    auto eager_first = make(false); // the eager policy is applied first, the Lazy one claims
    auto claimed_by_lazy = claimed_by(1);
    claimed_by_lazy.candidates.push_back({0, 1, match_priority::mismatch, true, ""});
    eager_first->views[0].settled = false;
    eager_first->views[1].settled = false;
    CHECK_FALSE(lazy_skips_binding(claimed_by_lazy, eager_first->views, in_a_change));
}

TEST_CASE("a held template is queued by its holder's reconcile only")
{
    policy_set set;
    set.add("lazy", select_web(), 10).activation_preference = "Lazy";
    set.add("eager", select_web(), 1);
    set.views[0].settled = false;
    set.views[1].settled = false; // matches too, but the template is not in the waiting list
    auto held = claimed_by(0, pp("lazy"));
    held.candidates.push_back({1, 1, match_priority::mismatch, true, ""});
    CHECK(lazy_skips_binding(held, set.views, in_a_change));
    CHECK_FALSE(lazy_skips_binding(claimed_by(0, pp("eager")), set.views, in_a_change)); // the eager holder queues it
}

TEST_CASE("a policy that is not Lazy always writes the binding")
{
    policy_set set;
    set.add("eager", select_web());
    set.views[0].settled = false;
    CHECK_FALSE(lazy_skips_binding(claimed_by(0, pp("eager")), set.views, in_a_change));
}
