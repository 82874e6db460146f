// SPDX-License-Identifier: Apache-2.0
// serve --clusters --workloads end to end: warnings in AdmissionReview responses, reload on file change.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "doc/load.hpp"
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

// Replaces the file in one rename, as a ConfigMap volume's atomic writer does.
void rewrite(const fs::path& p, const std::string& text)
{
    const fs::path tmp = p.string() + ".new";
    std::ofstream(tmp, std::ios::binary) << text;
    fs::rename(tmp, p);
}

std::string replace_all(std::string s, const std::string& from, const std::string& to)
{
    for (auto at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size()))
        s.replace(at, from.size(), to);
    return s;
}

std::string policy(std::string_view ns, std::string_view deployment, std::string_view placement)
{
    return R"({"apiVersion":"policy.karmada.io/v1alpha1","kind":"PropagationPolicy",
      "metadata":{"name":"p","namespace":")" + std::string(ns) +
           R"(","labels":{"propagationpolicy.karmada.io/permanent-id":"4f3c5a1e-0000-4000-8000-000000000001"}},
      "spec":{"resourceSelectors":[{"apiVersion":"apps/v1","kind":"Deployment","namespace":")" + std::string(ns) +
           R"(","name":")" + std::string(deployment) + R"("}],"placement":)" + std::string(placement) + R"(,
              "schedulerName":"default-scheduler","conflictResolution":"Abort","preemption":"Never","priority":0}})";
}

// dc-shanghai-1 is not in the example snapshot; member1 is (and holds nginx's 3 replicas).
const std::string groups = policy("default", "nginx", R"({"clusterAffinities":[
  {"affinityName":"dc-shanghai","clusterNames":["dc-shanghai-1"]},
  {"affinityName":"dc-beijing","clusterNames":["member1"]}]})");
// checkout's 10 replicas do not fit idc-east-1 (6 available).
const std::string too_small = policy("production", "checkout", R"({
  "clusterAffinities":[{"affinityName":"local-idc","clusterNames":["idc-east-1"]}],
  "replicaScheduling":{"replicaSchedulingType":"Divided","replicaDivisionPreference":"Weighted",
                       "weightPreference":{"dynamicWeight":"AvailableReplicas"}}})");

struct answer {
    bool allowed = false;
    std::vector<std::string> warnings;
};

answer post(tls_client& c, const std::string& object)
{
    const auto res = c.post("/validate", review("admission.k8s.io/v1", "u", "CREATE", "PropagationPolicy", object));
    REQUIRE(res.result() == boost::beast::http::status::ok);
    auto v = kpw::doc::parse_json(res.body());
    REQUIRE(v.ok());
    const auto* r = v->find("response");
    REQUIRE(r);
    answer a;
    a.allowed = r->find("allowed")->as_bool();
    if (const auto* w = r->find("warnings"))
        for (const auto& item : w->items())
            a.warnings.emplace_back(item.text());
    return a;
}

bool has_warning(const answer& a, std::string_view part)
{
    return std::any_of(a.warnings.begin(), a.warnings.end(),
                       [&](const std::string& w) { return w.find(part) != std::string::npos; });
}

bool has_metric(const serve_process& s, const std::string& line)
{
    return http_get(s.metrics_port(), "/metrics").body().find("\n" + line + "\n") != std::string::npos;
}

} // namespace

TEST_CASE("serve --clusters --workloads warns in the review, keeps a broken reload out, picks up a good one")
{
    temp_dir dir;
    const fs::path clusters = dir.path / "clusters.yaml";
    const std::string original = slurp(examples + "clusters.yaml");
    rewrite(clusters, original);
    serve_process s({"--clusters=" + clusters.string(), "--workloads=" + examples + "workloads.yaml"});
    CHECK(s.log().find("loaded the cluster snapshot") != std::string::npos);
    CHECK(s.log().find("clusters=9 workloads=4") != std::string::npos);
    CHECK(has_metric(s, "karmada_policy_webhook_snapshot_clusters 9"));
    tls_client c(s.webhook_port(), {s.bundle().ca_crt});
    REQUIRE_FALSE(c.connect());

    auto a = post(c, groups);
    CHECK(a.allowed);
    CHECK(has_warning(a, "affinity group dc-shanghai matches no cluster"));
    CHECK_FALSE(has_warning(a, "dc-beijing"));
    a = post(c, too_small);
    CHECK(a.allowed);
    CHECK(has_warning(a, "Deployment production/checkout unschedulable: local-idc: failed to scale up: Clusters available replicas 6"));

    // A snapshot that does not parse: the reload fails, the previous snapshot keeps answering.
    rewrite(clusters, "items: [unclosed\n");
    REQUIRE(wait_until([&] { return has_metric(s, R"(karmada_policy_webhook_snapshot_reloads_total{result="failure"} 1)"); }));
    CHECK(s.log().find("keeping the previous snapshot") != std::string::npos);
    CHECK(has_warning(post(c, groups), "affinity group dc-shanghai matches no cluster"));

    // member1 renamed to dc-shanghai-1: now the other group is the one matching nothing.
    rewrite(clusters, replace_all(original, "member1", "dc-shanghai-1"));
    REQUIRE(wait_until([&] { return has_warning(post(c, groups), "affinity group dc-beijing matches no cluster"); }));
    a = post(c, groups);
    CHECK(a.allowed);
    CHECK_FALSE(has_warning(a, "dc-shanghai"));
    CHECK(has_metric(s, R"(karmada_policy_webhook_snapshot_reloads_total{result="success"} 1)"));
    CHECK(s.log().find("reloaded the cluster snapshot") != std::string::npos);
}

TEST_CASE("a snapshot that does not load at start is a startup error (exit 2); --workloads needs --clusters")
{
    temp_dir dir;
    const std::vector<std::string> base{"serve", "--self-signed", "--cert-dir=" + (dir.path / "certs").string(),
                                        "--secure-port=0", "--health-probe-bind-address=0", "--metrics-bind-address=0"};
    auto with = [&](std::vector<std::string> extra) {
        auto args = base;
        args.insert(args.end(), extra.begin(), extra.end());
        return run_binary(args, dir.path);
    };
    auto [rc, err] = with({"--clusters=" + (dir.path / "missing.yaml").string()});
    CHECK(rc == 2);
    CHECK(err.find("--clusters/--workloads:") != std::string::npos);
    CHECK(err.find("missing.yaml") != std::string::npos);
    std::tie(rc, err) = with({"--workloads=" + examples + "workloads.yaml"});
    CHECK(rc == 2);
    CHECK(err.find("needs --clusters") != std::string::npos);
}
