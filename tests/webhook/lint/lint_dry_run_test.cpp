// SPDX-License-Identifier: Apache-2.0
// `lint --clusters --workloads` end to end through the real binary on the shipped seed scenarios.
#include <cstdlib>
#include <unistd.h>
#include <filesystem>
#include <fstream>
#include <string>

#include <doctest/doctest.h>

#include "support/lint_run.hpp"
#include "support/temp_dir.hpp"

namespace fs = std::filesystem;
using kpw::test::json_of;
using kpw::test::run_lint;
using kpw::test::temp_dir;

namespace {

const std::string examples = std::string(KPW_SOURCE_ROOT) + "/manifests/examples/";
const std::string clusters = examples + "clusters.yaml";
const std::string workloads = examples + "workloads.yaml";

// The policy (by name) of a JSON report.
const kpw::doc::value& result_named(const kpw::doc::value& report, std::string_view name)
{
    for (const auto& r : report.find("results")->items())
        if (r.string_at("name") == name)
            return r;
    FAIL("no result ", name);
    return report;
}

// A checkout-like policy whose only group cannot hold 50 replicas.
const std::string too_big = R"(apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: {name: big, namespace: production}
spec:
  resourceSelectors: [{apiVersion: apps/v1, kind: Deployment, name: checkout}]
  priority: 10
  placement:
    clusterAffinities:
      - affinityName: local-idc
        clusterNames: [idc-east-1]
    replicaScheduling:
      replicaSchedulingType: Divided
      replicaDivisionPreference: Weighted
      weightPreference: {dynamicWeight: AvailableReplicas}
)";


} // namespace

TEST_CASE("checkout-local-idc: the JSON entry of issue 4, idc-east-1 6 and cloud-east-1 4")
{
    auto r = run_lint({"-o", "json", "--clusters", clusters, "--workloads", workloads, examples + "checkout-local-idc.yaml"});
    CHECK(r.exit_code == 0);
    auto v = json_of(r.out);
    CHECK(v.find_path({"summary", "unschedulable"})->as_int() == 0);
    const auto& s = result_named(v, "checkout-overflow").find("scheduling")->items();
    REQUIRE(s.size() == 1);
    CHECK(kpw::doc::to_json(*s[0].find("workload")) ==
          R"({"apiVersion":"apps/v1","kind":"Deployment","namespace":"production","name":"checkout","replicas":10})");
    CHECK(s[0].find("scheduled")->as_bool());
    CHECK(s[0].string_at("affinityName") == "local-idc");
    const auto& cs = s[0].find("clusters")->items();
    REQUIRE(cs.size() == 2);
    CHECK(cs[0].string_at("name") == "idc-east-1");
    CHECK(cs[0].find("replicas")->as_int() == 6);
    CHECK(cs[0].string_at("tier") == "local-idc");
    CHECK(cs[1].string_at("name") == "cloud-east-1");
    CHECK(cs[1].find("replicas")->as_int() == 4);
    CHECK(cs[1].string_at("tier") == "public-cloud");
    CHECK_FALSE(s[0].find("tie")->as_bool());
}

TEST_CASE("all three seed scenarios in text: chosen group, why earlier groups failed, the table")
{
    auto r = run_lint({"--clusters", clusters, "--workloads", workloads, examples + "dc-groups.yaml",
                   examples + "overflow-onprem-cloud.yaml", examples + "checkout-local-idc.yaml"});
    CHECK(r.exit_code == 0);
    CHECK(r.out.find("scheduled in group dc-beijing") != std::string::npos);
    CHECK(r.out.find("    dc-shanghai: no cluster passed the filters (unavailable: not in the snapshot)\n") !=
          std::string::npos);
    CHECK(r.out.find("cluster2                         4         public-cloud          48") != std::string::npos);
    CHECK(r.out.find("cluster3                         2         public-cloud          24") != std::string::npos);
    CHECK(r.out.find("[affinity-matches-no-cluster]") != std::string::npos);
}

TEST_CASE("an affinity matching no cluster is reported even without workloads")
{
    auto r = run_lint({"-o", "json", "--clusters", clusters, examples + "dc-groups.yaml"});
    CHECK(r.exit_code == 0);
    auto v = json_of(r.out);
    const auto& p = result_named(v, "nginx");
    REQUIRE(p.find("warnings")->items().size() == 1);
    const auto& w = p.find("warnings")->items()[0];
    CHECK(w.string_at("id") == "affinity-matches-no-cluster");
    CHECK(w.string_at("field") == "spec.placement.clusterAffinities[0]");
    CHECK(w.find("line")->as_int() == 16);
    CHECK(p.find("scheduling")->items().empty());
}

TEST_CASE("a group too small for the workload: unschedulable entry, no affinityName, summary counts it")
{
    auto r = run_lint({"-o", "json", "--clusters", clusters, "--workloads", workloads, "-"}, too_big);
    CHECK(r.exit_code == 1);
    auto v = json_of(r.out);
    CHECK(v.find_path({"summary", "unschedulable"})->as_int() == 1);
    const auto& s = result_named(v, "big").find("scheduling")->items();
    REQUIRE(s.size() == 1);
    CHECK_FALSE(s[0].find("scheduled")->as_bool());
    CHECK(s[0].find("affinityName") == nullptr);
    CHECK(s[0].find("clusters")->items().empty());
    CHECK(s[0].string_at("message") == "no affinity group can host the workload");
}

TEST_CASE("exit codes: unschedulable 1 by default, 0 with --unschedulable=warn; the text says which")
{
    const std::string big_workload = "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: checkout, namespace: production}\n"
                                     "spec: {replicas: 50, template: {spec: {containers: [{name: c, resources: {requests: {cpu: 600m, memory: 1152Mi}}}]}}}\n";
    temp_dir dir;
    auto big = dir.write("big.yaml", big_workload).string(), policy = dir.write("policy.yaml", too_big).string();
    auto strict = run_lint({"--clusters", clusters, "--workloads", big, policy});
    CHECK(strict.exit_code == 1);
    CHECK(strict.out.find("error: PropagationPolicy production/big: Deployment production/checkout (50 replicas): unschedulable") !=
          std::string::npos);
    CHECK(strict.out.find("    local-idc: failed to scale up: Clusters available replicas 6 are not enough to schedule.") !=
          std::string::npos);
    CHECK(strict.out.find("1 unschedulable") != std::string::npos);
    auto lenient = run_lint({"--unschedulable=warn", "--clusters", clusters, "--workloads", big, policy});
    CHECK(lenient.exit_code == 0);
    CHECK(lenient.out.find("warning: PropagationPolicy production/big") != std::string::npos);
}

TEST_CASE("the higher-priority policy claims the workload; the other gets no entry")
{
    temp_dir dir;
    auto r = run_lint({"-o", "json", "--clusters", clusters, "--workloads", workloads, dir.write("big.yaml", too_big).string(),
                   examples + "checkout-local-idc.yaml"});
    auto v = json_of(r.out);
    CHECK(result_named(v, "big").find("scheduling")->items().size() == 1);
    CHECK(result_named(v, "checkout-overflow").find("scheduling")->items().empty());
    CHECK(v.find_path({"summary", "unschedulable"})->as_int() == 1);
}

TEST_CASE("usage and input errors: --workloads without --clusters, a broken snapshot")
{
    auto alone = run_lint({"--workloads", workloads, examples + "dc-groups.yaml"});
    CHECK(alone.exit_code == 2);
    CHECK(alone.err.find("--workloads and --bindings need --clusters") != std::string::npos);
    auto broken = run_lint({"--clusters", "-", examples + "dc-groups.yaml"},
                       "apiVersion: cluster.karmada.io/v1alpha1\nkind: Cluster\nmetadata: {name: x}\n"
                       "status: {resourceSummary: {allocatable: {cpu: lots}}}\n");
    CHECK(broken.exit_code == 2);
    CHECK(broken.out.find("<stdin>:4:47: error: cluster x: status.resourceSummary.allocatable[cpu]: Invalid value") !=
          std::string::npos);
}

TEST_CASE("a JSON snapshot (kubectl get clusters -o json) is read as well")
{
    const std::string json = R"({"apiVersion":"v1","kind":"List","items":[
      {"apiVersion":"cluster.karmada.io/v1alpha1","kind":"Cluster","metadata":{"name":"member1"},
       "status":{"apiEnablements":[{"groupVersion":"apps/v1","resources":[{"kind":"Deployment","name":"deployments"}]}],
                 "resourceSummary":{"allocatable":{"cpu":"8","memory":"32Gi","pods":"110"}}}}]})";
    auto r = run_lint({"-o", "json", "--clusters", "-", "--workloads", workloads, examples + "dc-groups.yaml"}, json);
    CHECK(r.exit_code == 0);
    auto v = json_of(r.out);
    const auto& s = result_named(v, "nginx").find("scheduling")->items();
    REQUIRE(s.size() == 1);
    CHECK(s[0].string_at("affinityName") == "dc-beijing");
    CHECK(s[0].find("clusters")->items()[0].find("replicas")->as_int() == 3);
}

TEST_CASE("the AI example's PyTorchJob: rows count sets, the chosen cluster holds the job, the others say why")
{
    const std::string ai = examples + "ai/";
    std::vector<std::string> args{"--feature-gates=MultiplePodTemplatesScheduling=true", "--clusters",
                                  ai + "clusters.yaml", "--workloads", ai + "workloads/pytorchjob-bert.yaml",
                                  ai + "policies/keep-together.yaml"};
    auto json_args = args;
    json_args.insert(json_args.begin(), {"-o", "json"});
    // Without --explain JSON carries no considered rows (memory at 10,000 workloads x 5,000 clusters).
    CHECK(result_named(json_of(run_lint(json_args).out), "bert-finetune").find("scheduling")->items()[0].find(
              "considered") == nullptr);
    json_args.insert(json_args.begin(), "--explain");
    auto r = run_lint(json_args);
    auto v = json_of(r.out);
    const auto& s = result_named(v, "bert-finetune").find("scheduling")->items();
    REQUIRE(s.size() == 1);
    const auto& rows = s[0].find("considered")->items();
    REQUIRE(rows.size() == 3);
    const std::string not_chosen = "not chosen: multi-template scheduling keeps the job on one cluster "
                                   "(gpu-h100-bj was picked first: more complete sets, 1 > 0)";
    for (const auto& row : rows) {
        std::string name(row.string_at("name"));
        CAPTURE(name);
        bool chosen = name == "gpu-h100-bj";
        CHECK(row.find("holdsJob")->as_bool() == chosen);
        CHECK(row.find("available")->as_int() == (chosen ? 1 : 0));
        CHECK(row.string_at("boundBy") == (chosen ? "resource models" : "nvidia.com/gpu"));
        CHECK(row.string_at("reason") == (chosen ? "" : not_chosen));
    }

    auto text = run_lint(args);
    CHECK(text.out.find("left out 2 cluster(s): cpu-gz, gpu-a100-sh (2 " + not_chosen + ")") != std::string::npos);
    auto explained = args;
    explained.insert(explained.begin(), "--explain");
    auto e = run_lint(explained);
    CHECK(e.out.find("gpu-h100-bj                  -                passed, available 1 complete set(s) (bound by "
                     "resource models), gets the whole job\n") != std::string::npos);
}

TEST_CASE("a binding karmada-scheduler crashes on: a warning at the binding in every format, exit 0")
{
    // The conformance case binding-crashes-scheduler: the oracle panics there with this runtime error.
    const std::string c = std::string(KPW_SOURCE_ROOT) + "/tests/conformance/cases/binding-crashes-scheduler/";
    const std::vector<std::string> inputs{"--clusters", c + "clusters.yaml", "--workloads", c + "workloads.yaml",
                                          "--bindings", c + "bindings.yaml", c + "policies.yaml"};
    auto text = run_lint(inputs);
    CHECK(text.exit_code == 0); // a warning: the linted policies are fine
    CHECK(text.out.find(c + "bindings.yaml:3:1: warning: ResourceBinding shop/web-deployment: karmada-scheduler "
                             "panics: runtime error: slice bounds out of range [:-1]") != std::string::npos);
    CHECK(text.out.find("[binding-crashes-scheduler]") != std::string::npos);

    auto args = inputs;
    args.insert(args.begin(), {"-o", "json"});
    auto v = json_of(run_lint(args).out);
    const auto* warnings = v.find("snapshotWarnings");
    REQUIRE(warnings != nullptr);
    REQUIRE(warnings->items().size() == 1);
    const auto& w = warnings->items()[0];
    CHECK(w.string_at("id") == "binding-crashes-scheduler");
    CHECK(w.string_at("file") == c + "bindings.yaml");
    CHECK(w.find("line")->as_int() == 3);
    CHECK(v.find_path({"summary", "warnings"})->as_int() == 1);
    CHECK(v.find_path({"summary", "notPredicted"})->as_int() == 1);

    for (const std::string format : {"sarif", "github", "markdown"}) {
        auto out = inputs;
        out.insert(out.begin(), {"-o", format});
        const std::string needle = format == "markdown" ? "slice bounds out of range \\[:-1\\]" : "slice bounds out of range [:-1]";
        CHECK_MESSAGE(run_lint(out).out.find(needle) != std::string::npos, format);
    }
    temp_dir dir;
    const std::string html = (dir.path / "report.html").string();
    auto out = inputs;
    out.insert(out.begin(), {"--report", html});
    REQUIRE(run_lint(out).exit_code == 0);
    std::ifstream in(html);
    const std::string page((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    CHECK(page.find("slice bounds out of range [:-1]") != std::string::npos);
}

TEST_CASE("a policy naming another scheduler: no clusters, no condition, not counted unschedulable")
{
    std::string other = too_big;
    other.replace(other.find("  priority: 10"), 0, "  schedulerName: volcano\n");
    auto r = run_lint({"-o", "json", "--clusters", clusters, "--workloads", workloads, "-"}, other);
    CHECK(r.exit_code == 0);
    auto v = json_of(r.out);
    CHECK(v.find_path({"summary", "unschedulable"})->as_int() == 0);
    const auto& s = result_named(v, "big").find("scheduling")->items();
    REQUIRE(s.size() == 1);
    CHECK_FALSE(s[0].find("scheduled")->as_bool());
    CHECK(s[0].find("condition") == nullptr);
    CHECK(s[0].find("clusters")->items().empty());
    CHECK(s[0].string_at("ignored") == "spec.schedulerName is volcano, not default-scheduler");
    auto text = run_lint({"--clusters", clusters, "--workloads", workloads, "-"}, other);
    CHECK(text.out.find("note: PropagationPolicy production/big: Deployment production/checkout (10 replicas): not "
                        "scheduled by karmada-scheduler") != std::string::npos);
}

TEST_CASE("gates that make one binding's schedule depend on others': the dry run says what it leaves out")
{
    temp_dir dir;
    std::string two;
    for (std::string name : {"web", "api"})
        two += "---\napiVersion: apps/v1\nkind: Deployment\nmetadata: {name: " + name +
               ", namespace: production, labels: {tier: front}}\nspec:\n  replicas: 2\n  selector: {matchLabels: {app: " +
               name + "}}\n  template:\n    metadata: {labels: {app: " + name +
               "}}\n    spec: {containers: [{name: c, image: nginx}]}\n";
    const std::string w = dir.write("two.yaml", two).string();
    const std::string policy = dir.write("p.yaml", R"(apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: {name: front, namespace: production}
spec:
  resourceSelectors: [{apiVersion: apps/v1, kind: Deployment}]
  placement:
    clusterAffinity: {clusterNames: [cloud-east-1, cloud-east-2]}
    workloadAffinity:
      affinity: {groupByLabelKey: tier}
)").string();
    auto off = run_lint({"--clusters", clusters, "--workloads", w, policy});
    CHECK(off.out.find("not-predicted") == std::string::npos);
    auto on = run_lint({"--feature-gates=WorkloadAffinity=true,SchedulingOvercommitProtection=true", "--clusters", clusters,
                        "--workloads", w, policy});
    CHECK(on.out.find(policy + ":8:5: warning: spec.placement.workloadAffinity: Deployment production/web: with the "
                      "WorkloadAffinity gate on, its binding has affinity group tier=front") != std::string::npos);
    CHECK(on.out.find("these 2 workloads alone") != std::string::npos);
    CHECK(on.out.find("[assumed-workloads-not-predicted]") != std::string::npos);

    // A Namespace propagates without replicas: nothing is assumed for it, so one Deployment beside it is alone.
    const std::string one = dir.write("one.yaml", two.substr(0, two.find("---", 3)) +
                                                      "---\napiVersion: v1\nkind: Namespace\nmetadata: {name: shop}\n")
                                .string();
    const std::string with_namespace = dir.write("ns.yaml", R"(apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: {name: front, namespace: production}
spec:
  resourceSelectors: [{apiVersion: apps/v1, kind: Deployment}]
  placement:
    clusterAffinity: {clusterNames: [cloud-east-1, cloud-east-2]}
---
apiVersion: policy.karmada.io/v1alpha1
kind: ClusterPropagationPolicy
metadata: {name: namespaces}
spec:
  resourceSelectors: [{apiVersion: v1, kind: Namespace, name: shop}]
  placement:
    clusterAffinity: {clusterNames: [cloud-east-1, cloud-east-2]}
)").string();
    auto alone = run_lint({"--feature-gates=SchedulingOvercommitProtection=true", "--clusters", clusters, "--workloads",
                           one, with_namespace});
    CHECK(alone.out.find("Namespace /shop (0 replicas): scheduled") != std::string::npos);
    CHECK(alone.out.find("[assumed-workloads-not-predicted]") == std::string::npos);
}

TEST_CASE("a sidecar Karmada counts for less than kube-scheduler: a warning at its restartPolicy, only where capacity divides")
{
    // checkout with its envoy as a native sidecar: Karmada's AddPodRequest takes max(500m, 100m) cpu,
    // kube-scheduler 600m.
    const std::string sidecar_checkout = R"(apiVersion: apps/v1
kind: Deployment
metadata: {name: checkout, namespace: production, labels: {app: checkout}}
spec:
  replicas: 10
  template:
    spec:
      containers:
        - name: checkout
          resources: {requests: {cpu: 500m, memory: 1Gi}}
      initContainers:
        - name: envoy
          restartPolicy: Always
          resources: {requests: {cpu: 100m, memory: 128Mi}}
)";
    temp_dir dir;
    const auto w = dir.write("checkout.yaml", sidecar_checkout).string();
    const auto dynamic = dir.write("dynamic.yaml", too_big).string();
    auto r = run_lint({"--clusters", clusters, "--workloads", w, dynamic});
    CAPTURE(r.out);
    CHECK(r.out.find(w + ":13:26: warning: Deployment production/checkout: the init container envoy is a sidecar "
                         "(restartPolicy: Always): Karmada's estimators count each replica as cpu 500m, memory 1Gi "
                         "(the largest init container, karmada pkg/util/resource.go AddPodRequest), the members' "
                         "kube-scheduler as cpu 600m, memory 1152Mi (each sidecar added to the containers)") !=
          std::string::npos);
    CHECK(r.out.find("[sidecar-request-not-counted]") != std::string::npos);

    // Duplicated places every replica on every cluster without asking what fits: nothing to warn of.
    std::string duplicated = too_big;
    duplicated.replace(duplicated.find("replicaSchedulingType: Divided"), 30, "replicaSchedulingType: Duplicated");
    auto d = run_lint({"--clusters", clusters, "--workloads", w, dir.write("duplicated.yaml", duplicated).string()});
    CAPTURE(d.out);
    CHECK(d.out.find("sidecar-request-not-counted") == std::string::npos);
    CHECK(d.out.find("checkout") != std::string::npos); // it was scheduled all the same
}
