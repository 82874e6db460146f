// SPDX-License-Identifier: Apache-2.0
// `simulate` end to end through the real binary: the shipped drills with exact replica numbers, the
// eviction settings, exit codes and scenario errors.
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <string>

#include <doctest/doctest.h>

#include "support/lint_run.hpp"
#include "support/temp_dir.hpp"

using kpw::test::json_of;
using kpw::test::run_process;
using kpw::test::temp_dir;

namespace {

const std::string examples = std::string(KPW_SOURCE_ROOT) + "/manifests/examples/";

kpw::test::process_result simulate(const std::string& drill, const std::string& policy, std::vector<std::string> extra = {})
{
    std::vector<std::string> args{KPW_BINARY, "simulate", "-o", "json", "--clusters", examples + "clusters.yaml",
                                  "--workloads", examples + "workloads.yaml", "--scenario", drill, policy};
    args.insert(args.end(), extra.begin(), extra.end());
    return run_process(args);
}

const kpw::doc::value& workload(const kpw::doc::value& step, std::string_view name)
{
    for (const auto& w : step.find("workloads")->items())
        if (w.find("workload")->string_at("name") == name)
            return w;
    FAIL("no workload ", name);
    return step;
}

// "cluster1=4,cluster2=17" from a step's clusters.
std::string placement(const kpw::doc::value& w)
{
    std::string s;
    for (const auto& c : w.find("clusters")->items())
    {
        if (!s.empty())
            s.push_back(',');
        s.append(c.string_at("name")).append("=").append(std::to_string(c.find("replicas")->as_int()));
    }
    return s;
}

// PropagationPolicy default/pp for every Deployment, with `placement` (its YAML, indented four spaces).
std::string pp_placing_deployments(const std::string& placement)
{
    return "apiVersion: policy.karmada.io/v1alpha1\nkind: PropagationPolicy\nmetadata: {name: pp, namespace: default}\n"
           "spec:\n  resourceSelectors: [{apiVersion: apps/v1, kind: Deployment}]\n  placement:\n" +
           placement.substr(placement.starts_with('\n') ? 1 : 0);
}

bool has_warning(const kpw::doc::value& step, std::string_view id)
{
    for (const auto& w : step.find("warnings")->items())
        if (w.string_at("id") == id)
            return true;
    return false;
}

} // namespace

TEST_CASE("hybrid-cloud drill: the peak spills to the cloud, capacity returns, a scale-down brings it home")
{
    auto r = simulate(examples + "drills/hybrid-cloud-overflow.yaml", examples + "overflow-onprem-cloud.yaml");
    REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    auto v = json_of(r.out);
    const auto& steps = v.find("steps")->items();
    REQUIRE(steps.size() == 6);
    CHECK(placement(workload(steps[0], "nginx-overflow")) == "cluster1=4,cluster2=4,cluster3=2");
    // Steady scale-up: the primary tier is full, only the overflow tier grows (no re-spread).
    CHECK(placement(workload(steps[1], "nginx-overflow")) == "cluster1=4,cluster2=17,cluster3=9");
    CHECK(workload(steps[1], "nginx-overflow").string_at("trigger") == "replicas changed");
    // Capacity returning is a status change: nothing moves, and the warning says so.
    CHECK(workload(steps[2], "nginx-overflow").find("moves")->items().empty());
    CHECK(has_warning(steps[2], "stays-in-overflow"));
    // The scale-down refills tier 0 first and drops the overflow replicas (day2-semantics §0 item 11).
    CHECK(placement(workload(steps[4], "nginx-overflow")) == "cluster1=20");
    CHECK_FALSE(has_warning(steps[4], "stays-in-overflow"));
    CHECK(workload(steps[5], "nginx-overflow").string_at("trigger") == "reschedule triggered");
}

TEST_CASE("DR drill with binary defaults: nothing moves off the failed cluster and the step fails")
{
    auto r = simulate(examples + "drills/dr-failover.yaml", examples + "dc-groups.yaml");
    CHECK(r.exit_code == 1);
    auto v = json_of(r.out);
    const auto& steps = v.find("steps")->items();
    REQUIRE(steps.size() == 8);
    CHECK(placement(workload(steps[2], "nginx")) == "member1=3");
    CHECK(workload(steps[2], "nginx").find("serving")->as_int() == 0);
    CHECK(has_warning(steps[2], "zero-serving-replicas"));
    CHECK(has_warning(steps[2], "no-eviction-with-these-flags"));
    CHECK(placement(workload(steps[3], "nginx")) == "member1=3"); // NoExecute, but eviction is off
    CHECK(has_warning(steps[3], "no-eviction-with-these-flags"));
    CHECK(steps[2].find("failed")->as_bool());
}

TEST_CASE("DR drill with eviction on: failover to the next group, graceful overlap, a rebalancer keeps the group")
{
    auto r = simulate(examples + "drills/dr-failover.yaml", examples + "dc-groups.yaml",
                      {"--feature-gates", "Failover=true", "--enable-no-execute-taint-eviction"});
    auto v = json_of(r.out);
    const auto& steps = v.find("steps")->items();
    REQUIRE(steps.size() == 8);
    const auto& evicted = workload(steps[3], "nginx");
    CHECK(placement(evicted) == "member2=3");
    CHECK(evicted.string_at("affinityName") == "dc-hongkong");
    REQUIRE(evicted.find("evictions")->items().size() == 1);
    CHECK(evicted.find("evictions")->items()[0].string_at("cluster") == "member1");
    CHECK(evicted.find("evictions")->items()[0].string_at("purgeMode") == "Gracefully");
    CHECK(workload(steps[4], "nginx").find("evictions")->items().empty()); // the 10 min timeout passed
    CHECK(placement(workload(steps[5], "nginx")) == "member2=3");          // recovery moves nothing back
    CHECK(has_warning(steps[6], "stays-in-fallback-group"));
    // v1.16.0-v1.18.2: a rebalance re-schedules from the observed group (getAffinityIndex), not index 0.
    CHECK(workload(steps[7], "nginx").find("acted")->as_bool());
    CHECK(placement(workload(steps[7], "nginx")) == "member2=3");
    CHECK(workload(steps[7], "nginx").string_at("affinityName") == "dc-hongkong");
    CHECK(has_warning(steps[7], "stays-in-fallback-group"));
}

TEST_CASE("what the stays-in-fallback-group warning offers works: a policy without the observed group")
{
    // dr-failover with eviction on, then a policy whose fallback group is renamed: the observed name is
    // gone, so the placement counts as changed and the walk starts at index 0 (helper.go clusterAffinitiesChanged,
    // getAffinityIndex), back to dc-beijing.
    temp_dir dir;
    std::ifstream in(examples + "dc-groups.yaml");
    std::string policy((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const auto at = policy.find("affinityName: dc-hongkong");
    REQUIRE(at != std::string::npos);
    policy.replace(at, std::string("affinityName: dc-hongkong").size(), "affinityName: dc-hongkong-standby");
    std::ofstream(dir.path / "renamed.yaml") << policy;
    std::ifstream drill_in(examples + "drills/dr-failover.yaml");
    std::string drill((std::istreambuf_iterator<char>(drill_in)), std::istreambuf_iterator<char>());
    std::ofstream(dir.path / "drill.yaml") << drill << "  - name: rename the fallback group\n"
                                           << "    applyPolicy: {path: renamed.yaml}\n";
    auto r = simulate((dir.path / "drill.yaml").string(), examples + "dc-groups.yaml",
                      {"--feature-gates", "Failover=true", "--enable-no-execute-taint-eviction"});
    auto v = json_of(r.out);
    const auto& steps = v.find("steps")->items();
    REQUIRE(steps.size() == 9);
    CHECK(workload(steps[7], "nginx").string_at("affinityName") == "dc-hongkong");
    const auto& back = workload(steps[8], "nginx");
    CHECK(back.string_at("affinityName") == "dc-beijing");
    CHECK(placement(back) == "member1=3");
    CHECK_FALSE(has_warning(steps[8], "stays-in-fallback-group"));
}

TEST_CASE("purge mode Directly on a NotReady cluster holds back the new placement")
{
    auto r = simulate(examples + "drills/dr-failover.yaml", examples + "dc-groups.yaml",
                      {"--feature-gates", "Failover=true", "--enable-no-execute-taint-eviction",
                       "--no-execute-taint-eviction-purge-mode", "Directly"});
    auto v = json_of(r.out);
    const auto& step = v.find("steps")->items()[3];
    CHECK(placement(workload(step, "nginx")) == "member2=3");
    CHECK(workload(step, "nginx").find("serving")->as_int() == 0);
    CHECK(has_warning(step, "directly-purge-blocks-dispatch"));
}

TEST_CASE("a scenario naming an unknown cluster, a bad step or an unknown gate is exit 2 with a position")
{
    temp_dir dir;
    const auto bad = dir.path / "bad.yaml";
    std::ofstream(bad) << "apiVersion: karmada-policy-webhook.io/v1alpha1\nkind: Scenario\nmetadata: {name: x}\n"
                          "steps:\n  - taint: {cluster: nowhere, taint: \"a=b:NoSchedule\"}\n";
    auto r = simulate(bad.string(), examples + "dc-groups.yaml");
    CHECK(r.exit_code == 2);
    CHECK(r.err.find(bad.string() + ":5:") != std::string::npos);
    CHECK(r.err.find("nowhere") != std::string::npos);
    std::ofstream(bad) << "apiVersion: karmada-policy-webhook.io/v1alpha1\nkind: Scenario\nmetadata: {name: x}\n"
                          "steps:\n  - scale: {workload: Deployment/default/nginx, replicas: -1}\n";
    r = simulate(bad.string(), examples + "dc-groups.yaml");
    CHECK(r.exit_code == 2);
    CHECK(r.err.find(bad.string() + ":5:") != std::string::npos);
    r = simulate(examples + "drills/dr-failover.yaml", examples + "dc-groups.yaml", {"--feature-gates", "Failovr=true"});
    CHECK(r.exit_code == 2);
    CHECK(r.err.find("unrecognized feature gate: Failovr") != std::string::npos);
}

TEST_CASE("lint --bindings: scale-up, sticky group and placement change predicted from today's bindings")
{
    auto r = kpw::test::run_lint({"-o", "json", "--clusters", examples + "clusters.yaml", "--workloads",
                                  examples + "workloads.yaml", "--bindings", examples + "day2/bindings.yaml",
                                  examples + "overflow-onprem-cloud.yaml", examples + "dc-groups.yaml",
                                  examples + "checkout-local-idc.yaml"});
    REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    auto v = json_of(r.out);
    CHECK(v.find_path({"summary", "notPredicted"})->as_int() == 0);
    std::map<std::string, const kpw::doc::value*> by_name;
    for (const auto& res : v.find("results")->items())
        for (const auto& s : res.find("scheduling")->items())
            by_name[std::string(s.find("workload")->string_at("name"))] = &s;
    REQUIRE(by_name.size() == 3);
    const auto& overflow = *by_name["nginx-overflow"];
    CHECK(overflow.find("acted")->as_bool());
    CHECK(overflow.string_at("trigger") == "replicas changed");
    CHECK(placement(overflow) == "cluster1=8,cluster2=2"); // Steady: the delta on top of the old result
    CHECK(overflow.find("previous")->string_at("affinityName") == "on-prem");
    const auto& nginx = *by_name["nginx"];
    CHECK(nginx.string_at("affinityName") == "dc-hongkong"); // the observed group is sticky
    CHECK(nginx.find("moves")->items().empty());
    const auto& checkout = *by_name["checkout"];
    CHECK(checkout.string_at("trigger") == "placement changed");
    REQUIRE(checkout.find("moves")->items().size() == 1);
    CHECK(checkout.find("moves")->items()[0].find("to")->as_int() == 10);
}

TEST_CASE("lint --bindings: a binding without a Scheduled condition that the scheduler leaves alone has none")
{
    // Karmada writes no condition when doScheduleBinding decides nothing (scheduler.go:458): the entry has
    // no `condition` key, as the oracle's (conformance case reschedule-acted-lint-only). Its spec.clusters
    // add up to spec.replicas and the applied placement is the policy's, so no rule fires.
    temp_dir dir;
    auto policy = dir.write("policy.yaml", pp_placing_deployments(R"(
    clusterAffinity: {clusterNames: [member1]}
    replicaScheduling: {replicaSchedulingType: Divided, replicaDivisionPreference: Aggregated}
)"));
    auto workloads = dir.write("workloads.yaml", "apiVersion: apps/v1\nkind: Deployment\n"
                                                 "metadata: {name: web, namespace: default}\nspec: {replicas: 2}\n");
    auto clusters = dir.write("clusters.yaml", "apiVersion: cluster.karmada.io/v1alpha1\nkind: Cluster\n"
                                               "metadata: {name: member1}\n");
    const std::string bindings = R"(apiVersion: work.karmada.io/v1alpha2
kind: ResourceBinding
metadata:
  name: web-deployment
  namespace: default
  labels: {propagationpolicy.karmada.io/permanent-id: id-1}
  annotations:
    propagationpolicy.karmada.io/namespace: default
    propagationpolicy.karmada.io/name: pp
    policy.karmada.io/applied-placement: '{"clusterAffinity":{"clusterNames":["member1"]},"replicaScheduling":{"replicaDivisionPreference":"Aggregated","replicaSchedulingType":"Divided"}}'
spec:
  resource: {apiVersion: apps/v1, kind: Deployment, namespace: default, name: web}
  replicas: 2
  clusters: [{name: member1, replicas: 2}]
)";
    auto run = [&](const std::string& text) {
        auto r = kpw::test::run_lint({"-o", "json", "--clusters", clusters.string(), "--workloads", workloads.string(),
                                      "--bindings", dir.write("bindings.yaml", text).string(), policy.string()});
        REQUIRE_MESSAGE(r.exit_code == 0, r.err);
        auto v = json_of(r.out);
        const auto& s = v.find("results")->items()[0].find("scheduling")->items();
        REQUIRE(s.size() == 1);
        CHECK_FALSE(s[0].find("acted")->as_bool());
        CHECK(s[0].find("scheduled")->as_bool());
        return s[0].find("condition") != nullptr;
    };
    CHECK_FALSE(run(bindings));
    CHECK(run(bindings + "status:\n  conditions: [{type: Scheduled, status: 'True', reason: Success}]\n"));
}

TEST_CASE("lint --bindings: a binding whose policy is not linted is counted, not predicted")
{
    auto r = kpw::test::run_lint({"-o", "json", "--clusters", examples + "clusters.yaml", "--bindings",
                                  examples + "day2/bindings.yaml", examples + "dc-groups.yaml"});
    auto v = json_of(r.out);
    CHECK(v.find_path({"summary", "notPredicted"})->as_int() == 2);
}

TEST_CASE("lint --base with --bindings: the base side is today's spec.clusters, the new side the prediction")
{
    auto r = kpw::test::run_lint({"-o", "json", "--clusters", examples + "clusters.yaml", "--workloads",
                                  examples + "workloads.yaml", "--bindings", examples + "day2/bindings.yaml",
                                  "--base", examples + "overflow-onprem-cloud.yaml", "--base", examples + "dc-groups.yaml",
                                  "--base", examples + "checkout-local-idc.yaml", examples + "overflow-onprem-cloud.yaml",
                                  examples + "dc-groups.yaml", examples + "checkout-local-idc.yaml"});
    auto v = json_of(r.out);
    const auto& diff = v.find("diff")->items();
    REQUIRE(diff.size() == 2); // nginx stays on member2: unchanged although the base policy would put it in dc-beijing
    CHECK(v.find_path({"summary", "unchanged"})->as_int() == 1);
    const auto& overflow = diff[0];
    CHECK(overflow.find("workload")->string_at("name") == "nginx-overflow");
    CHECK(placement(*overflow.find("before")) == "cluster1=4,cluster2=2");
    CHECK(placement(*overflow.find("after")) == "cluster1=8,cluster2=2");
}

TEST_CASE("lint on the AI examples: with the gate the PyTorchJob is kept together with its components; without, not")
{
    const std::vector<std::string> base{"-o", "json", "--clusters", examples + "ai/clusters.yaml", "--workloads",
                                        examples + "ai/workloads", examples + "ai/policies/keep-together.yaml"};
    auto on_args = base;
    on_args.insert(on_args.begin(), "--feature-gates=MultiplePodTemplatesScheduling=true");
    auto on = json_of(kpw::test::run_lint(on_args).out);
    auto off = json_of(kpw::test::run_lint(base).out);
    auto job = [](const kpw::doc::value& report) -> const kpw::doc::value* {
        for (const auto& r : report.find("results")->items())
            for (const auto& s : r.find("scheduling")->items())
                if (s.find("workload")->string_at("kind") == "PyTorchJob")
                    return &s;
        return nullptr;
    };
    const auto* kept = job(on);
    REQUIRE(kept != nullptr);
    CHECK(kept->find("scheduled")->as_bool());
    const auto& clusters = kept->find("clusters")->items();
    REQUIRE(clusters.size() == 1);
    CHECK(clusters[0].string_at("name") == "gpu-h100-bj");
    const auto& components = clusters[0].find("components")->items();
    REQUIRE(components.size() == 2);
    CHECK(components[0].string_at("name") == "master");
    CHECK(components[1].string_at("name") == "worker");
    CHECK(components[1].find("replicas")->as_int() == 4);
    auto warned = [](const kpw::doc::value& report, std::string_view id) {
        for (const auto& r : report.find("results")->items())
            for (const auto& w : r.find("warnings")->items())
                if (w.string_at("id") == id)
                    return true;
        return false;
    };
    CHECK(warned(off, "components-gate-off"));
    CHECK_FALSE(warned(on, "components-gate-off"));
    const auto* apart = job(off);
    // Gate off: Karmada writes no components (the job is not interpreted as one), nothing keeps it together.
    if (apart != nullptr)
        for (const auto& c : apart->find("clusters")->items())
            CHECK(c.find("components") == nullptr);
}

TEST_CASE("simulate and lint --bindings split a tie alike for a binding that records its template's uid only "
          "as its owner")
{
    // A workload file from git has no uid; its binding names the live one, here only as its controller
    // owner. Karmada's Webster dispenser breaks the 3-replica tie between two equal weights by that uid
    // (helper.NewDispenser(..., spec.Resource.UID)), so both faces must seed it alike (live_template_uid).
    temp_dir dir;
    auto policy = dir.write("policy.yaml", pp_placing_deployments(R"(
    clusterAffinity: {clusterNames: [member1, member2]}
    replicaScheduling:
      replicaSchedulingType: Divided
      replicaDivisionPreference: Weighted
      weightPreference:
        staticWeightList:
        - {targetCluster: {clusterNames: [member1]}, weight: 1}
        - {targetCluster: {clusterNames: [member2]}, weight: 1}
)"));
    auto workloads = dir.write("workloads.yaml", "apiVersion: apps/v1\nkind: Deployment\n"
                                                 "metadata: {name: web, namespace: default}\nspec: {replicas: 3}\n");
    auto clusters = dir.write("clusters.yaml", "apiVersion: cluster.karmada.io/v1alpha1\nkind: Cluster\n"
                                               "metadata: {name: member1}\n---\n"
                                               "apiVersion: cluster.karmada.io/v1alpha1\nkind: Cluster\n"
                                               "metadata: {name: member2}\n");
    auto scenario = dir.write("scenario.yaml", "apiVersion: karmada-policy-webhook.io/v1alpha1\nkind: Scenario\n"
                                               "metadata: {name: tie}\nsteps:\n- name: later\n"
                                               "  wait: {duration: 1m}\n");
    std::set<std::string> splits;
    for (const char* uid : {"0a", "1b", "2c", "3d", "4e", "5f", "60", "71"}) {
        CAPTURE(uid);
        auto bindings = dir.write("bindings.yaml", std::string(R"(apiVersion: work.karmada.io/v1alpha2
kind: ResourceBinding
metadata:
  name: web-deployment
  namespace: default
  labels: {propagationpolicy.karmada.io/permanent-id: id-1}
  annotations: {propagationpolicy.karmada.io/namespace: default, propagationpolicy.karmada.io/name: pp}
  ownerReferences:
  - {apiVersion: apps/v1, kind: Deployment, name: web, controller: true, uid: ")") +
                                                       uid + R"("}
spec:
  resource: {apiVersion: apps/v1, kind: Deployment, namespace: default, name: web}
  replicas: 2
  clusters: [{name: member1, replicas: 1}, {name: member2, replicas: 1}]
)");
        auto lint = kpw::test::run_lint({"-o", "json", "--clusters", clusters.string(), "--workloads",
                                         workloads.string(), "--bindings", bindings.string(), policy.string()});
        REQUIRE_MESSAGE(lint.exit_code == 0, lint.err);
        auto linted = json_of(lint.out);
        const auto& s = linted.find("results")->items()[0].find("scheduling")->items();
        REQUIRE(s.size() == 1);
        auto sim = run_process({KPW_BINARY, "simulate", "-o", "json", "--clusters", clusters.string(), "--workloads",
                                workloads.string(), "--bindings", bindings.string(), "--scenario", scenario.string(),
                                policy.string()});
        REQUIRE_MESSAGE(sim.exit_code == 0, sim.err);
        auto simulated = json_of(sim.out);
        const auto& initial = simulated.find("steps")->items()[0];
        CHECK(placement(workload(initial, "web")) == placement(s[0]));
        splits.insert(placement(s[0]));
    }
    CHECK(splits.size() == 2); // the uid decides the tie: some seed member1=2, others member2=2
}

TEST_CASE("relabel, applyPolicy and deletePolicy steps: a claim changes hands as Karmada's detector hands it")
{
    const std::string data = std::string(KPW_TEST_DATA) + "/lifecycle/";
    auto r = run_process({KPW_BINARY, "simulate", "-o", "json", "--clusters", data + "clusters.yaml", "--workloads",
                          data + "relabel/workloads-team-a.yaml", "--bindings", data + "relabel/bindings.yaml",
                          "--scenario", data + "relabel/drill.yaml", data + "relabel/base/teams.yaml"});
    REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    auto v = json_of(r.out);
    const auto& steps = v.find("steps")->items();
    REQUIRE(steps.size() == 4);
    auto holder = [](const kpw::doc::value& w) {
        const auto* p = w.find("policy");
        return p == nullptr || p->is_null() ? std::string() : std::string(p->text());
    };
    // Relabelled away from team-a: team-a is not reconciled, so it keeps web on member1.
    CHECK(placement(workload(steps[1], "web")) == "member1=3");
    CHECK(holder(workload(steps[1], "web")) == "PropagationPolicy default/team-a");
    // team-a's spec changes: it releases web (cleanPPUnmatchedRBs), team-b claims it and moves it.
    CHECK(placement(workload(steps[2], "web")) == "member2=3");
    CHECK(holder(workload(steps[2], "web")) == "PropagationPolicy default/team-b");
    // team-b deleted: the binding keeps member2, with no policy.
    CHECK(placement(workload(steps[3], "web")) == "member2=3");
    CHECK(holder(workload(steps[3], "web")).empty());
}

TEST_CASE("deletePolicy of a policy that does not exist changes nothing, and a bad step is exit 2 with a position")
{
    temp_dir dir;
    const auto drill = dir.write("drill.yaml", "apiVersion: karmada-policy-webhook.io/v1alpha1\nkind: Scenario\n"
                                               "metadata: {name: d}\nsteps:\n"
                                               "- deletePolicy: {kind: PropagationPolicy, namespace: default, name: nope}\n");
    auto ok = simulate(drill.string(), examples + "dc-groups.yaml");
    CHECK(ok.exit_code == 0);
    CHECK(ok.out.find("fails: NotFound") != std::string::npos);
    const auto bad = dir.write("bad.yaml", "apiVersion: karmada-policy-webhook.io/v1alpha1\nkind: Scenario\n"
                                           "metadata: {name: d}\nsteps:\n"
                                           "- deletePolicy: {kind: Deployment, name: x}\n"
                                           "- relabel: {workload: Deployment/default/nginx, labels: {a: 1}}\n");
    auto refused = simulate(bad.string(), examples + "dc-groups.yaml");
    CHECK(refused.exit_code == 2);
    CHECK(refused.err.find("bad.yaml:5:") != std::string::npos);
    CHECK(refused.err.find("steps[0].deletePolicy.kind: Unsupported value: \"Deployment\"") != std::string::npos);
    CHECK(refused.err.find("steps[1].relabel.labels[a]: Invalid value: a label value is a string, or null") !=
          std::string::npos);
}

TEST_CASE("applyPolicy, deletePolicy and relabel steps leave a Lazy claim's binding alone as Karmada's queue has it")
{
    const std::string data = std::string(KPW_TEST_DATA) + "/lifecycle/";
    auto r = run_process({KPW_BINARY, "simulate", "-o", "json", "--clusters", data + "clusters.yaml", "--workloads",
                          data + "lazy/workloads.yaml", "--bindings", data + "relabel/bindings.yaml", "--scenario",
                          data + "lazy/drill.yaml", data + "relabel/base/teams.yaml"});
    REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    auto v = json_of(r.out);
    const auto& steps = v.find("steps")->items();
    REQUIRE(steps.size() == 5);
    const auto listed = [](const kpw::doc::value& step, std::string_view name) {
        for (const auto& w : step.find("workloads")->items())
            if (w.find("workload")->string_at("name") == name)
                return true;
        return false;
    };
    // team-a deleted: web's binding stays on member1, unclaimed.
    CHECK(placement(workload(steps[1], "web")) == "member1=3");
    // lazy-c's reconcile queues api as Karmada's own change: claimed, no binding.
    CHECK_FALSE(listed(steps[2], "api"));
    // eager-a is not Lazy: its reconcile queues the unclaimed web without the flag, and writes the binding.
    CHECK(placement(workload(steps[3], "web")) == "member2=3");
    CHECK_FALSE(listed(steps[3], "api"));
    // A user's change to api: lazy-c builds its binding.
    CHECK(placement(workload(steps[4], "api")) == "member2=2");

    // A deletion's release queues web without the flag: the Lazy lazy-a that claims it writes the binding.
    auto released = run_process({KPW_BINARY, "simulate", "-o", "json", "--clusters", data + "clusters.yaml",
                                 "--workloads", data + "lazy/workloads.yaml", "--bindings",
                                 data + "relabel/bindings.yaml", "--scenario", data + "lazy/drill-release.yaml",
                                 data + "relabel/base/teams.yaml", data + "lazy/lazy-a.yaml"});
    REQUIRE_MESSAGE(released.exit_code == 0, released.err);
    auto after = json_of(released.out);
    const auto& release_steps = after.find("steps")->items();
    REQUIRE(release_steps.size() == 2);
    CHECK(placement(workload(release_steps[1], "web")) == "member2=3");
}
