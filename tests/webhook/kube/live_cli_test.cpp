// SPDX-License-Identifier: Apache-2.0
// lint --kubeconfig, plan and serve --kubeconfig against the in-process fake API server: live reads give
// the report the exported files give, plan names what applying PATH moves, and every fault is a clear
// error (exit 2), never a hang.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "doc/load.hpp"
#include "support/lint_run.hpp"
#include "support/temp_dir.hpp"
#include "webhook/kube/fake_apiserver.hpp"
#include "webhook/kube/live_plane.hpp"
#include "webhook/server/serve_process.hpp"
#include "webhook/server/test_client.hpp"

using namespace kpw::test;
namespace fs = std::filesystem;

using namespace kpw::test::live;

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

    // Every read plan makes is granted by the manifests' read-only ClusterRole for CI.
    const auto granted = role_grants("karmada-policy-webhook:plan");
    for (const auto& made : requests_made(p.api))
        CHECK_MESSAGE(granted.contains(made), made.first << " " << made.second << " is not in karmada-policy-webhook:plan");

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

    // --prune: these policies were created as kubectl create stores them (no last-applied annotation),
    // so kubectl apply --prune deletes none (the test below has the ones it does delete).
    const auto pruned = run(p.live({"plan", "-o", "json", "--prune", examples + "dc-groups.yaml"}));
    const auto pruned_json = json_of(pruned.out);
    std::vector<std::string> kept;
    for (const auto& row : pruned_json.find("policies")->items()) {
        CHECK(row.string_at("action") != "delete");
        if (row.string_at("action") == "kept")
            kept.emplace_back(row.string_at("name"));
    }
    CHECK(kept == std::vector<std::string>{"nginx-overflow"}); // same namespace; production's is out of scope
}

TEST_CASE("plan --prune deletes what kubectl apply --prune --all deletes: last-applied policies, PATH's namespaces")
{
    plane p;
    p.load(examples + "clusters.yaml");
    p.load(examples + "workloads.yaml");
    // As kubectl apply stores an object (kubectl.kubernetes.io/last-applied-configuration), or not.
    auto put = [&](const std::string& file, const std::string& name, bool applied) {
        auto docs = kpw::doc::load_documents(slurp(file));
        REQUIRE(docs.ok());
        kpw::doc::value object = (*docs)[0].root;
        auto* meta = object.find("metadata");
        meta->set("name", kpw::doc::value::string(name));
        if (applied) {
            kpw::doc::value annotations = kpw::doc::value::mapping();
            annotations.add("kubectl.kubernetes.io/last-applied-configuration", kpw::doc::value::string("{}"));
            meta->set("annotations", std::move(annotations));
        }
        p.put(std::move(object));
    };
    put(examples + "dc-groups.yaml", "nginx", true);                         // default: PATH holds it
    put(examples + "overflow-onprem-cloud.yaml", "nginx-overflow", true);    // default: deleted
    put(examples + "overflow-onprem-cloud.yaml", "made-by-hand", false);     // default: created, never applied
    put(examples + "checkout-local-idc.yaml", "checkout-overflow", true);    // production: PATH has none there
    kpw::test::temp_dir dir;
    const std::string cpp = dir.write("cpp.yaml", "apiVersion: policy.karmada.io/v1alpha1\n"
                                                  "kind: ClusterPropagationPolicy\n"
                                                  "metadata: {name: x}\n"
                                                  "spec:\n"
                                                  "  resourceSelectors: [{apiVersion: v1, kind: ConfigMap}]\n"
                                                  "  placement: {clusterAffinity: {clusterNames: [member1]}}\n")
                                .string();
    put(cpp, "cluster-wide", true);       // cluster-scoped: deleted, whatever PATH holds
    put(cpp, "from-a-controller", false); // cluster-scoped: kept

    auto rows_of = [](const std::string& out) {
        std::vector<std::string> rows;
        const auto json = json_of(out);
        for (const auto& row : json.find("policies")->items())
            rows.push_back(std::string(row.string_at("action")) + " " + std::string(row.string_at("kind")) + " " +
                           std::string(row.string_at("name")) + (row.find("note") ? " (note)" : ""));
        return rows;
    };
    const auto planned = run(p.live({"plan", "-o", "json", "--prune", examples + "dc-groups.yaml"}));
    CHECK_MESSAGE(planned.exit_code == 0, planned.err);
    CHECK(rows_of(planned.out) == std::vector<std::string>{
                                      "unchanged PropagationPolicy nginx",
                                      "delete ClusterPropagationPolicy cluster-wide",
                                      "delete PropagationPolicy nginx-overflow",
                                      "kept ClusterPropagationPolicy from-a-controller (note)",
                                      "kept PropagationPolicy made-by-hand (note)",
                                  });
    const auto text = run(p.live({"plan", "--prune", examples + "dc-groups.yaml"}));
    CHECK(text.out.find("= PropagationPolicy default/made-by-hand (kept: no kubectl.kubernetes.io/last-applied-"
                        "configuration annotation: not written by kubectl apply") != std::string::npos);
    CHECK(text.out.find("- PropagationPolicy default/nginx-overflow (delete)") != std::string::npos);

    // A policy of PATH denied: kubectl apply returns the error before it prunes, so nothing is deleted.
    const std::string denied = dir.write("denied.yaml", slurp(examples + "dc-groups.yaml") + "---\n" +
                                                            slurp(examples + "broken/duplicate-affinity-names.yaml"))
                                   .string();
    const auto blocked = run(p.live({"plan", "-o", "json", "--prune", denied}));
    CHECK(blocked.exit_code == 1);
    for (const auto& row : rows_of(blocked.out))
        CHECK(!row.starts_with("delete "));
    CHECK(blocked.out.find("deletes nothing when an object of PATH fails to apply") != std::string::npos);
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

namespace {

std::string policy_for(std::string_view ns, std::string_view deployment, std::string_view placement)
{
    return R"({"apiVersion":"policy.karmada.io/v1alpha1","kind":"PropagationPolicy",
      "metadata":{"name":"p","namespace":")" + std::string(ns) +
           R"(","labels":{"propagationpolicy.karmada.io/permanent-id":"4f3c5a1e-0000-4000-8000-000000000001"}},
      "spec":{"resourceSelectors":[{"apiVersion":"apps/v1","kind":"Deployment","namespace":")" + std::string(ns) +
           R"(","name":")" + std::string(deployment) + R"("}],"placement":)" + std::string(placement) + R"(,
              "schedulerName":"default-scheduler","conflictResolution":"Abort","preemption":"Never","priority":0}})";
}

std::vector<std::string> warnings_for(tls_client& c, const std::string& object)
{
    const auto res = c.post("/validate", review("admission.k8s.io/v1", "u", "CREATE", "PropagationPolicy", object));
    REQUIRE(res.result() == boost::beast::http::status::ok);
    auto v = kpw::doc::parse_json(res.body());
    REQUIRE(v.ok());
    const auto* r = v->find("response");
    REQUIRE(r != nullptr);
    CHECK(r->find("allowed")->as_bool());
    std::vector<std::string> out;
    if (const auto* w = r->find("warnings"))
        for (const auto& item : w->items())
            out.emplace_back(item.text());
    return out;
}

bool mentions(const std::vector<std::string>& warnings, std::string_view part)
{
    return std::any_of(warnings.begin(), warnings.end(), [&](const std::string& w) { return w.find(part) != std::string::npos; });
}

bool has_metric(const serve_process& s, const std::string& line)
{
    return http_get(s.metrics_port(), "/metrics").body().find("\n" + line + "\n") != std::string::npos;
}

// The example cluster `name` as a JSON object, renamed and with extra spec fields when asked.
kpw::doc::value example_cluster(const std::string& name)
{
    auto docs = kpw::doc::load_documents(slurp(examples + "clusters.yaml"));
    REQUIRE(docs.ok());
    for (const auto& item : (*docs)[0].root.find("items")->items())
        if (item.find("metadata")->string_at("name") == name)
            return item;
    FAIL("no example cluster " << name);
    return {};
}

std::string state_line(std::string_view state)
{
    return R"(karmada_policy_webhook_live_watch_state{resource="clusters.cluster.karmada.io",state=")" + std::string(state) +
           R"("} 1)";
}

} // namespace

TEST_CASE("serve --kubeconfig: warnings follow Clusters added, tainted and deleted; an API server restart is survived")
{
    plane p;
    p.load(examples + "clusters.yaml");
    p.load(examples + "workloads.yaml");
    serve_process s({"--kubeconfig=" + p.kubeconfig.string(), "--live-workloads=apps/v1/Deployment"});
    REQUIRE(wait_until([&] { return has_metric(s, state_line("synced")); }));
    CHECK(has_metric(s, R"(karmada_policy_webhook_live_objects{resource="clusters.cluster.karmada.io"} 9)"));
    // "synced" is the watch's state; the snapshot built from it is published just after.
    REQUIRE(wait_until([&] { return has_metric(s, "karmada_policy_webhook_snapshot_clusters 9"); }));
    tls_client c(s.webhook_port(), {s.bundle().ca_crt});
    REQUIRE_FALSE(c.connect());

    const std::string groups = policy_for("default", "nginx", R"({"clusterAffinities":[
      {"affinityName":"dc-shanghai","clusterNames":["dc-shanghai-1"]},{"affinityName":"dc-beijing","clusterNames":["member1"]}]})");
    const std::string on_member1 = policy_for("default", "nginx", R"({"clusterAffinity":{"clusterNames":["member1"]}})");
    CHECK(mentions(warnings_for(c, groups), "affinity group dc-shanghai matches no cluster"));
    CHECK_FALSE(mentions(warnings_for(c, on_member1), "unschedulable"));

    // Added: a cluster dc-shanghai-1 appears, the warning goes.
    auto shanghai = example_cluster("member1");
    shanghai.find("metadata")->set("name", kpw::doc::value::string("dc-shanghai-1"));
    p.api.put("clusters", kpw::doc::to_json(shanghai));
    REQUIRE(wait_until([&] { return !mentions(warnings_for(c, groups), "dc-shanghai"); }, 20000));

    // Tainted: member1 NoSchedule leaves nginx (a known workload, watched) unschedulable there.
    auto tainted = example_cluster("member1");
    auto taints = kpw::doc::value::sequence();
    auto taint = kpw::doc::value::mapping();
    taint.add("key", kpw::doc::value::string("maintenance"));
    taint.add("effect", kpw::doc::value::string("NoSchedule"));
    taints.push_back(std::move(taint));
    tainted.find("spec")->set("taints", std::move(taints));
    p.api.put("clusters", kpw::doc::to_json(tainted));
    REQUIRE(wait_until([&] { return mentions(warnings_for(c, on_member1), "unschedulable"); }, 20000));

    // Deleted: dc-shanghai-1 goes, the warning is back.
    p.api.remove("clusters", "", "dc-shanghai-1");
    REQUIRE(wait_until([&] { return mentions(warnings_for(c, groups), "affinity group dc-shanghai matches no cluster"); }, 20000));

    // The API server goes away: admission keeps answering from the last snapshot, /readyz stays 200,
    // the state shows in /metrics and the log says it once.
    p.api.stop();
    REQUIRE(wait_until([&] { return has_metric(s, state_line("retrying")); }, 20000));
    CHECK(mentions(warnings_for(c, groups), "affinity group dc-shanghai matches no cluster"));
    CHECK(http_get(s.health_port(), "/readyz").result() == boost::beast::http::status::ok);
    // Back: the watch re-lists and the snapshot follows a change made while it was away.
    p.api.put("clusters", kpw::doc::to_json(shanghai));
    p.api.start();
    REQUIRE(wait_until([&] { return has_metric(s, state_line("synced")); }, 60000));
    REQUIRE(wait_until([&] { return !mentions(warnings_for(c, groups), "dc-shanghai"); }, 20000));
    const std::string log = s.log();
    std::size_t interrupted = 0;
    for (auto at = log.find("watch interrupted"); at != std::string::npos; at = log.find("watch interrupted", at + 1))
        ++interrupted;
    CHECK(interrupted >= 1);
    CHECK(log.find("s3cret") == std::string::npos);
    // Least privilege: the live-snapshot ClusterRole grants exactly what serve did with Clusters and the
    // policy CRD it reads the Karmada release off (Deployments, from --live-workloads, are the rule the
    // manifest tells users to add).
    std::set<std::pair<std::string, std::string>> reads;
    for (const auto& made : requests_made(p.api))
        if (made.second == "clusters.cluster.karmada.io" ||
            made.second == "customresourcedefinitions.apiextensions.k8s.io")
            reads.insert(made);
    CHECK(reads == role_grants("karmada-policy-webhook:live-snapshot"));
}

// Issue 38: the live snapshot's memory is bounded. More objects in a watched collection than
// --live-max-objects and serve drops them and the snapshot, says so once (log, /metrics), answers every
// review without the snapshot's warnings, and takes the snapshot back when the collection fits again.
TEST_CASE("serve --live-max-objects: over the limit the live snapshot is dropped, admission answers, it comes back")
{
    plane p;
    p.load(examples + "clusters.yaml"); // 9 Clusters
    p.load(examples + "workloads.yaml");
    serve_process s({"--kubeconfig=" + p.kubeconfig.string(), "--live-workloads=apps/v1/Deployment",
                     "--live-max-objects=10"});
    REQUIRE(wait_until([&] { return has_metric(s, "karmada_policy_webhook_snapshot_clusters 9"); }));
    tls_client c(s.webhook_port(), {s.bundle().ca_crt});
    REQUIRE_FALSE(c.connect());
    const std::string groups = policy_for("default", "nginx", R"({"clusterAffinities":[
      {"affinityName":"dc-shanghai","clusterNames":["dc-shanghai-1"]},{"affinityName":"dc-beijing","clusterNames":["member1"]}]})");
    CHECK(mentions(warnings_for(c, groups), "affinity group dc-shanghai matches no cluster"));

    // A 10th and an 11th Cluster, by watch events: over the limit.
    for (const char* name : {"extra-1", "extra-2"}) {
        auto extra = example_cluster("member1");
        extra.find("metadata")->set("name", kpw::doc::value::string(name));
        p.api.put("clusters", kpw::doc::to_json(extra));
    }
    REQUIRE(wait_until([&] { return has_metric(s, state_line("over_limit")); }, 20000));
    CHECK(has_metric(s, R"(karmada_policy_webhook_live_objects{resource="clusters.cluster.karmada.io"} 0)"));
    CHECK(has_metric(s, "karmada_policy_webhook_snapshot_clusters 0"));
    // Admission answers every review (warnings_for requires 200 and allowed), without the snapshot's warnings.
    for (int i = 0; i < 3; ++i)
        CHECK_FALSE(mentions(warnings_for(c, groups), "dc-shanghai"));
    CHECK(http_get(s.health_port(), "/readyz").result() == boost::beast::http::status::ok);
    // Listed again after the backoff, still too many: still over the limit, and said once.
    REQUIRE(wait_until([&] {
        std::size_t lists = 0;
        for (const auto& r : p.api.requests())
            lists += r.path == "/apis/cluster.karmada.io/v1alpha1/clusters" && !r.query.contains("watch");
        return lists >= 3;
    }, 20000));
    CHECK(has_metric(s, state_line("over_limit")));
    const std::string log = s.log();
    std::size_t said = 0;
    for (auto at = log.find("--live-max-objects=10"); at != std::string::npos; at = log.find("--live-max-objects=10", at + 1))
        ++said;
    CHECK(said == 1);

    // Back to 10 Clusters: the next list fits, the snapshot and its warnings come back.
    p.api.remove("clusters", "", "extra-2");
    REQUIRE(wait_until([&] { return has_metric(s, "karmada_policy_webhook_snapshot_clusters 10"); }, 60000));
    CHECK(has_metric(s, state_line("synced")));
    CHECK(mentions(warnings_for(c, groups), "affinity group dc-shanghai matches no cluster"));
}

TEST_CASE("simulate --kubeconfig starts the drill from the control plane, as from the exported files")
{
    plane p;
    p.load(examples + "clusters.yaml");
    p.load(examples + "workloads.yaml");
    const std::vector<std::string> drill{"--feature-gates", "Failover=true", "--enable-no-execute-taint-eviction",
                                         "--scenario", examples + "drills/dr-failover.yaml", "-o", "json",
                                         examples + "dc-groups.yaml"};
    auto live_args = p.live({"simulate"});
    live_args.insert(live_args.end(), drill.begin(), drill.end());
    const fs::path no_bindings = p.dir.write("no-bindings.yaml", "apiVersion: v1\nkind: List\nitems: []\n");
    std::vector<std::string> file_args{"simulate", "--clusters", examples + "clusters.yaml", "--workloads",
                                       examples + "workloads.yaml", "--bindings", no_bindings.string()};
    file_args.insert(file_args.end(), drill.begin(), drill.end());
    const auto live = run(live_args);
    const auto files = run(file_args);
    REQUIRE_MESSAGE(live.exit_code == files.exit_code, live.err);
    // The drill runs on the selected templates only; the steps' outcomes for them are the same.
    CHECK(kpw::doc::to_json(*json_of(live.out).find("steps")) == kpw::doc::to_json(*json_of(files.out).find("steps")));

    const auto no_clusters = run({"simulate", "--scenario", examples + "drills/dr-failover.yaml", examples + "dc-groups.yaml"});
    CHECK(no_clusters.exit_code == 2);
    CHECK(no_clusters.err.find("--clusters is required") != std::string::npos);
}

TEST_CASE("serve --kubeconfig: an exec credential plugin, and what it leaves running, holds none of serve's sockets")
{
    plane p;
    p.load(examples + "clusters.yaml");
    // The plugin leaves a process behind, as one starting a token-cache helper would.
    const fs::path helper_pid = p.dir.path / "helper.pid";
    const fs::path plugin = p.dir.write("plugin", "#!/bin/sh\nsleep 60 </dev/null >/dev/null 2>&1 &\necho $! > '" +
                                                      helper_pid.string() + "'\n"
                                                      R"(echo '{"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","status":{"token":"s3cret"}}')"
                                                      "\n");
    fs::permissions(plugin, fs::perms::owner_all);
    const fs::path kubeconfig = p.dir.write(
        "exec-kubeconfig", "apiVersion: v1\nkind: Config\ncurrent-context: karmada\nclusters:\n- name: karmada\n  cluster:\n"
                           "    server: " + p.api.url() + "\n    certificate-authority: " + (p.dir.path / "ca.crt").string() +
                           "\ncontexts:\n- name: karmada\n  context:\n    cluster: karmada\n    user: plugin\nusers:\n"
                           "- name: plugin\n  user:\n    exec:\n      apiVersion: client.authentication.k8s.io/v1\n"
                           "      command: " + plugin.string() + "\n      interactiveMode: Never\n");
    p.api.require_token("s3cret");
    std::vector<unsigned short> ports;
    {
        serve_process s({"--kubeconfig=" + kubeconfig.string()});
        REQUIRE_MESSAGE(wait_until([&] { return has_metric(s, state_line("synced")); }), s.log());
        ports = {s.webhook_port(), s.health_port(), s.metrics_port()};
    } // serve is killed here; the plugin's helper lives on
    const std::string helper_text = slurp(helper_pid);
    REQUIRE_FALSE(helper_text.empty());
    const pid_t helper = static_cast<pid_t>(std::stol(helper_text));
    REQUIRE(helper > 0);
    CHECK(kill(helper, 0) == 0);
    // Another serve could listen on every port at once: no copy of a listening socket stayed open.
    boost::asio::io_context ioc;
    for (const unsigned short port : ports) {
        CAPTURE(port);
        boost::asio::ip::tcp::acceptor again(ioc);
        again.open(boost::asio::ip::tcp::v4());
        again.set_option(boost::asio::socket_base::reuse_address(true)); // past TIME_WAIT, never past a listener
        boost::system::error_code ec;
        again.bind({boost::asio::ip::address_v4::loopback(), port}, ec);
        CHECK_MESSAGE(!ec, ec.message());
    }
    kill(helper, SIGKILL);
}

TEST_CASE("serve --live-workloads: kinds resolved by discovery (Gateway as gateways, Foo as foozles); an unserved "
          "kind is an error and holds nothing back")
{
    plane p;
    p.load(examples + "clusters.yaml");
    p.api.add_resource({"gateway.networking.k8s.io", "v1", "gateways", "Gateway", true});
    p.api.add_resource({"example.com", "v1", "foozles", "Foo", true});
    p.api.put("gateways", R"({"apiVersion":"gateway.networking.k8s.io/v1","kind":"Gateway",
      "metadata":{"name":"edge","namespace":"default"},"spec":{}})");
    p.api.put("foozles", R"({"apiVersion":"example.com/v1","kind":"Foo","metadata":{"name":"f1","namespace":"default"}})");
    serve_process s({"--kubeconfig=" + p.kubeconfig.string(), "--live-workloads=gateway.networking.k8s.io/v1/Gateway",
                     "--live-workloads=example.com/v1/Foo", "--live-workloads=example.com/v1/Bar"});
    // The Clusters and the two served kinds' workloads are published; Bar's absence holds nothing back.
    REQUIRE(wait_until([&] { return has_metric(s, "karmada_policy_webhook_snapshot_clusters 9"); }, 20000));
    REQUIRE(wait_until([&] { return has_metric(s, "karmada_policy_webhook_snapshot_workloads 2"); }, 20000));
    CHECK(has_metric(s, R"(karmada_policy_webhook_live_workload_kind_served{kind="example.com/v1/Bar"} 0)"));
    CHECK(has_metric(s, R"(karmada_policy_webhook_live_workload_kind_served{kind="example.com/v1/Foo"} 1)"));
    CHECK(http_get(s.health_port(), "/readyz").result() == boost::beast::http::status::ok);
    std::set<std::string> paths;
    for (const auto& r : p.api.requests())
        paths.insert(r.path);
    CHECK(paths.count("/apis/gateway.networking.k8s.io/v1/gateways") == 1);
    CHECK(paths.count("/apis/example.com/v1/foozles") == 1);
    CHECK(paths.count("/apis/gateway.networking.k8s.io/v1/gatewaies") == 0);
    // The error names the kind and what would help, once.
    const std::string log = s.log();
    const auto at = log.find("does not serve this --live-workloads kind");
    REQUIRE(at != std::string::npos);
    CHECK(log.find("kind=example.com/v1/Bar", at) != std::string::npos);
    CHECK(log.find("kubectl api-resources --api-group=example.com", at) != std::string::npos);
    CHECK(log.find("does not serve this --live-workloads kind", at + 1) == std::string::npos);
}

TEST_CASE("lint --kubeconfig --request-timeout 0 is no limit, and 0s or a bare number of seconds read as kubectl's")
{
    plane p;
    p.load(examples + "clusters.yaml");
    p.load(examples + "workloads.yaml");
    const std::string policy = examples + "dc-groups.yaml";
    const auto reference = run(p.live({"lint", "-o", "json", policy}));
    REQUIRE_MESSAGE(reference.exit_code != 2, reference.err);
    for (const std::string timeout : {"0", "0s", "30"}) {
        CAPTURE(timeout);
        const auto r = run(p.live({"lint", "-o", "json", "--request-timeout", timeout, policy}));
        REQUIRE_MESSAGE(r.exit_code == reference.exit_code, r.err);
        CHECK(results_of(r.out) == results_of(reference.out));
    }
    const auto bad = run(p.live({"lint", "--request-timeout", "soon", policy}));
    CHECK(bad.exit_code == 2);
    CHECK(bad.err.find("--request-timeout soon: not a duration") != std::string::npos);
}

TEST_CASE("--members-through-proxy reads each member's Nodes and Pods through the cluster proxy, as --member-state")
{
    plane p;
    p.load(examples + "clusters.yaml");
    p.load(examples + "workloads.yaml");
    // Small IDC members (checkout asks 500m and 1Gi a replica: idc-east-1 holds 3 beside its running pod,
    // idc-east-2 one), a roomy cloud member; cloud-east-2's proxy fails; the rest are not served (404).
    const std::map<std::string, std::pair<std::string, std::string>> members = {
        {"idc-east-1",
         {R"({"kind":"NodeList","apiVersion":"v1","metadata":{},"items":[{"metadata":{"name":"i1-a"},"status":{"allocatable":{"cpu":"2","memory":"8Gi","pods":"110"},"conditions":[{"type":"Ready","status":"True"}]}}]})",
          R"({"kind":"PodList","apiVersion":"v1","metadata":{},"items":[{"metadata":{"name":"db-0","namespace":"data","uid":"0a0a0a0a-0000-4000-8000-000000000001"},"spec":{"nodeName":"i1-a","containers":[{"name":"db","image":"db","resources":{"requests":{"cpu":"500m"}}}]},"status":{"phase":"Running"}}]})"}},
        {"idc-east-2",
         {R"({"kind":"NodeList","apiVersion":"v1","metadata":{},"items":[{"metadata":{"name":"i2-a"},"status":{"allocatable":{"cpu":"1","memory":"4Gi","pods":"110"},"conditions":[{"type":"Ready","status":"True"}]}}]})",
          R"({"kind":"PodList","apiVersion":"v1","metadata":{},"items":[]})"}},
        {"cloud-east-1",
         {R"({"kind":"NodeList","apiVersion":"v1","metadata":{},"items":[{"metadata":{"name":"c1-a"},"status":{"allocatable":{"cpu":"64","memory":"256Gi","pods":"110"},"conditions":[{"type":"Ready","status":"True"}]}}]})",
          R"({"kind":"PodList","apiVersion":"v1","metadata":{},"items":[]})"}},
        // The on-prem tier of the hybrid-cloud drill (simulate, below): one small node.
        {"cluster1",
         {R"({"kind":"NodeList","apiVersion":"v1","metadata":{},"items":[{"metadata":{"name":"on-prem-a"},"status":{"allocatable":{"cpu":"2","memory":"8Gi","pods":"110"},"conditions":[{"type":"Ready","status":"True"}]}}]})",
          R"({"kind":"PodList","apiVersion":"v1","metadata":{},"items":[]})"}},
    };
    const auto proxy = [](const std::string& cluster, const std::string& what) {
        return "/apis/cluster.karmada.io/v1alpha1/clusters/" + cluster + "/proxy/api/v1/" + what;
    };
    for (const auto& [cluster, lists] : members) {
        p.api.respond(proxy(cluster, "nodes"), {200, lists.first});
        p.api.respond(proxy(cluster, "pods"), {200, lists.second});
        // The same state as files, for --member-state (a kubectl export of each member).
        p.dir.write("members/" + cluster + "/nodes.json", lists.first);
        p.dir.write("members/" + cluster + "/pods.json", lists.second);
    }
    p.api.respond(proxy("cloud-east-2", "nodes"), {503, R"({"kind":"Status","message":"cluster unreachable"})"});
    for (const std::string other : {"cluster2", "cluster3", "member1", "member2"})
        p.api.respond(proxy(other, "nodes"), {404, R"({"kind":"Status","message":"the server could not find the requested resource"})"});
    const std::string policy = examples + "checkout-local-idc.yaml";

    const auto through = run(p.live({"lint", "-o", "json", "--explain", "--members-through-proxy", policy}));
    const auto from_files = run(p.live({"lint", "-o", "json", "--explain", "--member-state",
                                        (p.dir.path / "members").string(), policy}));
    const auto general = run(p.live({"lint", "-o", "json", "--explain", policy}));
    REQUIRE_MESSAGE(through.exit_code == from_files.exit_code, through.err);
    CHECK(results_of(through.out) == results_of(from_files.out));
    CHECK(results_of(through.out) != results_of(general.out)); // the members' nodes decide: the feature is on
    CHECK(through.out.find("karmada-scheduler-estimator") != std::string::npos);
    CHECK(through.err.find("note: member cluster cloud-east-2") != std::string::npos);
    CHECK(through.err.find("note: member cluster idc-east-1") == std::string::npos);
    // Both members' lists went through the proxy, with the kubeconfig's token.
    std::set<std::string> proxied;
    for (const auto& r : p.api.requests())
        if (r.path.find("/proxy/api/v1/") != std::string::npos) {
            proxied.insert(r.path);
            CHECK(r.authorization == "Bearer s3cret");
        }
    CHECK(proxied.contains(proxy("idc-east-1", "nodes")));
    CHECK(proxied.contains(proxy("idc-east-1", "pods")));

    // simulate reads the members the same way: the hybrid-cloud drill, its on-prem tier sized by cluster1's node.
    const std::vector<std::string> drill{"--scenario", examples + "drills/hybrid-cloud-overflow.yaml", "-o", "json",
                                         examples + "overflow-onprem-cloud.yaml"};
    auto sim_proxy = p.live({"simulate", "--members-through-proxy"});
    auto sim_files = p.live({"simulate", "--member-state", (p.dir.path / "members").string()});
    auto sim_general = p.live({"simulate"});
    for (auto* args : {&sim_proxy, &sim_files, &sim_general})
        args->insert(args->end(), drill.begin(), drill.end());
    const auto sim_through = run(sim_proxy);
    const auto sim_from_files = run(sim_files);
    REQUIRE_MESSAGE(sim_through.exit_code == sim_from_files.exit_code, sim_through.err);
    const auto steps = [](const std::string& out) { return kpw::doc::to_json(*json_of(out).find("steps")); };
    CHECK(steps(sim_through.out) == steps(sim_from_files.out));
    CHECK(steps(sim_through.out) != steps(run(sim_general).out));

    // The flag needs a server to read through, and is the other source of --member-state.
    const auto no_server = run({"lint", "--clusters", examples + "clusters.yaml", "--members-through-proxy", policy});
    CHECK(no_server.exit_code == 2);
    CHECK(no_server.err.find("--members-through-proxy reads through karmada-apiserver") != std::string::npos);
    const auto both = run(p.live({"lint", "--members-through-proxy", "--member-state", (p.dir.path / "members").string(),
                                  policy}));
    CHECK(both.exit_code == 2);
    CHECK(both.err.find("two sources of the same member state") != std::string::npos);
}
