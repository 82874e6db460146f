// SPDX-License-Identifier: Apache-2.0
// A control plane for the CLI tests that read karmada-apiserver: the in-process fake API server serving
// Karmada's resources, Deployments and Services, loaded from the shipped examples, and a kubeconfig for it.
#pragma once

#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "doc/load.hpp"
#include "support/lint_run.hpp"
#include "support/temp_dir.hpp"
#include "webhook/kube/fake_apiserver.hpp"

namespace kpw::test::live {

namespace fs = std::filesystem;

inline const std::string examples = std::string(KPW_SOURCE_ROOT) + "/manifests/examples/";

inline std::string slurp(const fs::path& p)
{
    std::ifstream in(p, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

inline const std::vector<fake_resource> karmada_resources = {
    {"cluster.karmada.io", "v1alpha1", "clusters", "Cluster", false},
    {"policy.karmada.io", "v1alpha1", "propagationpolicies", "PropagationPolicy", true},
    {"policy.karmada.io", "v1alpha1", "clusterpropagationpolicies", "ClusterPropagationPolicy", false},
    {"work.karmada.io", "v1alpha2", "resourcebindings", "ResourceBinding", true},
    {"work.karmada.io", "v1alpha2", "clusterresourcebindings", "ClusterResourceBinding", false},
    {"apps", "v1", "deployments", "Deployment", true},
    {"", "v1", "services", "Service", true},
};

inline std::string plural_of(std::string_view kind)
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

// (verb, "resource.group") of an API request; empty for discovery.
inline std::pair<std::string, std::string> verb_and_resource(const recorded_request& r)
{
    std::vector<std::string> parts;
    for (std::size_t at = 1; at <= r.path.size();) {
        const auto next = std::min(r.path.find('/', at), r.path.size());
        parts.push_back(r.path.substr(at, next - at));
        at = next + 1;
    }
    std::size_t i = parts.empty() ? 0 : parts[0] == "api" ? 2 : 3; // past /api/v1 or /apis/<group>/<version>
    const std::string group = !parts.empty() && parts[0] == "apis" && parts.size() > 1 ? parts[1] : "";
    if (i < parts.size() && parts[i] == "namespaces" && i + 2 < parts.size())
        i += 2;
    if (i >= parts.size())
        return {};
    const bool named = i + 1 < parts.size();
    const std::string verb = r.query.contains("watch") ? "watch" : named ? "get" : "list";
    return {verb, group.empty() ? parts[i] : parts[i] + "." + group};
}

// The rules of the ClusterRole `name` in manifests/karmada-apiserver/live-snapshot-rbac.yaml, as
// (verb, "resource.group") pairs.
inline std::set<std::pair<std::string, std::string>> role_grants(const std::string& name)
{
    auto docs = kpw::doc::load_documents(slurp(std::string(KPW_SOURCE_ROOT) + "/manifests/karmada-apiserver/live-snapshot-rbac.yaml"));
    REQUIRE(docs.ok());
    std::set<std::pair<std::string, std::string>> out;
    for (const auto& d : *docs) {
        if (d.root.string_at("kind") != "ClusterRole" || d.root.find("metadata")->string_at("name") != name)
            continue;
        for (const auto& rule : d.root.find("rules")->items())
            for (const auto& g : rule.find("apiGroups")->items())
                for (const auto& res : rule.find("resources")->items())
                    for (const auto& v : rule.find("verbs")->items())
                        out.insert({v.text(), g.text().empty() ? res.text() : res.text() + "." + g.text()});
    }
    REQUIRE_FALSE(out.empty());
    return out;
}

inline std::set<std::pair<std::string, std::string>> requests_made(const fake_apiserver& api)
{
    std::set<std::pair<std::string, std::string>> out;
    for (const auto& r : api.requests())
        if (auto vr = verb_and_resource(r); !vr.first.empty())
            out.insert(vr);
    return out;
}

inline process_result run(std::vector<std::string> args)
{
    args.insert(args.begin(), KPW_BINARY);
    return run_process(args);
}

inline std::string results_of(const std::string& out)
{
    return kpw::doc::to_json(*json_of(out).find("results"));
}


} // namespace kpw::test::live
