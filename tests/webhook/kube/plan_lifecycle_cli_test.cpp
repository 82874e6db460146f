// SPDX-License-Identifier: Apache-2.0
// plan against a server holding tests/data/lifecycle (Deployment default/web claimed by PropagationPolicy
// default/old, its binding on member1): deleting the policy (--prune) releases the workload, replacing it
// moves the workload, and the templates of PATH are applied as kubectl apply applies them.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "webhook/kube/live_plane.hpp"

using namespace kpw::test;
using namespace kpw::test::live;

namespace {

const std::string data = std::string(KPW_TEST_DATA) + "/lifecycle/";

// The lifecycle server; policy old as kubectl apply stores it (so --prune may delete it).
struct lifecycle_plane : plane {
    lifecycle_plane()
    {
        load(data + "clusters.yaml");
        load(data + "workloads.yaml");
        load(data + "bindings.yaml");
        auto docs = kpw::doc::load_documents(slurp(data + "base/old.yaml"));
        REQUIRE(docs.ok());
        kpw::doc::value old = (*docs)[0].root;
        kpw::doc::value annotations = kpw::doc::value::mapping();
        annotations.add("kubectl.kubernetes.io/last-applied-configuration", kpw::doc::value::string("{}"));
        old.find("metadata")->set("annotations", std::move(annotations));
        put(std::move(old));
    }
};

std::vector<std::string> rows_of(const kpw::doc::value& report, std::string_view list)
{
    std::vector<std::string> rows;
    for (const auto& row : report.find(list)->items())
        rows.push_back(std::string(row.string_at("action")) + " " + std::string(row.string_at("kind")) + " " +
                       std::string(row.string_at("name")));
    return rows;
}

const kpw::doc::value& only_change(const kpw::doc::value& report)
{
    const auto& changes = report.find("diff")->items();
    REQUIRE(changes.size() == 1);
    return changes[0];
}

} // namespace

TEST_CASE("plan --prune: a replaced policy hands the workload to its successor, which moves it")
{
    lifecycle_plane p;
    const auto r = run(p.live({"plan", "-o", "json", "--prune", data + "replace"}));
    REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    const auto v = json_of(r.out);
    CHECK(rows_of(v, "policies") == std::vector<std::string>{"create PropagationPolicy new", "delete PropagationPolicy old"});
    const auto& change = only_change(v);
    CHECK(change.find_path({"before", "policy"})->text() == "PropagationPolicy default/old");
    CHECK(change.find_path({"after", "policy"})->text() == "PropagationPolicy default/new");
    CHECK(kpw::doc::to_json(*change.find("moves")) ==
          R"([{"cluster":"member1","from":3,"to":0},{"cluster":"member2","from":0,"to":3}])");
}

TEST_CASE("plan --prune: a policy deleted with nothing in its place leaves the workload where it runs")
{
    lifecycle_plane p;
    const auto r = run(p.live({"plan", "--prune", data + "none"}));
    REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    CHECK(r.out.find("- PropagationPolicy default/old (delete)") != std::string::npos);
    CHECK(r.out.find("~ Deployment default/web: released: PropagationPolicy default/old is deleted and no policy "
                     "claims it; the binding stays on its clusters") != std::string::npos);
    CHECK(r.out.find("- member1 3") == std::string::npos);
    // Without --prune nothing is deleted: the claim is sticky and nothing moves.
    const auto kept = json_of(run(p.live({"plan", "-o", "json", data + "none"})).out);
    CHECK(kept.find("diff")->items().empty());
}

TEST_CASE("plan applies PATH's templates as kubectl apply does: a scaled Deployment is re-scheduled")
{
    lifecycle_plane p;
    kpw::test::temp_dir dir;
    // The repository's copy of web: no claim keys (Karmada wrote them), 5 replicas.
    dir.write("web.yaml", "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web, namespace: default, "
                          "labels: {app: web}}\nspec:\n  replicas: 5\n  selector: {matchLabels: {app: web}}\n"
                          "  template:\n    metadata: {labels: {app: web}}\n    spec: {containers: [{name: c, image: nginx}]}\n");
    fs::copy_file(data + "base/old.yaml", dir.path / "old.yaml");
    const auto r = run(p.live({"plan", "-o", "json", dir.path.string()}));
    REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    const auto v = json_of(r.out);
    CHECK(rows_of(v, "workloads") == std::vector<std::string>{"change Deployment web"});
    CHECK(rows_of(v, "policies") == std::vector<std::string>{"unchanged PropagationPolicy old"});
    const auto& change = only_change(v);
    CHECK(change.find_path({"after", "policy"})->text() == "PropagationPolicy default/old"); // the claim stayed
    CHECK(kpw::doc::to_json(*change.find("moves")) == R"([{"cluster":"member1","from":3,"to":5}])");

    const auto text = run(p.live({"plan", dir.path.string()}));
    CHECK(text.out.find("workloads on the server once applied:\n  ~ Deployment default/web (change)") != std::string::npos);
    CHECK(text.out.find("0 skipped") != std::string::npos);
}

TEST_CASE("plan: a policy whose update is denied stays on the server as it is and keeps what it holds")
{
    // PATH rewrites old into a version the webhook denies, beside a new ClusterPropagationPolicy: kubectl apply
    // fails for old, the server keeps its version, which still holds web on member1 (claims are sticky).
    lifecycle_plane p;
    const std::string change = data + "refused-update/old-denied";
    const auto r = run(p.live({"plan", "-o", "json", change}));
    CHECK(r.exit_code == 1); // old's update is denied
    const auto v = json_of(r.out);
    CHECK(rows_of(v, "policies") ==
          std::vector<std::string>{"create ClusterPropagationPolicy all-deployments", "denied PropagationPolicy old"});
    CHECK(v.find("diff")->items().empty());
    CHECK(v.find_path({"summary", "notPredicted"})->as_int() == 0); // old's server version is scheduled
}

TEST_CASE("plan: an update that changes spec.schedulerName is denied, and nothing moves")
{
    lifecycle_plane p;
    const auto r = run(p.live({"plan", "-o", "json", data + "scheduler-name"}));
    CHECK(r.exit_code == 1);
    const auto v = json_of(r.out);
    CHECK(rows_of(v, "policies") == std::vector<std::string>{"denied PropagationPolicy old"});
    CHECK(v.find("diff")->items().empty());
}
