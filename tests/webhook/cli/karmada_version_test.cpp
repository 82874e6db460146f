// SPDX-License-Identifier: Apache-2.0
// --karmada-version through the real binary: lint answers for the release named, the flag's errors, and
// with --kubeconfig the release the server's policy CRD shows (fake API server).
#include <filesystem>
#include <string>

#include <doctest/doctest.h>

#include "doc/load.hpp"
#include "schema/schema.hpp"
#include "support/lint_run.hpp"
#include "support/temp_dir.hpp"
#include "webhook/kube/fake_apiserver.hpp"

using namespace kpw::test;
namespace fs = std::filesystem;

namespace {

const std::string overflow_example = std::string(KPW_SOURCE_ROOT) + "/manifests/examples/overflow-onprem-cloud.yaml";

// The PropagationPolicy CRD of `release` as kube-apiserver serves it, from the embedded per-release data.
std::string policy_crd(std::string_view release)
{
    auto all = kpw::doc::parse_json(kpw::schema::embedded_crd_schema());
    REQUIRE(all.ok());
    const kpw::doc::value* schema = all->find_path({release, "PropagationPolicy", "schema"});
    REQUIRE(schema != nullptr);
    auto crd = kpw::doc::parse_json(R"({"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition",
        "metadata":{"name":"propagationpolicies.policy.karmada.io"},
        "spec":{"group":"policy.karmada.io","versions":[{"name":"v1alpha1","served":true,"storage":true,
        "schema":{"openAPIV3Schema":{}}}]}})");
    REQUIRE(crd.ok());
    crd->find("spec")->find("versions")->items()[0].find("schema")->set("openAPIV3Schema", *schema);
    return kpw::doc::to_json(*crd);
}

// A server with the Clusters API and (unless `release` is empty) the policy CRD of that release.
struct plane {
    fake_apiserver api;
    temp_dir dir;
    fs::path kubeconfig;

    explicit plane(std::string_view release)
    {
        api.add_resource({"cluster.karmada.io", "v1alpha1", "clusters", "Cluster", false});
        api.add_resource({"work.karmada.io", "v1alpha2", "resourcebindings", "ResourceBinding", true});
        api.add_resource({"work.karmada.io", "v1alpha2", "clusterresourcebindings", "ClusterResourceBinding", false});
        api.add_resource({"apps", "v1", "deployments", "Deployment", true});
        api.add_resource({"apiextensions.k8s.io", "v1", "customresourcedefinitions", "CustomResourceDefinition", false});
        if (!release.empty())
            api.put("customresourcedefinitions", policy_crd(release));
        api.start();
        const fs::path ca = dir.write("ca.crt", api.ca_pem());
        kubeconfig = dir.write("kubeconfig", "apiVersion: v1\nkind: Config\ncurrent-context: k\nclusters:\n- name: k\n"
                                             "  cluster:\n    server: " + api.url() + "\n    certificate-authority: " +
                                                 ca.string() + "\ncontexts:\n- name: k\n  context:\n    cluster: k\n"
                                                 "    user: u\nusers:\n- name: u\n  user:\n    token: t\n");
    }
};

} // namespace

TEST_CASE("lint --karmada-version v1.17 denies an overflow policy with the API server's unknown-field error")
{
    auto r = run_lint({"--karmada-version", "v1.17", overflow_example});
    CHECK(r.exit_code == 1);
    CHECK(r.out.find(overflow_example + ":18:9: error: PropagationPolicy in version \"v1alpha1\" cannot be handled as a "
                                        "PropagationPolicy: strict decoding error: unknown field "
                                        "\"spec.placement.clusterAffinities[0].overflowAffinities\"\n") !=
          std::string::npos);
    CHECK(r.out.find("warning: spec.placement.clusterAffinities[0].overflowAffinities: added in Karmada v1.18.0; "
                     "Karmada v1.17.1 (--karmada-version) does not define it") != std::string::npos);
    CHECK(r.out.find("note: answers for Karmada v1.17.1 (--karmada-version v1.17)\n") != std::string::npos);

    auto v18 = run_lint({"--karmada-version", "v1.18", overflow_example});
    CHECK(v18.exit_code == 0);
    CHECK(v18.out.find("overflowAffinities") == std::string::npos);
    auto by_default = run_lint({"-o", "json", overflow_example});
    CHECK(by_default.exit_code == 0);
    const auto json = json_of(by_default.out);
    CHECK(json.find_path({"karmada", "version"})->text() == "v1.18.2");
    CHECK(json.find_path({"karmada", "decidedBy"})->text() == "default");
}

TEST_CASE("with --validate=ignore v1.17 admits the policy, and lint still says the tiers are dropped")
{
    auto r = run_lint({"--karmada-version", "1.17.5", "--validate", "ignore", overflow_example});
    CHECK(r.exit_code == 0);
    CHECK(r.out.find("[field-of-later-release]") != std::string::npos);
}

TEST_CASE("an unsupported --karmada-version is a usage error listing the supported releases")
{
    auto r = run_lint({"--karmada-version", "v1.15.9", overflow_example});
    CHECK(r.exit_code == 2);
    CHECK(r.err.find("lint: --karmada-version: Karmada v1.15.9 is not supported: supported releases are v1.16 "
                     "(v1.16.0), v1.17 (v1.17.1), v1.18 (v1.18.2)") != std::string::npos);
    auto gate = run_lint({"--karmada-version", "v1.16", "--feature-gates", "WorkloadAffinity=true", overflow_example});
    CHECK(gate.exit_code == 2);
    CHECK(gate.err.find("unrecognized feature gate: WorkloadAffinity (known to Karmada v1.16.0") != std::string::npos);
}

TEST_CASE("lint --kubeconfig takes the release the server's policy CRD shows, and the flag still wins")
{
    plane v17("v1.17.1");
    auto r = run_lint({"-o", "json", "--kubeconfig", v17.kubeconfig.string(), overflow_example});
    CHECK(r.exit_code == 1);
    const auto json = json_of(r.out);
    CHECK(json.find_path({"karmada", "version"})->text() == "v1.17.1");
    CHECK(json.find_path({"karmada", "decidedBy"})->text().starts_with(
        "the server: the PropagationPolicy CRD on the server defines spec.placement.workloadAffinity"));

    auto flag = run_lint({"-o", "json", "--karmada-version", "v1.18", "--kubeconfig", v17.kubeconfig.string(),
                          overflow_example});
    CHECK(flag.exit_code == 0);
    CHECK(json_of(flag.out).find_path({"karmada", "version"})->text() == "v1.18.2");
    CHECK(flag.err.find("lint: warning: --karmada-version v1.18 but the server looks like Karmada v1.17.1") !=
          std::string::npos);

    plane none("");
    auto unread = run_lint({"-o", "json", "--kubeconfig", none.kubeconfig.string(), overflow_example});
    CHECK(unread.exit_code == 0);
    CHECK(json_of(unread.out).find_path({"karmada", "version"})->text() == "v1.18.2");
    CHECK(unread.err.find("lint: warning: cannot read the server's Karmada release from its PropagationPolicy CRD") !=
          std::string::npos);
}
