// SPDX-License-Identifier: Apache-2.0
// lint --workloads: summary.claims (which policy claims each workload, and why) and the claim warnings.
#include <string>

#include <doctest/doctest.h>

#include "support/lint_run.hpp"
#include "support/temp_dir.hpp"

using kpw::test::json_of;
using kpw::test::run_lint;
using kpw::test::temp_dir;

namespace {

const std::string clusters = std::string(KPW_SOURCE_ROOT) + "/manifests/examples/clusters.yaml";

// "broad" (match-all, priority 5), "exact" (by name, priority 9, preemption Never), "nothing" (StatefulSets).
const std::string policies = R"(apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: {name: broad, namespace: shop}
spec:
  priority: 5
  resourceSelectors:
    - apiVersion: apps/v1
      kind: Deployment
  placement:
    clusterAffinity: {clusterNames: [cloud-east-1]}
---
apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: {name: exact, namespace: shop}
spec:
  preemption: Never
  priority: 9
  resourceSelectors:
    - apiVersion: apps/v1
      kind: Deployment
      name: web
  placement:
    clusterAffinity: {clusterNames: [cloud-east-1]}
---
apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: {name: nothing, namespace: shop}
spec:
  resourceSelectors:
    - apiVersion: apps/v1
      kind: StatefulSet
  placement:
    clusterAffinity: {clusterNames: [cloud-east-1]}
)";

// web is already claimed by "broad" (its claim keys); api is unclaimed.
const std::string workloads = R"(apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  namespace: shop
  labels: {propagationpolicy.karmada.io/permanent-id: 5d1c}
  annotations: {propagationpolicy.karmada.io/namespace: shop, propagationpolicy.karmada.io/name: broad}
spec: {replicas: 1}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: api, namespace: shop}
spec: {replicas: 1}
)";

const kpw::doc::value* warning_with(const kpw::doc::value& report, std::string_view policy, std::string_view id)
{
    for (const auto& r : report.find("results")->items())
        if (r.string_at("name") == policy)
            for (const auto& w : r.find("warnings")->items())
                if (w.string_at("id") == id)
                    return &w;
    return nullptr;
}

struct files {
    temp_dir dir;
    std::string policy = dir.write("policies.yaml", policies).string();
    std::string work = dir.write("workloads.yaml", workloads).string();
};

} // namespace

TEST_CASE("summary.claims lists every workload with its policy, reason, candidates and stickiness")
{
    files f;
    auto r = run_lint({"-o", "json", "--clusters", clusters, "--workloads", f.work, f.policy});
    CHECK(r.exit_code == 0);
    auto v = json_of(r.out);
    const auto* claims = v.find_path({"summary", "claims"});
    REQUIRE(claims);
    REQUIRE(claims->items().size() == 2);
    const auto& web = claims->items()[0];
    CHECK(kpw::doc::to_json(*web.find("workload")) ==
          R"({"apiVersion":"apps/v1","kind":"Deployment","namespace":"shop","name":"web"})");
    CHECK(kpw::doc::to_json(*web.find("policy")) ==
          R"({"kind":"PropagationPolicy","namespace":"shop","name":"broad"})");
    CHECK(web.find("sticky")->as_bool());
    CHECK(web.find_path({"wouldWin", "name"})->text() == "exact");
    CHECK(web.string_at("reason").starts_with("already claimed by PropagationPolicy shop/broad (claims are sticky)"));
    const auto& cands = web.find("candidates")->items();
    REQUIRE(cands.size() == 2);
    CHECK(cands[0].find_path({"policy", "name"})->text() == "exact");
    CHECK(cands[0].find("priority")->as_int() == 9);
    CHECK(cands[0].string_at("implicitPriority") == "name");
    CHECK(cands[0].find("matched")->as_bool());
    CHECK(cands[1].string_at("implicitPriority") == "matchAll");
    CHECK(cands[1].string_at("why") == "holds the claim (sticky)");

    const auto& api = claims->items()[1];
    CHECK(api.find_path({"policy", "name"})->text() == "broad");
    CHECK_FALSE(api.find("sticky")->as_bool());
    CHECK(api.find("wouldWin") == nullptr);
    CHECK(api.string_at("reason") == "the only matching policy (priority 5, match by kind only (match-all))");
}

TEST_CASE("without --workloads there is no summary.claims")
{
    files f;
    auto v = json_of(run_lint({"-o", "json", "--clusters", clusters, f.policy}).out);
    CHECK(v.find_path({"summary", "claims"}) == nullptr);
    CHECK(warning_with(v, "nothing", "policy-claims-nothing") == nullptr);
}

TEST_CASE("claim warnings sit on the policy field they concern, the same in every format")
{
    files f;
    auto v = json_of(run_lint({"-o", "json", "--clusters", clusters, "--workloads", f.work, f.policy}).out);
    const auto* blocked = warning_with(v, "exact", "claim-not-preempted");
    REQUIRE(blocked);
    CHECK(blocked->string_at("field") == "spec.preemption");
    CHECK(blocked->find("line")->as_int() == 16); // "preemption: Never" of exact
    CHECK(blocked->find("column")->as_int() == 15);
    const auto* nothing = warning_with(v, "nothing", "policy-claims-nothing");
    REQUIRE(nothing);
    CHECK(nothing->find("line")->as_int() == 29); // its resourceSelectors key
    CHECK(warning_with(v, "exact", "policy-shadowed") != nullptr);
    CHECK(warning_with(v, "broad", "policy-shadowed") == nullptr); // it claims both

    auto text = run_lint({"--clusters", clusters, "--workloads", f.work, f.policy}).out;
    CHECK(text.find("policies.yaml:16:15: warning: spec.preemption: would claim Deployment shop/web") !=
          std::string::npos);
    CHECK(text.find("[claim-not-preempted]") != std::string::npos);
    CHECK(text.find("note: claim: Deployment shop/web -> PropagationPolicy shop/broad: already claimed") !=
          std::string::npos);
    // api has a single candidate: no claim line for it.
    CHECK(text.find("claim: Deployment shop/api") == std::string::npos);
    auto github = run_lint({"-o", "github", "--clusters", clusters, "--workloads", f.work, f.policy}).out;
    CHECK(github.find(",line=16,col=15,title=claim-not-preempted in PropagationPolicy shop/exact::") !=
          std::string::npos);
    auto sarif = json_of(run_lint({"-o", "sarif", "--clusters", clusters, "--workloads", f.work, f.policy}).out);
    bool found = false;
    for (const auto& res : sarif.find("runs")->items()[0].find("results")->items())
        if (res.string_at("ruleId") == "claim-not-preempted") {
            const auto* region = res.find("locations")->items()[0].find_path({"physicalLocation", "region"});
            found = region->find("startLine")->as_int() == 16 && region->find("startColumn")->as_int() == 15;
        }
    CHECK(found);
    for (const auto& rule : sarif.find_path({"runs"})->items()[0].find_path({"tool", "driver", "rules"})->items())
        if (rule.string_at("id") == "claim-not-preempted")
            CHECK(rule.find_path({"shortDescription", "text"})->text().find("does not take it over") !=
                  std::string::npos);
}
