// SPDX-License-Identifier: Apache-2.0
// claim_warnings: each warning id fires where it should and stays quiet where it should not.
#include <doctest/doctest.h>

#include <algorithm>

#include "claim_support.hpp"
#include "scheduling/claim_warnings.hpp"

using namespace kpw;
using namespace kpw::scheduling;
using namespace kpw::scheduling::test;

namespace {

std::vector<claim_warning> warnings_for(const policy_set& s, const std::vector<model::workload>& ws, bool gate = false)
{
    std::vector<claim_explanation> claims;
    for (const auto& w : ws)
        claims.push_back(explain_claim(s.views, w, nullptr, gate));
    return claim_warnings(s.views, ws, claims, gate);
}

std::vector<claim_warning> with_id(const std::vector<claim_warning>& all, std::string_view id)
{
    std::vector<claim_warning> out;
    for (const auto& w : all)
        if (w.id == id)
            out.push_back(w);
    return out;
}

} // namespace

TEST_CASE("policy-claims-nothing names a policy that matches none of the workloads")
{
    policy_set s;
    s.add("web", select_web());
    s.add("db", select_web("db"));
    const auto found = with_id(warnings_for(s, {web_workload()}), "policy-claims-nothing");
    REQUIRE(found.size() == 1);
    CHECK(found[0].policy == 1u);
    CHECK(found[0].field == "spec.resourceSelectors");
    CHECK(found[0].message == "matches none of the 1 given workloads");
}

TEST_CASE("policy-shadowed names the winner of every workload the policy lost")
{
    policy_set s;
    s.add("broad", select_all());
    s.add("exact", select_web());
    auto found = with_id(warnings_for(s, {web_workload()}), "policy-shadowed");
    REQUIRE(found.size() == 1);
    CHECK(found[0].policy == 0u);
    CHECK(found[0].message ==
          "matches 1 workload(s), all claimed by other policies: Deployment default/web (to PropagationPolicy "
          "default/exact)");
    // A second workload only "broad" matches: it claims something, so it is not shadowed.
    auto api = web_workload();
    api.name = "api";
    CHECK(with_id(warnings_for(s, {web_workload(), api}), "policy-shadowed").empty());
}

TEST_CASE("claim-decided-by-name fires on a tie of priority and match, not when either differs")
{
    policy_set tie;
    tie.add("b", select_labels("app", "web"));
    tie.add("a", select_labels("app", "web"));
    auto found = with_id(warnings_for(tie, {web_workload()}), "claim-decided-by-name");
    REQUIRE(found.size() == 1);
    CHECK(found[0].policy == 1u);
    CHECK(found[0].field == "spec.priority");
    CHECK(found[0].message.starts_with("claims Deployment default/web instead of PropagationPolicy default/b only "
                                        "by the name order"));
    policy_set ranked;
    ranked.add("b", select_labels("app", "web"), 1);
    ranked.add("a", select_labels("app", "web"));
    CHECK(with_id(warnings_for(ranked, {web_workload()}), "claim-decided-by-name").empty());
    // A PP and a CPP never tie: the PP wins by kind.
    policy_set kinds;
    kinds.add("b", select_labels("app", "web"));
    kinds.add("a", select_labels("app", "web"), {}, true);
    CHECK(with_id(warnings_for(kinds, {web_workload()}), "claim-decided-by-name").empty());
}

TEST_CASE("claim-not-preempted fires on the would-be winner of a claimed workload it cannot take")
{
    policy_set s;
    s.add("old", select_web());
    auto& fresh = s.add("new", select_web(), 5);
    auto held = web_workload();
    claim_by_pp(held, "old");
    auto found = with_id(warnings_for(s, {held}), "claim-not-preempted");
    REQUIRE(found.size() == 1);
    CHECK(found[0].policy == 1u);
    CHECK(found[0].field == "spec.preemption");
    CHECK(found[0].message == "would claim Deployment default/web if it were unclaimed, but PropagationPolicy "
                               "default/old holds it (from the workload's claim labels) and keeps it: its "
                               "spec.preemption is Never, not Always");
    fresh.preemption = "Always";
    found = with_id(warnings_for(s, {held}), "claim-not-preempted");
    REQUIRE(found.size() == 1);
    CHECK(found[0].message.ends_with("the PropagationPolicyPreemption feature gate is off (its default)"));
    // With the gate on it preempts: no warning. Unclaimed: no warning either.
    CHECK(with_id(warnings_for(s, {held}, true), "claim-not-preempted").empty());
    CHECK(with_id(warnings_for(s, {web_workload()}), "claim-not-preempted").empty());
}

TEST_CASE("lazy-activation fires for a Lazy policy that claims workloads, not for an immediate one")
{
    policy_set s;
    auto& lazy = s.add("lazy", select_web());
    lazy.activation_preference = "Lazy";
    auto found = with_id(warnings_for(s, {web_workload()}), "lazy-activation");
    REQUIRE(found.size() == 1);
    CHECK(found[0].field == "spec.activationPreference");
    CHECK(found[0].message.find("Deployment default/web") != std::string::npos);
    lazy.activation_preference.clear();
    CHECK(with_id(warnings_for(s, {web_workload()}), "lazy-activation").empty());
    // Lazy but claiming nothing: nothing waits.
    lazy.activation_preference = "Lazy";
    auto other = web_workload();
    other.name = "api";
    CHECK(with_id(warnings_for(s, {other}), "lazy-activation").empty());
}
