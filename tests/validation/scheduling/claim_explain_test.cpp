// SPDX-License-Identifier: Apache-2.0
// explain_claim: ranking reasons, recorded (sticky) claims, preemption and the claimed-by label.
#include <doctest/doctest.h>

#include "claim_support.hpp"

using namespace kpw;
using namespace kpw::scheduling;
using namespace kpw::scheduling::test;

TEST_CASE("the ranked winner comes first and every other candidate says why it lost")
{
    policy_set s;
    s.add("by-labels", select_labels("app", "web"));
    s.add("high", select_all(), 5);
    s.add("cpp", select_web(), 100, true);
    s.add("other", select_labels("app", "db"));
    const auto c = explain_claim(s.views, web_workload(), nullptr, false);
    REQUIRE(c.policy == 1u);
    CHECK(c.would_win == 1u);
    CHECK_FALSE(c.sticky);
    REQUIRE(c.candidates.size() == 3); // "other" does not match
    CHECK(c.candidates[0].policy == 1u);
    CHECK(c.candidates[0].implicit == match_priority::match_all);
    CHECK(c.reason == "priority 5 > 0 over PropagationPolicy default/by-labels");
    CHECK(c.candidates[1].why == "loses to PropagationPolicy default/high: priority 5 > 0");
    CHECK(c.candidates[2].policy == 2u);
    CHECK(c.candidates[2].why == "loses to PropagationPolicy default/high: a PropagationPolicy wins over every "
                                 "ClusterPropagationPolicy, whatever the priorities");
    CHECK_FALSE(c.by_name);
}

TEST_CASE("the implicit priority decides between equal priorities, and the name only after that")
{
    policy_set s;
    s.add("z-name", select_web());
    s.add("a-labels", select_labels("app", "web"));
    auto c = explain_claim(s.views, web_workload(), nullptr, false);
    CHECK(c.policy == 0u);
    CHECK(c.reason == "same priority 0; a match by name beats a match by labelSelector over PropagationPolicy "
                      "default/a-labels");
    CHECK_FALSE(c.by_name);

    policy_set tie;
    tie.add("zeta", select_labels("app", "web"));
    tie.add("alpha", select_labels("app", "web"));
    c = explain_claim(tie.views, web_workload(), nullptr, false);
    CHECK(c.policy == 1u);
    CHECK(c.by_name);
    CHECK(c.reason == "same priority 0 and match by labelSelector; the name order decides (\"alpha\" < \"zeta\") "
                      "over PropagationPolicy default/zeta");
}

TEST_CASE("a single match, no match and a cluster policy alone")
{
    policy_set s;
    s.add("only", select_all(), {}, true);
    auto c = explain_claim(s.views, web_workload(), nullptr, false);
    CHECK(c.policy == 0u);
    CHECK(c.reason == "the only matching policy (priority 0, match by kind only (match-all))");
    policy_set none;
    none.add("db", select_web("db"));
    c = explain_claim(none.views, web_workload(), nullptr, false);
    CHECK_FALSE(c.policy);
    CHECK(c.candidates.empty());
}

TEST_CASE("claim keys on the workload are read as Karmada's detector reads them")
{
    auto w = web_workload();
    CHECK_FALSE(recorded_claim(w));
    claim_by_pp(w, "old");
    auto claim = recorded_claim(w);
    REQUIRE(claim);
    CHECK_FALSE(claim->cluster_policy);
    CHECK(claim->namespace_ == "default");
    CHECK(claim->name == "old");
    // Without the namespace annotation the PP claim is incomplete; a CPP claim beside it then counts.
    w.annotations.erase(std::string(model::pp_namespace_annotation));
    CHECK_FALSE(recorded_claim(w));
    claim_by_cpp(w, "global");
    claim = recorded_claim(w);
    REQUIRE(claim);
    CHECK(claim->cluster_policy);
    CHECK(claim->name == "global");
}

TEST_CASE("a claimed workload keeps its policy and names the one that would win if unclaimed")
{
    policy_set s;
    s.add("old", select_labels("app", "web"));
    s.add("new", select_web(), 10);
    auto w = web_workload();
    claim_by_pp(w, "old");
    auto c = explain_claim(s.views, w, nullptr, false);
    CHECK(c.policy == 0u);
    CHECK(c.sticky);
    CHECK(c.source == claim_source::labels);
    CHECK(c.would_win == 1u);
    CHECK(c.reason == "already claimed by PropagationPolicy default/old (claims are sticky); if it were unclaimed, "
                      "PropagationPolicy default/new would win: priority 10 > 0 over PropagationPolicy default/old");
    CHECK(c.candidates[0].why == "would win if unclaimed, but does not take it over: its spec.preemption is Never, "
                                 "not Always");
    // Without the claim keys the same policies give the workload to "new".
    c = explain_claim(s.views, web_workload(), nullptr, false);
    CHECK(c.policy == 1u);
    CHECK_FALSE(c.sticky);
}

TEST_CASE("a claim known from the binding wins over the template's own keys")
{
    policy_set s;
    s.add("a", select_all());
    s.add("b", select_all());
    auto w = web_workload();
    claim_by_pp(w, "a");
    const model::policy_claim from_binding{false, "default", "b", "id"};
    const auto c = explain_claim(s.views, w, &from_binding, false);
    CHECK(c.policy == 1u);
    CHECK(c.sticky);
    CHECK(c.source == claim_source::binding);
}

TEST_CASE("preemption takes a claimed workload only with Always, the gate and a strictly higher priority")
{
    policy_set s;
    s.add("old", select_web(), 1);
    auto& challenger = s.add("new", select_web(), 2);
    challenger.preemption = "Always";
    auto w = web_workload();
    claim_by_pp(w, "old");
    auto c = explain_claim(s.views, w, nullptr, true);
    CHECK(c.preempted);
    CHECK(c.policy == 1u);
    CHECK(c.reason == "preempts PropagationPolicy default/old (preemption: Always, PropagationPolicyPreemption on)");
    c = explain_claim(s.views, w, nullptr, false); // gate off
    CHECK_FALSE(c.preempted);
    CHECK(c.policy == 0u);
    CHECK(preemption_blocker(s.views[1], s.views[0], w, false).reason ==
          "the PropagationPolicyPreemption feature gate is off (its default)");
    challenger.priority = 1; // equal: not strictly higher
    c = explain_claim(s.views, w, nullptr, true);
    CHECK_FALSE(c.preempted);
    CHECK(preemption_blocker(s.views[1], s.views[0], w, true).field == "spec.priority");
}

TEST_CASE("a policy the change leaves as it is preempts nothing: the detector preempts on a policy's own event")
{
    // tests/conformance/cases/lifecycle-settled-policy-does-not-preempt: an unchanged PropagationPolicy with
    // preemption: Always does not take a cluster policy's claim in the change (preemption.go runs from
    // HandlePropagationPolicyCreationOrUpdate, which an unchanged policy never reaches).
    policy_set s;
    s.add("cpp", select_web(), 0, true);
    auto& pp = s.add("pp", select_web(), 0);
    pp.preemption = "Always";
    auto w = web_workload();
    claim_by_cpp(w, "cpp");
    CHECK(explain_claim(s.views, w, nullptr, true).preempted);
    s.views[1].settled = true;
    const auto c = explain_claim(s.views, w, nullptr, true);
    CHECK_FALSE(c.preempted);
    CHECK(c.policy == 0u);
    CHECK(preemption_blocker(s.views[1], s.views[0], w, true).reason.find("preempts only when a policy is created or "
                                                                          "updated") != std::string::npos);
    // Nor when the holding cluster policy is not among the given ones.
    policy_set alone;
    auto& lone = alone.add("pp", select_web(), 0);
    lone.preemption = "Always";
    alone.views[0].settled = true;
    CHECK_FALSE(explain_claim(alone.views, w, nullptr, true).preempted);
}

TEST_CASE("an unchanged holder that no longer selects the template is still preempted by a new policy")
{
    // Seed 2302 sub-case c18-2 (v1.16, v1.17): the holder's selectors no longer match, and it is settled, so it
    // would keep the claim; a created cluster policy with preemption: Always and a higher priority takes it.
    policy_set s;
    s.add("holder", select_web("api"), 0, true);
    auto& preemptor = s.add("new", select_web(), 10, true);
    preemptor.preemption = "Always";
    s.views[0].settled = true;
    auto w = web_workload();
    claim_by_cpp(w, "holder");
    auto c = explain_claim(s.views, w, nullptr, true);
    CHECK(c.preempted);
    CHECK(c.policy == 1u);
    c = explain_claim(s.views, w, nullptr, false); // gate off: the holder keeps it, unmatched
    CHECK_FALSE(c.preempted);
    CHECK(c.policy == 0u);
    CHECK(c.holder_unmatched);
}

TEST_CASE("a PropagationPolicy preempts a cluster policy whatever the priorities; a cluster policy never a PP")
{
    policy_set s;
    s.add("cpp", select_web(), 50, true);
    auto& pp = s.add("pp", select_web(), 0);
    pp.preemption = "Always";
    auto w = web_workload();
    claim_by_cpp(w, "cpp");
    CHECK(explain_claim(s.views, w, nullptr, true).policy == 1u);

    policy_set r;
    r.add("pp", select_web(), 0);
    auto& cpp = r.add("cpp", select_web(), 50, true);
    cpp.preemption = "Always";
    auto held = web_workload();
    claim_by_pp(held, "pp");
    CHECK(explain_claim(r.views, held, nullptr, true).policy == 0u);
    CHECK(preemption_blocker(r.views[1], r.views[0], held, true).reason ==
          "a ClusterPropagationPolicy never preempts a PropagationPolicy");
}

TEST_CASE("a holder whose selectors no longer match releases the workload to the ranked winner")
{
    policy_set s;
    s.add("old", select_web("api"));
    s.add("new", select_all());
    auto w = web_workload();
    claim_by_pp(w, "old");
    const auto c = explain_claim(s.views, w, nullptr, false);
    CHECK(c.policy == 1u);
    CHECK_FALSE(c.sticky);
    REQUIRE(c.candidates.size() == 2);
    CHECK(c.candidates[1].policy == 0u);
    CHECK_FALSE(c.candidates[1].matched);
    CHECK(c.released_unmatched);
    CHECK_FALSE(c.holder_unmatched);
}

TEST_CASE("a settled holder whose selectors no longer match keeps the claim: the detector does not reconcile it")
{
    policy_set s;
    s.add("old", select_web("api"));
    s.add("new", select_all());
    s.views[0].settled = true; // plan: applied unchanged, so cleanPPUnmatchedRBs does not run
    auto w = web_workload();
    claim_by_pp(w, "old");
    const auto c = explain_claim(s.views, w, nullptr, false);
    CHECK(c.policy == 0u);
    CHECK(c.sticky);
    CHECK(c.holder_unmatched);
    CHECK_FALSE(c.released_unmatched);
    CHECK(c.would_win == 1u);
    CHECK(c.reason.find("releases it only when PropagationPolicy default/old itself changes") != std::string::npos);
}

TEST_CASE("a holder that is not among the given policies keeps the workload, unscheduled here")
{
    policy_set s;
    s.add("new", select_all());
    auto w = web_workload();
    claim_by_pp(w, "elsewhere");
    const auto c = explain_claim(s.views, w, nullptr, false);
    CHECK_FALSE(c.policy);
    CHECK(c.sticky);
    CHECK(c.would_win == 0u);
    CHECK(c.reason.find("PropagationPolicy default/elsewhere, which is not among the given policies") !=
          std::string::npos);
}

TEST_CASE("the claimed-by label hands the workload to another controller")
{
    policy_set s;
    s.add("new", select_all());
    auto w = web_workload();
    w.labels[std::string(claimed_by_label)] = "MultiClusterService";
    const auto c = explain_claim(s.views, w, nullptr, false);
    CHECK(c.ignored);
    CHECK_FALSE(c.policy);
    w.labels[std::string(claimed_by_label)] = "";
    CHECK(explain_claim(s.views, w, nullptr, false).policy == 0u);
}

TEST_CASE("a PropagationPolicy preempts a cluster policy holder even when that holder is not given")
{
    policy_set s;
    auto& pp = s.add("pp", select_web());
    auto w = web_workload();
    claim_by_cpp(w, "not-linted");
    auto c = explain_claim(s.views, w, nullptr, true);
    CHECK(c.sticky); // preemption Never
    CHECK_FALSE(c.policy);
    pp.preemption = "Always";
    c = explain_claim(s.views, w, nullptr, true);
    CHECK(c.preempted);
    CHECK(c.policy == 0u);
    CHECK_FALSE(explain_claim(s.views, w, nullptr, false).preempted); // gate off
}
