// SPDX-License-Identifier: Apache-2.0
// Building the cluster snapshot and the workload list from loaded documents.
#include <doctest/doctest.h>

#include "doc/load.hpp"
#include "scheduling/inventory.hpp"

using namespace kpw;
using namespace kpw::scheduling;

namespace {

std::vector<doc::value> load(std::string_view text)
{
    auto docs = doc::load_yaml(text);
    REQUIRE(docs.ok());
    std::vector<doc::value> out;
    for (auto& d : *docs)
        out.push_back(std::move(d.root));
    return out;
}

} // namespace

TEST_CASE("a List and multi-doc YAML of Clusters become one inventory sorted by name")
{
    cluster_inventory inv;
    std::vector<inventory_issue> issues;
    for (const auto& d : load("apiVersion: v1\nkind: List\nitems:\n"
                              "- {apiVersion: cluster.karmada.io/v1alpha1, kind: Cluster, metadata: {name: b}}\n"
                              "- {apiVersion: cluster.karmada.io/v1alpha1, kind: Cluster, metadata: {name: a}}\n"
                              "---\napiVersion: cluster.karmada.io/v1alpha1\nkind: Cluster\nmetadata: {name: c}\n"
                              "---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n"))
        inv.add(d, issues);
    inv.seal(issues);
    CHECK(issues.empty());
    REQUIRE(inv.size() == 3);
    CHECK(inv.clusters()[0].name == "a");
    CHECK(inv.clusters()[2].name == "c");
    CHECK(inv.find("b") != nullptr);
    CHECK(inv.find("zz") == nullptr);
    CHECK(inv.ignored() == 1);
}

TEST_CASE("a duplicate cluster keeps the later object, no issue; decode errors become issues with the name")
{
    cluster_inventory inv;
    std::vector<inventory_issue> issues;
    for (const auto& d : load("apiVersion: cluster.karmada.io/v1alpha1\nkind: Cluster\nmetadata: {name: a}\nspec: {region: r1}\n"
                              "---\napiVersion: cluster.karmada.io/v1alpha1\nkind: Cluster\nmetadata: {name: a}\n"
                              "spec: {region: r2, provider: 7}\n"))
        inv.add(d, issues);
    inv.seal(issues);
    REQUIRE(inv.size() == 1);
    CHECK(inv.clusters()[0].region == "r2");
    REQUIRE(issues.size() == 1); // the later one updates the earlier, as kubectl apply of both does
    CHECK(issues[0].message == "cluster a: spec.provider: Invalid value: 7: expected string");
}

TEST_CASE("workloads: every object but Karmada's own, Lists expanded, default namespace applied")
{
    std::vector<model::workload> ws;
    std::vector<inventory_issue> issues;
    for (const auto& d : load("apiVersion: apps/v1\nkind: DeploymentList\nitems:\n"
                              "- {apiVersion: apps/v1, kind: Deployment, metadata: {name: web}, spec: {replicas: 2}}\n"
                              "---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: cfg, namespace: shop}\n"
                              "---\napiVersion: policy.karmada.io/v1alpha1\nkind: PropagationPolicy\nmetadata: {name: p}\n"
                              "---\n- just a list\n"))
        add_workloads(ws, d, "default", issues);
    REQUIRE(ws.size() == 2);
    CHECK(ws[0].name == "web");
    CHECK(ws[0].namespace_ == "default");
    CHECK(ws[0].replicas == 2);
    CHECK(ws[1].namespace_ == "shop");
    REQUIRE(issues.size() == 1);
    CHECK(issues[0].message == "not a Kubernetes object (a mapping with apiVersion and kind)");
}
