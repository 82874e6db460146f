// SPDX-License-Identifier: Apache-2.0
// `lint --base` end to end through the real binary: the shipped examples against manifests/examples/pr-edit/,
// added / removed / re-claimed policies, --fail-on exit codes and the usage errors.
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "support/lint_run.hpp"
#include "support/temp_dir.hpp"

using kpw::test::json_of;
using kpw::test::run_lint;

namespace {

const std::string examples = std::string(KPW_SOURCE_ROOT) + "/manifests/examples/";
const std::vector<std::string> shipped = {examples + "dc-groups.yaml", examples + "checkout-local-idc.yaml",
                                          examples + "overflow-onprem-cloud.yaml"};

// lint --clusters --workloads [--base B]... EXTRA... PATHS...
kpw::test::process_result lint_diff(const std::vector<std::string>& base, const std::vector<std::string>& paths,
                                    const std::vector<std::string>& extra = {})
{
    std::vector<std::string> args{"--clusters", examples + "clusters.yaml", "--workloads", examples + "workloads.yaml"};
    for (const auto& b : base)
        args.insert(args.end(), {"--base", b});
    args.insert(args.end(), extra.begin(), extra.end());
    args.insert(args.end(), paths.begin(), paths.end());
    return run_lint(args);
}

const kpw::doc::value* entry_for(const kpw::doc::value& report, std::string_view workload)
{
    for (const auto& d : report.find("diff")->items())
        if (d.find_path({"workload", "name"})->text() == workload)
            return &d;
    return nullptr;
}

// A policy with the highest priority claiming the nginx Deployment, onto member1.
const std::string claim_nginx = R"(apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: {name: nginx-pinned, namespace: default}
spec:
  priority: 100
  resourceSelectors: [{apiVersion: apps/v1, kind: Deployment, name: nginx}]
  placement:
    clusterAffinity: {clusterNames: [member1]}
)";

} // namespace

TEST_CASE("the shipped examples against pr-edit: nginx changes group, checkout becomes unschedulable")
{
    auto r = lint_diff(shipped, {examples + "pr-edit"}, {"-o", "json"});
    CHECK(r.exit_code == 1); // --fail-on=unschedulable (the default): checkout is unschedulable
    auto v = json_of(r.out);
    CHECK(v.find_path({"summary", "changed"})->as_int() == 2);
    CHECK(v.find_path({"summary", "unchanged"})->as_int() == 1);
    const auto* nginx = entry_for(v, "nginx");
    REQUIRE(nginx);
    CHECK(kpw::doc::to_json(*nginx->find("workload")) ==
          R"({"apiVersion":"apps/v1","kind":"Deployment","namespace":"default","name":"nginx"})");
    CHECK(nginx->find_path({"before", "affinityName"})->text() == "dc-beijing");
    CHECK(nginx->find_path({"after", "affinityName"})->text() == "dc-hongkong");
    CHECK(kpw::doc::to_json(*nginx->find("moves")) ==
          R"([{"cluster":"member1","from":3,"to":0},{"cluster":"member2","from":0,"to":3}])");
    const auto* checkout = entry_for(v, "checkout");
    REQUIRE(checkout);
    CHECK(checkout->find_path({"before", "scheduled"})->as_bool());
    CHECK_FALSE(checkout->find_path({"after", "scheduled"})->as_bool());
    CHECK(checkout->find_path({"after", "clusters"})->items().empty());
    CHECK(entry_for(v, "nginx-overflow") == nullptr);
    // The rest of the output describes the new side.
    CHECK(v.find("results")->items()[0].string_at("file").find("pr-edit/") != std::string::npos);
}

TEST_CASE("the text plan lists each change with its sign and ends with the one-line summary")
{
    auto r = lint_diff(shipped, {examples + "pr-edit"});
    CHECK(r.out.find("  ~ Deployment default/nginx: group dc-beijing → dc-hongkong, - member1 3 (dc-beijing), "
                     "+ member2 3 (dc-hongkong)\n") != std::string::npos);
    CHECK(r.out.find("  ~ Deployment production/checkout: scheduled → unschedulable, - idc-east-1 6 (local-idc), "
                     "- cloud-east-1 4 (public-cloud)\n") != std::string::npos);
    CHECK(r.out.ends_with("2 workloads change placement, 1 becomes unschedulable, 1 unchanged\n"));
}

TEST_CASE("--fail-on: none passes the unschedulable edit but not a denial, move fails a pure move, no change passes")
{
    CHECK(lint_diff(shipped, {examples + "pr-edit"}, {"--fail-on=none"}).exit_code == 0);
    // A denial still fails under none: it is no placement question.
    CHECK(lint_diff(shipped, {examples + "pr-edit", examples + "broken"}, {"--fail-on=none"}).exit_code == 1);
    const std::string edited_groups = examples + "pr-edit/dc-groups.yaml";
    CHECK(lint_diff({examples + "dc-groups.yaml"}, {edited_groups}).exit_code == 0);
    CHECK(lint_diff({examples + "dc-groups.yaml"}, {edited_groups}, {"--fail-on=move"}).exit_code == 1);
    auto same = lint_diff(shipped, shipped, {"--fail-on=move", "-o", "json"});
    CHECK(same.exit_code == 0);
    auto v = json_of(same.out);
    CHECK(v.find("diff")->items().empty());
    CHECK(v.find_path({"summary", "unchanged"})->as_int() == 3);
}

TEST_CASE("an added policy is a + entry with no policy before; the removed one a - entry")
{
    auto added = lint_diff({examples + "dc-groups.yaml"}, shipped, {"-o", "json", "--fail-on=none"});
    auto v = json_of(added.out);
    CHECK(v.find_path({"summary", "changed"})->as_int() == 2);
    const auto* overflow = entry_for(v, "nginx-overflow");
    REQUIRE(overflow);
    CHECK(overflow->find_path({"before", "policy"})->is_null());
    CHECK(overflow->find_path({"after", "policy"})->text() == "PropagationPolicy default/nginx-overflow");
    CHECK(overflow->find("moves")->items().size() == 3);

    auto removed = lint_diff(shipped, {examples + "dc-groups.yaml"}, {"--fail-on=none"});
    CHECK(removed.out.find("  - Deployment default/nginx-overflow: no longer claimed (was PropagationPolicy "
                           "default/nginx-overflow), - cluster1 4 (on-prem)") != std::string::npos);
    CHECK(removed.out.find("  - Deployment production/checkout:") != std::string::npos);
}

TEST_CASE("a higher-priority policy takes a claimed workload over only by preemption")
{
    // The base side's detector claimed nginx for PropagationPolicy default/nginx (the workload files carry no
    // claim): a new policy of higher priority does not take it over (claims are sticky) unless it preempts.
    kpw::test::temp_dir dir;
    const auto pinned = dir.write("pinned.yaml", claim_nginx).string();
    auto sticky = lint_diff({examples + "dc-groups.yaml"}, {examples + "dc-groups.yaml", pinned}, {"-o", "json"});
    CHECK(entry_for(json_of(sticky.out), "nginx") == nullptr);

    const auto preempting = dir.write("preempting.yaml", claim_nginx + "  preemption: Always\n").string();
    auto r = lint_diff({examples + "dc-groups.yaml"}, {examples + "dc-groups.yaml", preempting},
                       {"-o", "json", "--feature-gates=PropagationPolicyPreemption=true"});
    auto v = json_of(r.out);
    const auto* nginx = entry_for(v, "nginx");
    REQUIRE(nginx);
    CHECK(nginx->find_path({"before", "policy"})->text() == "PropagationPolicy default/nginx");
    CHECK(nginx->find_path({"after", "policy"})->text() == "PropagationPolicy default/nginx-pinned");
    CHECK(nginx->find_path({"after", "affinityName"})->text().empty());
    CHECK(nginx->find("moves")->items().empty()); // member1 keeps its 3 replicas
}

TEST_CASE("--base without a snapshot, --fail-on=move without --base and stdin on both sides are usage errors")
{
    auto no_snapshot = run_lint({"--base", shipped[0], shipped[0]});
    CHECK(no_snapshot.exit_code == 2);
    CHECK(no_snapshot.err.find("--base needs --clusters and --workloads") != std::string::npos);
    auto no_base = lint_diff({}, {shipped[0]}, {"--fail-on=move"});
    CHECK(no_base.exit_code == 2);
    CHECK(no_base.err.find("--fail-on=move needs --base") != std::string::npos);
    auto missing_base = lint_diff({examples + "no-such-dir"}, {shipped[0]});
    CHECK(missing_base.exit_code == 2);
    auto both_stdin = lint_diff({"-"}, {});
    CHECK(both_stdin.exit_code == 2);
    CHECK(both_stdin.err.find("cannot both read standard input") != std::string::npos);
}
