// SPDX-License-Identifier: Apache-2.0
// The binding inventory: Lists and multi-doc input, ignored kinds, positioned issues, one binding per workload.
#include <doctest/doctest.h>

#include <fstream>
#include <sstream>

#include "doc/load.hpp"
#include "scheduling/binding_inventory.hpp"

using namespace kpw;
using namespace kpw::scheduling;

namespace {

binding_inventory load(std::string_view text, std::vector<inventory_issue>& issues)
{
    auto docs = doc::load_yaml(text);
    REQUIRE(docs.ok());
    binding_inventory inv;
    for (const auto& d : *docs)
        inv.add(d.root, issues);
    inv.seal(issues);
    return inv;
}

std::string rb(std::string_view name, std::string_view workload, std::string_view extra = "")
{
    return "apiVersion: work.karmada.io/v1alpha2\nkind: ResourceBinding\nmetadata: {name: " + std::string(name) +
           ", namespace: shop}\nspec:\n  resource: {apiVersion: apps/v1, kind: Deployment, namespace: shop, name: " +
           std::string(workload) + "}\n" + std::string(extra);
}

} // namespace

TEST_CASE("the kubectl List and multi-doc input load; other kinds are counted as ignored")
{
    std::ifstream in(std::string(KPW_TEST_DATA) + "/bindings/kubectl-rb.yaml");
    std::ostringstream s;
    s << in.rdbuf();
    std::vector<inventory_issue> issues;
    auto inv = load(s.str() + "---\n" + rb("web-deployment", "web") + "---\napiVersion: v1\nkind: ConfigMap\n", issues);
    CHECK(issues.empty());
    CHECK(inv.size() == 3);
    CHECK(inv.ignored() == 1);
    const auto* nginx = inv.find_for("apps/v1", "Deployment", "default", "nginx");
    REQUIRE(nginx != nullptr);
    CHECK(nginx->name == "nginx-deployment");
    CHECK(inv.find_for("rbac.authorization.k8s.io/v1", "ClusterRole", "", "system:aggregate-to-edit") != nullptr);
    CHECK(inv.find_for("apps/v1", "Deployment", "default", "web") == nullptr);
    CHECK(inv.find_for("apps/v1", "Deployment", "shop", "web") != nullptr);
}

// Karmada pairs a workload with the binding named after it and schedules every binding: two bindings of one
// workload are two objects (fuzz corpus "bindings": lint refused such files until session 15).
TEST_CASE("two bindings for one workload are both kept; find_for gives the first; a repeated object the later")
{
    std::vector<inventory_issue> issues;
    auto inv = load(rb("a", "web") + "---\n" + rb("b", "web"), issues);
    CHECK(issues.empty());
    REQUIRE(inv.size() == 2);
    const auto* first = inv.find_for("apps/v1", "Deployment", "shop", "web");
    REQUIRE(first != nullptr);
    CHECK(first->name == "a");
    auto again = load(rb("a", "web") + "---\n" + rb("a", "web", "  clusters:\n  - {name: m1, replicas: 2}\n"), issues);
    REQUIRE(again.size() == 1);
    CHECK(again.bindings()[0].clusters.size() == 1); // the later document of the same object
    CHECK(issues.empty());
}

TEST_CASE("decode errors become issues at the offending node; another version is not kept")
{
    std::vector<inventory_issue> issues;
    auto inv = load(rb("a", "web", "  clusters:\n  - {name: m1, replicas: -1}\n") +
                        "---\napiVersion: work.karmada.io/v1alpha1\nkind: ResourceBinding\nmetadata: {name: old, "
                        "namespace: shop}\n",
                    issues);
    CHECK(inv.size() == 1);
    REQUIRE(issues.size() == 2);
    CHECK(issues[0].message == "binding shop/a: spec.clusters[0].replicas: Invalid value: -1: must be greater than or "
                               "equal to 0");
    CHECK(issues[0].where == position{7, 26});
    CHECK(issues[1].message.starts_with("binding shop/old: apiVersion: Invalid value: \"work.karmada.io/v1alpha1\""));
    CHECK(issues[1].where.line == 9);
}

TEST_CASE("the bad-bindings fixture reports each mistake, in document order, and keeps both v1alpha2 bindings")
{
    std::ifstream in(std::string(KPW_TEST_DATA) + "/bindings/bad-bindings.yaml");
    std::ostringstream s;
    s << in.rdbuf();
    std::vector<inventory_issue> issues;
    auto inv = load(s.str(), issues);
    REQUIRE(inv.size() == 2);
    CHECK(inv.bindings()[0].name == "web-deployment");
    CHECK(inv.bindings()[1].name == "web-copy-deployment");
    std::vector<std::string> got;
    for (const auto& i : issues)
        got.push_back(std::to_string(i.where.line) + ": " + i.message.substr(0, i.message.find(':', 30)));
    CHECK(got == std::vector<std::string>{
                     "2: binding shop/old-deployment: apiVersion",
                     // (the claim label without its annotations is no mistake: Karmada reads it, as no claim)
                     "15: binding shop/web-deployment: spec.replicas",
                     "20: binding shop/web-deployment: spec.placement.clusterAffinities[0].clusterNames",
                     "17: binding shop/web-deployment: spec.clusters[0].replicas",
                     "22: binding shop/web-deployment: spec.rescheduleTriggeredAt",
                 });
}
