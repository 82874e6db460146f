// SPDX-License-Identifier: Apache-2.0
// duplicate-key: a key written twice in one mapping, warned at the later key in every output format, for
// the policies lint reads and for the snapshot files of the dry run (kubectl reads the last value silently).
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "support/lint_run.hpp"
#include "support/temp_dir.hpp"

using kpw::test::json_of;
using kpw::test::run_lint;

namespace {

const std::string examples = std::string(KPW_SOURCE_ROOT) + "/manifests/examples/";

// nginx-overflow's policy with `name` written twice (line 5, then 6) and a repeated clusterNames (11, 13).
const std::string policy = "apiVersion: policy.karmada.io/v1alpha1\n"             // 1
                           "kind: PropagationPolicy\n"                            // 2
                           "metadata:\n"                                          // 3
                           "  name: first\n"                                      // 4
                           "  namespace: default\n"                               // 5
                           "  name: web\n"                                        // 6
                           "spec:\n"                                              // 7
                           "  resourceSelectors:\n"                               // 8
                           "  - {apiVersion: apps/v1, kind: Deployment, name: web}\n" // 9
                           "  placement:\n"                                       // 10
                           "    clusterAffinity: {clusterNames: [member1]}\n"     // 11
                           "    replicaScheduling: {replicaSchedulingType: Duplicated}\n" // 12
                           "    clusterAffinity: {clusterNames: [member2]}\n";    // 13

const std::string message = "the last value wins as kubectl reads the file";

} // namespace

TEST_CASE("lint: a repeated key in a policy is its warning at the later key, in every format")
{
    kpw::test::temp_dir dir;
    const std::string file = dir.write("policy.yaml", policy).string();

    const auto text = run_lint({file});
    CHECK(text.exit_code == 0); // a warning: the policy is admitted with the last values
    CHECK(text.out.find(file + ":6:3: warning: metadata.name: key \"name\" repeated (first at line 4): " + message) !=
          std::string::npos);
    CHECK(text.out.find(file + ":13:5: warning: spec.placement.clusterAffinity: key \"clusterAffinity\" repeated "
                               "(first at line 11)") != std::string::npos);
    CHECK(text.out.find("[duplicate-key]") != std::string::npos);

    const auto json = json_of(run_lint({"-o", "json", file}).out);
    const auto& result = json.find("results")->items().at(0);
    CHECK(result.string_at("name") == "web"); // kubectl's reading: the last name

    std::vector<std::string> found;
    for (const auto& w : result.find("warnings")->items())
        if (w.string_at("id") == "duplicate-key")
            found.push_back(std::string(w.string_at("field")) + " " + std::to_string(w.find("line")->as_int()) + ":" +
                            std::to_string(w.find("column")->as_int()));
    CHECK(found == std::vector<std::string>{"metadata.name 6:3", "spec.placement.clusterAffinity 13:5"});
    CHECK(json.find("summary")->find("warnings")->as_int() >= 2);

    const auto sarif = run_lint({"-o", "sarif", file}).out;
    CHECK(sarif.find("\"ruleId\":\"duplicate-key\"") != std::string::npos);
    CHECK(sarif.find("\"startLine\":6,\"startColumn\":3") != std::string::npos);
    const auto github = run_lint({"-o", "github", file}).out;
    CHECK(github.find("::warning file=" + file + ",line=6,col=3,title=duplicate-key in ") != std::string::npos);
    const auto markdown = run_lint({"-o", "markdown", file}).out;
    CHECK(markdown.find("duplicate-key") != std::string::npos);
    CHECK(markdown.find("| metadata.name: key &quot;name&quot; repeated \\(first at line 4\\)") != std::string::npos);
    const auto junit = run_lint({"-o", "junit", file}).out;
    CHECK(junit.find(":6:3: warning: metadata.name: key \"name\" repeated (first at line 4)") != std::string::npos);
    const std::string html = (dir.path / "report.html").string();
    REQUIRE(run_lint({"--report", html, file}).exit_code == 0);
    std::ifstream in(html);
    const std::string page((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    CHECK(page.find("[duplicate-key]") != std::string::npos);
    CHECK(page.find("key &quot;name&quot; repeated (first at line 4)") != std::string::npos);
}

TEST_CASE("lint: a repeated key in a List item belongs to the item; in another kind's document, to that object")
{
    kpw::test::temp_dir dir;
    const std::string file = dir.write("list.yaml", "apiVersion: v1\n"
                                                    "kind: List\n"
                                                    "items:\n"
                                                    "- apiVersion: policy.karmada.io/v1alpha1\n"
                                                    "  kind: ClusterPropagationPolicy\n"
                                                    "  metadata: {name: all}\n"
                                                    "  spec:\n"
                                                    "    resourceSelectors: [{apiVersion: v1, kind: ConfigMap}]\n"
                                                    "    priority: 1\n"
                                                    "    priority: 2\n"
                                                    "---\n"
                                                    "apiVersion: apps/v1\n"
                                                    "kind: Deployment\n"
                                                    "metadata: {name: web, namespace: shop}\n"
                                                    "spec: {replicas: 1, replicas: 3}\n")
                                 .string();
    const auto json = json_of(run_lint({"-o", "json", file}).out);
    const auto& warnings = json.find("results")->items().at(0).find("warnings")->items();
    REQUIRE(warnings.size() == 1);
    CHECK(warnings[0].string_at("id") == "duplicate-key");
    CHECK(warnings[0].string_at("field") == "spec.priority");
    CHECK(warnings[0].find("line")->as_int() == 10);
    CHECK(warnings[0].find("column")->as_int() == 5);
    const auto* snapshot = json.find("snapshotWarnings");
    REQUIRE(snapshot != nullptr);
    REQUIRE(snapshot->items().size() == 1);
    CHECK(snapshot->items()[0].string_at("id") == "duplicate-key");
    CHECK(snapshot->items()[0].find("line")->as_int() == 15);
    CHECK(snapshot->items()[0].find("column")->as_int() == 21);
    CHECK(snapshot->items()[0].string_at("message").starts_with(
        "Deployment shop/web: spec.replicas: key \"replicas\" repeated (first at line 15)"));
}

TEST_CASE("lint: a repeated key in JSON is warned as in YAML (kubectl's JSON decoding keeps the last too)")
{
    kpw::test::temp_dir dir;
    const std::string file =
        dir.write("policy.json", "{\"apiVersion\": \"policy.karmada.io/v1alpha1\", \"kind\": \"ClusterPropagationPolicy\",\n"
                                 " \"metadata\": {\"name\": \"a\", \"name\": \"b\"},\n"
                                 " \"spec\": {\"resourceSelectors\": [{\"apiVersion\": \"v1\", \"kind\": \"ConfigMap\"}]}}\n")
            .string();
    const auto text = run_lint({file});
    CHECK(text.out.find(file + ":2:28: warning: metadata.name: key \"name\" repeated (first at line 2)") !=
          std::string::npos);
    CHECK(json_of(run_lint({"-o", "json", file}).out).find("results")->items().at(0).string_at("name") == "b");
}

TEST_CASE("lint: a repeated key in a --clusters or --workloads file is a warning about that object")
{
    kpw::test::temp_dir dir;
    const std::string clusters = dir.write("clusters.yaml", "apiVersion: cluster.karmada.io/v1alpha1\n"
                                                            "kind: Cluster\n"
                                                            "metadata:\n"
                                                            "  name: member1\n"
                                                            "  labels: {zone: a}\n"
                                                            "  labels: {zone: b}\n"
                                                            "spec: {syncMode: Push}\n")
                                     .string();
    const auto r = run_lint({"-o", "json", "--clusters", clusters, "--workloads", examples + "workloads.yaml",
                             examples + "dc-groups.yaml"});
    const auto json = json_of(r.out);
    const auto* snapshot = json.find("snapshotWarnings");
    REQUIRE(snapshot != nullptr);
    std::vector<std::string> found;
    for (const auto& w : snapshot->items())
        if (w.string_at("id") == "duplicate-key")
            found.push_back(std::string(w.string_at("file")) + ":" + std::to_string(w.find("line")->as_int()) + ":" +
                            std::to_string(w.find("column")->as_int()) + " " + std::string(w.string_at("message")));
    REQUIRE(found.size() == 1);
    CHECK(found[0].starts_with(clusters + ":6:3 Cluster member1: metadata.labels: key \"labels\" repeated (first at "
                                          "line 5): " + message));

    const auto text = run_lint({"--clusters", clusters, "--workloads", examples + "workloads.yaml",
                                examples + "dc-groups.yaml"});
    CHECK(text.out.find(clusters + ":6:3: warning: Cluster member1: metadata.labels: key \"labels\" repeated") !=
          std::string::npos);
}
