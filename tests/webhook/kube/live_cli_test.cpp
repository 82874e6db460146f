// SPDX-License-Identifier: Apache-2.0
// lint --kubeconfig, plan and serve --kubeconfig against the in-process fake API server: live reads give
// the report the exported files give, plan names what applying PATH moves, and every fault is a clear
// error (exit 2), never a hang.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "doc/load.hpp"
#include "support/lint_run.hpp"
#include "support/temp_dir.hpp"
#include "webhook/kube/fake_apiserver.hpp"
#include "webhook/server/serve_process.hpp"
#include "webhook/server/test_client.hpp"

using namespace kpw::test;
namespace fs = std::filesystem;

namespace {

const std::string examples = std::string(KPW_SOURCE_ROOT) + "/manifests/examples/";

std::string slurp(const fs::path& p)
{
    std::ifstream in(p, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

const std::vector<fake_resource> karmada_resources = {
    {"cluster.karmada.io", "v1alpha1", "clusters", "Cluster", false},
    {"policy.karmada.io", "v1alpha1", "propagationpolicies", "PropagationPolicy", true},
    {"policy.karmada.io", "v1alpha1", "clusterpropagationpolicies", "ClusterPropagationPolicy", false},
    {"work.karmada.io", "v1alpha2", "resourcebindings", "ResourceBinding", true},
    {"work.karmada.io", "v1alpha2", "clusterresourcebindings", "ClusterResourceBinding", false},
    {"apps", "v1", "deployments", "Deployment", true},
    {"", "v1", "services", "Service", true},
};

std::string plural_of(std::string_view kind)
{
    for (const auto& r : karmada_resources)
        if (r.kind == kind)
            return r.resource;
    return {};
}

// A control plane holding the shipped examples, and a kubeconfig for it.
struct plane {
    fake_apiserver api;
    temp_dir dir;
    fs::path kubeconfig;

    explicit plane(bool karmada = true)
    {
        for (const auto& r : karmada_resources)
            if (karmada || r.group.find("karmada") == std::string::npos)
                api.add_resource(r);
        api.start();
        const fs::path ca = dir.write("ca.crt", api.ca_pem());
        kubeconfig = dir.write("kubeconfig", "apiVersion: v1\nkind: Config\ncurrent-context: karmada\n"
                                             "clusters:\n- name: karmada\n  cluster:\n    server: " + api.url() +
                                                 "\n    certificate-authority: " + ca.string() +
                                                 "\ncontexts:\n- name: karmada\n  context:\n    cluster: karmada\n"
                                                 "    user: admin\nusers:\n- name: admin\n  user:\n    token: s3cret\n");
    }

    // Every object of the file whose kind this server serves, as kubectl create would store it.
    void load(const std::string& file)
    {
        auto docs = kpw::doc::load_documents(slurp(file));
        REQUIRE(docs.ok());
        for (const auto& d : *docs) {
            const auto* items = d.root.find("items");
            for (const auto& o : items != nullptr ? items->items() : std::vector<kpw::doc::value>{d.root})
                put(o);
        }
    }

    void put(kpw::doc::value object)
    {
        const std::string plural = plural_of(object.string_at("kind"));
        if (plural.empty())
            return;
        auto* meta = object.find("metadata");
        REQUIRE(meta != nullptr);
        const bool namespaced = object.string_at("kind") != "Cluster" && object.string_at("kind") != "ClusterPropagationPolicy" &&
                                object.string_at("kind") != "ClusterResourceBinding";
        if (namespaced && meta->string_at("namespace").empty())
            meta->set("namespace", kpw::doc::value::string("default"));
        api.put(plural, kpw::doc::to_json(object));
    }

    std::vector<std::string> live(std::vector<std::string> args) const
    {
        args.push_back("--kubeconfig=" + kubeconfig.string());
        return args;
    }
};

process_result run(std::vector<std::string> args)
{
    args.insert(args.begin(), KPW_BINARY);
    return run_process(args);
}

std::string results_of(const std::string& out)
{
    return kpw::doc::to_json(*json_of(out).find("results"));
}

} // namespace

TEST_CASE("lint --kubeconfig reads Clusters and the selected templates and reports what the exported files give")
{
    plane p;
    p.load(examples + "clusters.yaml");
    p.load(examples + "workloads.yaml");
    const fs::path no_bindings = p.dir.write("no-bindings.yaml", "apiVersion: v1\nkind: List\nitems: []\n");
    for (const std::string policy : {"overflow-onprem-cloud.yaml", "dc-groups.yaml", "checkout-local-idc.yaml"}) {
        CAPTURE(policy);
        const auto live = run(p.live({"lint", "-o", "json", examples + policy}));
        const auto files = run({"lint", "-o", "json", "--clusters", examples + "clusters.yaml", "--workloads",
                                examples + "workloads.yaml", "--bindings", no_bindings.string(),
                                examples + policy});
        REQUIRE_MESSAGE(live.exit_code == files.exit_code, live.err);
        CHECK(results_of(live.out) == results_of(files.out));
        CHECK(live.out.find("\"scheduling\"") != std::string::npos);
    }
    // Only the selected templates were read: Deployments, never Services, and with the kubeconfig's token.
    bool read_deployments = false;
    for (const auto& r : p.api.requests()) {
        CHECK(r.path.find("/services") == std::string::npos);
        CHECK(r.authorization == "Bearer s3cret");
        CHECK(r.user_agent.starts_with("karmada-policy-webhook/"));
        read_deployments = read_deployments || r.path.find("/deployments") != std::string::npos;
    }
    CHECK(read_deployments);
}

TEST_CASE("plan: PATH over the server's policies, diffed against today's bindings, as lint --base --bindings")
{
    plane p;
    p.load(examples + "clusters.yaml");
    p.load(examples + "workloads.yaml");
    p.load(examples + "day2/bindings.yaml");
    for (const std::string policy : {"overflow-onprem-cloud.yaml", "dc-groups.yaml", "checkout-local-idc.yaml"})
        p.load(examples + policy);
    const auto planned = run(p.live({"plan", "-o", "json", examples + "pr-edit"}));
    const auto lint = run({"lint", "-o", "json", "--clusters", examples + "clusters.yaml", "--workloads",
                           examples + "workloads.yaml", "--bindings", examples + "day2/bindings.yaml", "--base",
                           examples + "overflow-onprem-cloud.yaml", "--base", examples + "dc-groups.yaml", "--base",
                           examples + "checkout-local-idc.yaml", examples + "pr-edit"});
    REQUIRE_MESSAGE(planned.exit_code == lint.exit_code, planned.err);
    const auto plan_json = json_of(planned.out);
    REQUIRE(plan_json.find("diff") != nullptr);
    CHECK(kpw::doc::to_json(*plan_json.find("diff")) == kpw::doc::to_json(*json_of(lint.out).find("diff")));
    // The three edited files change their policies; nothing is created or deleted.
    const auto* policies = plan_json.find("policies");
    REQUIRE(policies != nullptr);
    CHECK(policies->items().size() == 3);
    int changed = 0;
    for (const auto& row : policies->items())
        changed += row.string_at("action") == "change" ? 1 : 0;
    CHECK(changed >= 1);

    // The text form: the policies, then the moves against the server.
    const auto text = run(p.live({"plan", examples + "pr-edit"}));
    CHECK(text.out.find("policies on the server once applied:") != std::string::npos);
    CHECK(text.out.find("placement diff against the server") != std::string::npos);

    // Applying the server's own policy again leaves it unchanged (today's bindings may still move: the
    // scheduler would re-schedule them anyway, and plan says so).
    const auto same = run(p.live({"plan", "-o", "json", examples + "dc-groups.yaml"}));
    const auto same_json = json_of(same.out);
    REQUIRE(same_json.find("policies") != nullptr);
    CHECK(same_json.find("policies")->items().size() == 1);
    CHECK(same_json.find("policies")->items().front().string_at("action") == "unchanged");

    // --prune: PATH without a policy of its namespace deletes that one.
    const auto pruned = run(p.live({"plan", "-o", "json", "--prune", examples + "dc-groups.yaml"}));
    const auto pruned_json = json_of(pruned.out);
    std::vector<std::string> deleted;
    for (const auto& row : pruned_json.find("policies")->items())
        if (row.string_at("action") == "delete")
            deleted.emplace_back(row.string_at("name"));
    CHECK(deleted == std::vector<std::string>{"nginx-overflow"}); // same namespace; production's stays
}

TEST_CASE("live reads fail clearly: unreachable, not karmada-apiserver, forbidden, missing context")
{
    plane p;
    p.load(examples + "clusters.yaml");
    const std::string policy = examples + "dc-groups.yaml";

    SUBCASE("an API server that does not serve cluster.karmada.io")
    {
        plane plain(false);
        const auto r = run(plain.live({"lint", policy}));
        CHECK(r.exit_code == 2);
        CHECK(r.err.find("is this karmada-apiserver?") != std::string::npos);
    }
    SUBCASE("403 names the verb, the resource and who asked")
    {
        p.api.forbid("clusters", "clusters.cluster.karmada.io is forbidden: User \"ci\" cannot list resource "
                                 "\"clusters\" in API group \"cluster.karmada.io\" at the cluster scope");
        const auto r = run(p.live({"lint", policy}));
        CHECK(r.exit_code == 2);
        CHECK(r.err.find("cannot list resource \"clusters\"") != std::string::npos);
        CHECK(r.err.find("admin") != std::string::npos);
        CHECK(r.err.find("s3cret") == std::string::npos);
    }
    SUBCASE("a server that is not there: exit 2 within the timeout")
    {
        const unsigned short port = p.api.port();
        p.api.stop();
        const auto r = run(p.live({"lint", "--request-timeout=5s", policy}));
        CHECK(r.exit_code == 2);
        CHECK_FALSE(r.timed_out);
        CHECK(r.err.find(std::to_string(port)) != std::string::npos);
    }
    SUBCASE("a context the kubeconfig does not have")
    {
        const auto r = run(p.live({"lint", "--context=prod", policy}));
        CHECK(r.exit_code == 2);
        CHECK(r.err.find("prod") != std::string::npos);
    }
    SUBCASE("plan needs a server too")
    {
        const auto r = run({"plan", "--kubeconfig=" + (p.dir.path / "missing").string(), policy});
        CHECK(r.exit_code == 2);
        CHECK(r.err.find("missing") != std::string::npos);
    }
}
