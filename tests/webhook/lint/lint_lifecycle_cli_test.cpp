// SPDX-License-Identifier: Apache-2.0
// Deleting a policy through `lint --base` with today's bindings (tests/data/lifecycle/README.md): the claim
// comes off the template and the binding, a remaining policy re-claims the workload and the scheduler
// moves it, or nothing claims it and the binding stays where it is (detector.go handlePolicyDeletion).
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "support/lint_run.hpp"

using kpw::test::json_of;
using kpw::test::run_lint;

namespace {

const std::string data = std::string(KPW_TEST_DATA) + "/lifecycle/";

// lint --base base/ with the lifecycle snapshot and bindings, over the change in `dir`.
kpw::test::process_result lint_change(const std::string& dir, const std::vector<std::string>& extra = {})
{
    std::vector<std::string> args{"--clusters", data + "clusters.yaml", "--workloads", data + "workloads.yaml",
                                  "--bindings", data + "bindings.yaml", "--base", data + "base"};
    args.insert(args.end(), extra.begin(), extra.end());
    args.push_back(data + dir);
    return run_lint(args);
}

const kpw::doc::value& only_change(const kpw::doc::value& report)
{
    const auto& changes = report.find("diff")->items();
    REQUIRE(changes.size() == 1);
    return changes[0];
}

const kpw::doc::value& only_claim(const kpw::doc::value& report)
{
    const auto& claims = report.find_path({"summary", "claims"})->items();
    REQUIRE(claims.size() == 1);
    return claims[0];
}

} // namespace

TEST_CASE("replaced: the new policy claims the released workload and the scheduler moves it")
{
    auto r = lint_change("replace", {"-o", "json"});
    CHECK(r.exit_code == 0);
    auto v = json_of(r.out);
    const auto& change = only_change(v);
    CHECK(change.find_path({"before", "policy"})->text() == "PropagationPolicy default/old");
    CHECK(change.find_path({"after", "policy"})->text() == "PropagationPolicy default/new");
    CHECK(kpw::doc::to_json(*change.find("moves")) ==
          R"([{"cluster":"member1","from":3,"to":0},{"cluster":"member2","from":0,"to":3}])");
    const auto& claim = only_claim(v);
    CHECK(claim.find_path({"policy", "name"})->text() == "new");
    CHECK(claim.find_path({"releasedBy", "name"})->text() == "old");
    CHECK(claim.string_at("reason").starts_with("released: PropagationPolicy default/old is deleted"));
}

TEST_CASE("deleted with nothing in its place: the binding stays on its clusters with no policy")
{
    auto r = lint_change("none", {"-o", "json"});
    CHECK(r.exit_code == 0);
    auto v = json_of(r.out);
    const auto& change = only_change(v);
    CHECK(change.find_path({"after", "policy"})->is_null());
    CHECK(change.find_path({"after", "releasedBy"})->text() == "PropagationPolicy default/old");
    CHECK(kpw::doc::to_json(*change.find_path({"after", "clusters"})) ==
          R"([{"name":"member1","replicas":3,"tier":""}])");
    CHECK(change.find("moves")->items().empty());
    CHECK(only_claim(v).find("policy")->is_null());
    CHECK(v.find_path({"summary", "notPredicted"})->as_int() == 0); // predicted: it stays

    auto text = lint_change("none");
    CHECK(text.out.find("~ Deployment default/web: released: PropagationPolicy default/old is deleted and no policy "
                        "claims it; the binding stays on its clusters") != std::string::npos);
    CHECK(text.out.find("- member1") == std::string::npos);
}

TEST_CASE("a ClusterPropagationPolicy takes the workload over once its PropagationPolicy is deleted")
{
    auto r = lint_change("cluster-policy", {"-o", "json"});
    CHECK(r.exit_code == 0);
    auto v = json_of(r.out);
    const auto& change = only_change(v);
    CHECK(change.find_path({"after", "policy"})->text() == "ClusterPropagationPolicy all-deployments");
    CHECK(kpw::doc::to_json(*change.find("moves")) == R"([{"cluster":"member2","from":0,"to":3}])");
}

TEST_CASE("the base kept beside the change: nothing is deleted, the claim is sticky, nothing moves")
{
    auto r = run_lint({"--clusters", data + "clusters.yaml", "--workloads", data + "workloads.yaml", "--bindings",
                       data + "bindings.yaml", "--base", data + "base", "-o", "json", data + "base", data + "replace"});
    CHECK(r.exit_code == 0);
    auto v = json_of(r.out);
    CHECK(v.find("diff")->items().empty());
    CHECK(only_claim(v).find_path({"policy", "name"})->text() == "old");
    CHECK(only_claim(v).find("releasedBy") == nullptr);
}

namespace {

// lint --base relabel/base over `dir`, with web relabelled team=b while team-a holds it.
kpw::test::process_result lint_relabelled(const std::string& dir)
{
    return run_lint({"--clusters", data + "clusters.yaml", "--workloads", data + "relabel/workloads.yaml", "--bindings",
                     data + "relabel/bindings.yaml", "--base", data + "relabel/base", "-o", "json", data + dir});
}

} // namespace

TEST_CASE("relabelled out of its holder's selector: the claim stays until the holder itself changes")
{
    auto unchanged = lint_relabelled("relabel/base");
    CHECK(unchanged.exit_code == 0);
    auto v = json_of(unchanged.out);
    CHECK(v.find("diff")->items().empty());
    const auto& claim = only_claim(v);
    CHECK(claim.find_path({"policy", "name"})->text() == "team-a");
    CHECK(claim.string_at("reason").find("the detector releases it only when PropagationPolicy default/team-a itself "
                                         "changes") != std::string::npos);

    auto edited = lint_relabelled("relabel/changed");
    CHECK(edited.exit_code == 0);
    auto e = json_of(edited.out);
    const auto& change = only_change(e);
    CHECK(change.find_path({"after", "policy"})->text() == "PropagationPolicy default/team-b");
    CHECK(kpw::doc::to_json(*change.find("moves")) ==
          R"([{"cluster":"member1","from":3,"to":0},{"cluster":"member2","from":0,"to":3}])");
}

TEST_CASE("an update the webhook denies: the server keeps its base version, which claims the released workload")
{
    // old is deleted; keeper's update is denied, so its base version (member2) stays on the server and, a
    // PropagationPolicy, wins the released template over the new ClusterPropagationPolicy (member1, member2).
    auto r = lint_change("refused-update/change", {"--base", data + "refused-update/base", "-o", "json"});
    CHECK(r.exit_code == 1); // keeper is denied
    auto v = json_of(r.out);
    const auto& change = only_change(v);
    CHECK(change.find_path({"after", "policy"})->text() == "PropagationPolicy default/keeper");
    CHECK(kpw::doc::to_json(*change.find("moves")) ==
          R"([{"cluster":"member1","from":3,"to":0},{"cluster":"member2","from":0,"to":3}])");
    const auto& claim = only_claim(v);
    CHECK(claim.find_path({"policy", "name"})->text() == "keeper");
    CHECK(claim.string_at("reason").find("PATH's version of PropagationPolicy default/keeper is denied, so the server "
                                         "keeps the one it has") != std::string::npos);
}

TEST_CASE("an update that changes spec.schedulerName is refused: the base version stays and nothing moves")
{
    // Karmada's validating webhook, UPDATE branch (validating.go validateUpdate): the new version would move
    // web to member2, but it is denied, so old stays as the base has it.
    auto r = lint_change("scheduler-name", {"-o", "json"});
    CHECK(r.exit_code == 1);
    auto v = json_of(r.out);
    const auto& result = v.find("results")->items().at(0);
    CHECK_FALSE(result.find("allowed")->as_bool());
    CHECK(result.find("errors")->items().at(0).string_at("message") == "the schedulerName should not be updated");
    CHECK(v.find("diff")->items().empty());
    // Without --base the same file is a create, which Karmada admits.
    CHECK(run_lint({data + "scheduler-name"}).exit_code == 0);
}

TEST_CASE("an update whose file drops the permanent-id label its base wrote is refused (kubectl deletes it)")
{
    auto r = lint_change("label-dropped", {"-o", "json"});
    CHECK(r.exit_code == 1);
    auto v = json_of(r.out);
    CHECK(v.find("results")->items().at(0).find("errors")->items().at(0).string_at("message") ==
          "label propagationpolicy.karmada.io/permanent-id is immutable, it can only be set by the system during "
          "creation");
    // The unchanged file (label kept) is admitted.
    CHECK(lint_change("base").exit_code == 0);
}
