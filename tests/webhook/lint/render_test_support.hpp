// SPDX-License-Identifier: Apache-2.0
// Shared by the renderer tests: an in-memory report with every kind of finding, and a real lint run.
#pragma once

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "doc/load.hpp"
#include "lint/report.hpp"
#include "support/lint_run.hpp"
#include "support/process.hpp"
#include "support/temp_dir.hpp"

namespace kpw::test {

// Text that every escaping scheme must survive: separators, markup, quotes, CR/LF, percent.
inline const std::string hostile_text = "100% sure: a, b <&> \"q\" 'x'\r\nnext ]]> line";

// policies/shop.yaml: PropagationPolicy shop/web (document 0, starts at 3:1) denied twice
//   - FieldValueInvalid at 14:23, FieldValueRequired without a position (-> the policy start 3:1),
//   - one warning at 20:9;
// policies/shop.yaml: ClusterPropagationPolicy all (document 1, 30:1) allowed, one unschedulable workload;
// policies/odd, name:%.yaml: PropagationPolicy shop/odd with hostile_text at 5:7;
// file errors: policies/broken.yaml at 2:1, and missing.yaml without a position.
inline lint::report sample_report()
{
    lint::report r;
    lint::policy_result web;
    web.file = "./policies/shop.yaml";
    web.start = {3, 1};
    web.kind = "PropagationPolicy";
    web.namespace_name = "shop";
    web.name = "web";
    web.allowed = false;
    web.errors.push_back({"FieldValueInvalid", "spec.placement.clusterAffinities[1].affinityName",
                          "Invalid value: \"primary\": each affinity term in a policy must have a unique name",
                          {14, 23}});
    web.errors.push_back({"FieldValueRequired", "spec.resourceSelectors", "Required value", {}});
    web.warnings.push_back({"overflow-cluster-repeated", "spec.placement.clusterAffinities[0].overflowAffinities",
                            "cluster a appears in two tiers", {20, 9}});
    r.results.push_back(web);

    lint::policy_result all;
    all.file = "policies/shop.yaml";
    all.document = 1;
    all.start = {30, 1};
    all.kind = "ClusterPropagationPolicy";
    all.name = "all";
    lint::scheduling_result s;
    s.workload = {"apps/v1", "Deployment", "shop", "web", 3};
    s.message = "0/2 clusters are available";
    all.scheduling.push_back(s);
    r.results.push_back(all);

    lint::policy_result odd;
    odd.file = "policies/odd, name:%.yaml";
    odd.start = {1, 1};
    odd.kind = "PropagationPolicy";
    odd.namespace_name = "shop";
    odd.name = "odd";
    odd.allowed = false;
    odd.errors.push_back({"FieldValueInvalid", "metadata.name", hostile_text, {5, 7}});
    r.results.push_back(odd);

    r.file_errors.push_back({"policies/broken.yaml", {2, 1}, "end of sequence flow not found"});
    r.file_errors.push_back({"missing.yaml", {}, "cannot read: No such file or directory"});
    r.totals = {.documents = 4, .policies = 3, .denied = 2, .warnings = 1, .unschedulable = 1, .skipped = 1};
    return r;
}

// A scratch repository for end-to-end runs: policies/ with a valid policy, a denied one next to a
// Deployment (skipped), and a YAML syntax error at 2:1. Removed on destruction.
struct lint_workspace {
    temp_dir dir;
    const std::filesystem::path& root = dir.path;
    lint_workspace()
    {
        write("policies/valid.yaml", "apiVersion: policy.karmada.io/v1alpha1\nkind: PropagationPolicy\n"
                                     "metadata: {name: web, namespace: shop}\nspec:\n  resourceSelectors:\n"
                                     "    - {apiVersion: apps/v1, kind: Deployment, name: web}\n");
        write("policies/denied.yaml",
              "# every affinityName must be unique\napiVersion: policy.karmada.io/v1alpha1\n"
              "kind: ClusterPropagationPolicy\nmetadata:\n  name: addons\nspec:\n  resourceSelectors:\n"
              "    - {apiVersion: apps/v1, kind: DaemonSet, name: node-exporter, namespace: monitoring}\n"
              "  placement:\n    clusterAffinities:\n      - affinityName: primary\n        clusterNames: [a]\n"
              "      - affinityName: primary\n        clusterNames: [b]\n---\n"
              "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\n");
        write("policies/broken.yaml", "a: [\n");
    }
    void write(const std::string& name, const std::string& text) const { dir.write(name, text); }

    // `karmada-policy-webhook lint -o FORMAT policies` run inside the workspace, as CI runs it at a repo root.
    process_result lint(const std::string& format) const
    {
        return run_process({"/bin/sh", "-c", "cd \"$0\" && exec \"$@\"", root.string(), KPW_BINARY, "lint", "-o",
                            format, "policies"});
    }

    // The same run as JSON: the reference the other formats are checked against.
    doc::value json_report() const { return json_of(lint("json").out); }
};

} // namespace kpw::test
