// SPDX-License-Identifier: Apache-2.0
// lint -n NS as kubectl apply -n NS: a PropagationPolicy without a namespace takes NS, one of another
// namespace is refused (cli-runtime's RequireNamespace) while the file's other objects are still judged;
// without -n nothing is enforced (kubectl's context namespace is only a default).
#include <string>

#include <doctest/doctest.h>

#include "support/lint_run.hpp"
#include "support/temp_dir.hpp"

using kpw::test::json_of;
using kpw::test::run_lint;

namespace {

const std::string policies = "apiVersion: policy.karmada.io/v1alpha1\n"                       // 1
                             "kind: PropagationPolicy\n"                                      // 2
                             "metadata: {name: staged, namespace: staging}\n"                 // 3
                             "spec:\n"                                                        // 4
                             "  resourceSelectors: [{apiVersion: apps/v1, kind: Deployment, name: web}]\n"
                             "  placement: {clusterAffinity: {clusterNames: [m1]}}\n"
                             "---\n"
                             "apiVersion: policy.karmada.io/v1alpha1\n"
                             "kind: PropagationPolicy\n"
                             "metadata: {name: unnamespaced}\n"
                             "spec:\n"
                             "  resourceSelectors: [{apiVersion: apps/v1, kind: Deployment, name: web}]\n"
                             "  placement: {clusterAffinity: {clusterNames: [m1]}}\n"
                             "---\n"
                             "apiVersion: policy.karmada.io/v1alpha1\n"
                             "kind: ClusterPropagationPolicy\n"
                             "metadata: {name: cluster-wide, namespace: staging}\n" // not namespaced: not checked
                             "spec:\n"
                             "  resourceSelectors: [{apiVersion: apps/v1, kind: Deployment, name: web}]\n"
                             "  placement: {clusterAffinity: {clusterNames: [m1]}}\n";

} // namespace

TEST_CASE("lint -n: a PropagationPolicy of another namespace is refused as kubectl apply -n refuses it")
{
    kpw::test::temp_dir dir;
    const std::string file = dir.write("policies.yaml", policies).string();

    const auto refused = run_lint({"-n", "prod", file});
    CHECK(refused.exit_code == 2);
    CHECK(refused.out.find(file + ":3:37: error: the namespace from the provided object \"staging\" does not match "
                                  "the namespace \"prod\". You must pass '--namespace=staging' to perform this "
                                  "operation.") != std::string::npos);

    // The file's other objects are still judged: the unnamespaced policy in prod, the cluster policy.
    const auto json = json_of(run_lint({"-o", "json", "-n", "prod", file}).out);
    const auto& results = json.find("results")->items();
    REQUIRE(results.size() == 2);
    CHECK(results.at(0).string_at("name") == "unnamespaced");
    CHECK(results.at(0).string_at("namespace") == "prod");
    CHECK(results.at(1).string_at("name") == "cluster-wide");

    // The namespace the object names: nothing to refuse.
    CHECK(run_lint({"-n", "staging", file}).exit_code == 0);
    // No -n: kubectl enforces nothing, and the unnamespaced policy is in "default".
    const auto plain = json_of(run_lint({"-o", "json", file}).out);
    CHECK(plain.find("results")->items().size() == 3);
    CHECK(plain.find("results")->items().at(1).string_at("namespace") == "default");
}
