// SPDX-License-Identifier: Apache-2.0
// Scenario files: every step kind, every decode error with its position, and reference checks.
#include <doctest/doctest.h>

#include <fstream>
#include <sstream>

#include "doc/load.hpp"
#include "simulate/scenario_decode.hpp"

using namespace kpw;
using namespace kpw::simulate;

namespace {

scenario_decoding decode_text(std::string_view text)
{
    auto docs = doc::load_yaml(text);
    REQUIRE(docs.ok());
    REQUIRE(docs->size() == 1);
    return decode_scenario((*docs)[0].root);
}

// One step (YAML flow mapping) in a minimal scenario; the step is on line 4.
scenario_decoding one_step(std::string_view step)
{
    return decode_text("apiVersion: karmada-policy-webhook.io/v1alpha1\nkind: Scenario\nsteps:\n  - " +
                       std::string(step) + "\n");
}

std::string first_error(std::string_view step)
{
    auto d = one_step(step);
    REQUIRE_FALSE(d.errors.empty());
    return d.errors[0].message;
}

} // namespace

TEST_CASE("the drill file decodes every step kind in order")
{
    std::ifstream in(std::string(KPW_TEST_DATA) + "/scenarios/dr-drill.yaml");
    std::ostringstream s;
    s << in.rdbuf();
    auto d = decode_text(s.str());
    CHECK(d.errors.empty());
    const auto& steps = d.value.steps;
    CHECK(d.value.name == "dr-drill");
    REQUIRE(steps.size() == 13);
    CHECK(steps[0].name == "maintenance on idc-east-1");
    const auto& taint = std::get<taint_step>(steps[0].what);
    CHECK(taint.cluster.name == "idc-east-1");
    CHECK(taint.cluster.where == position{7, 22});
    CHECK(taint.change.taint == model::taint{"maintenance", "true", "NoExecute"});
    CHECK(std::get<taint_step>(steps[1].what).change.remove);
    CHECK(std::get<cluster_down_step>(steps[2].what).status == "False");
    CHECK(std::get<cluster_down_step>(steps[3].what).status == "Unknown");
    CHECK(std::get<cluster_up_step>(steps[4].what).cluster.name == "idc-east-1");
    CHECK(std::get<add_cluster_step>(steps[5].what).path == "extra-cluster.yaml");
    REQUIRE(std::get<add_cluster_step>(steps[6].what).clusters.size() == 1);
    CHECK(std::get<add_cluster_step>(steps[6].what).clusters[0].region == "us-west");
    CHECK(std::get<remove_cluster_step>(steps[7].what).cluster.name == "cloud-east-2");
    const auto& res = std::get<set_resources_step>(steps[8].what);
    CHECK(res.allocatable->at("cpu") == model::quantity::from_int(64));
    CHECK(res.allocated->size() == 2);
    CHECK_FALSE(res.allocating.has_value());
    const auto& scale = std::get<scale_step>(steps[9].what);
    CHECK(scale.workload.str() == "Deployment/default/nginx-overflow");
    CHECK(scale.replicas == 30);
    const auto& rebalance = std::get<rebalance_step>(steps[10].what);
    REQUIRE(rebalance.workloads.size() == 2);
    CHECK(rebalance.workloads[1].namespace_.empty());
    CHECK(std::get<apply_policy_step>(steps[11].what).path == "policies-v2.yaml");
    CHECK(std::get<wait_step>(steps[12].what).seconds == 5400);
}

TEST_CASE("step structure errors: unknown action, two actions, no action, not a mapping")
{
    auto unknown = one_step("{tiant: {cluster: a, taint: \"k:NoSchedule\"}}");
    REQUIRE(unknown.errors.size() == 2);
    CHECK(unknown.errors[0].message.starts_with("steps[0].tiant: unknown action \"tiant\" (one of: taint, untaint,"));
    CHECK(unknown.errors[0].where == position{4, 6});
    CHECK(unknown.errors[1].message.starts_with("steps[0]: no action in this step"));
    CHECK(first_error("{clusterUp: {cluster: a}, clusterDown: {cluster: a}}") ==
          "steps[0].clusterDown: two actions in one step: clusterUp and clusterDown");
    CHECK(first_error("just text").starts_with("steps[0]: a step is a mapping"));
    CHECK(first_error("{wait: 5m}") == "steps[0].wait: expected a mapping of the action's fields");
    CHECK(first_error("{clusterUp: {cluster: a, extra: 1}}") == "steps[0].clusterUp.extra: unknown field \"extra\"");
}

TEST_CASE("missing fields are Required at the action")
{
    CHECK(first_error("{clusterUp: {}}") == "steps[0].clusterUp.cluster: Required value");
    CHECK(first_error("{scale: {replicas: 2}}") == "steps[0].scale.workload: Required value");
    CHECK(first_error("{scale: {workload: Deployment/a/b}}") == "steps[0].scale.replicas: Required value");
    CHECK(first_error("{addCluster: {}}") ==
          "steps[0].addCluster: needs exactly one of path (a Cluster file) or cluster (an inline Cluster object)");
    CHECK(first_error("{setResources: {cluster: a}}") ==
          "steps[0].setResources: needs at least one of allocatable, allocated, allocating");
    CHECK(first_error("{rebalance: {workloads: []}}") ==
          "steps[0].rebalance.workloads: Required value: a WorkloadRebalancer lists at least one workload");
}

TEST_CASE("malformed workload references, taints, durations, replicas and quantities")
{
    auto bad_ref = one_step("{scale: {workload: nginx, replicas: 2}}");
    REQUIRE(bad_ref.errors.size() == 1);
    CHECK(bad_ref.errors[0].message == "steps[0].scale.workload: workload \"nginx\": expected KIND/NAMESPACE/NAME, or "
                                       "KIND/NAME for a cluster-scoped workload");
    CHECK(bad_ref.errors[0].where == position{4, 24});
    CHECK(first_error("{rebalance: {workloads: [a/b/c/d]}}").starts_with("steps[0].rebalance.workloads[0]: workload"));
    CHECK(first_error("{taint: {cluster: a, taint: \"k=v\"}}").starts_with(
        "steps[0].taint.taint: invalid taint spec: k=v, name part must consist of alphanumeric characters"));
    CHECK(first_error("{taint: {cluster: a, taint: \"k:Sometimes\"}}") ==
          "steps[0].taint.taint: invalid taint effect: Sometimes, unsupported taint effect");
    CHECK(first_error("{taint: {cluster: a, taint: \"k:NoSchedule-\"}}") ==
          "steps[0].taint.taint: \"k:NoSchedule-\" removes a taint: use an untaint step");
    CHECK(first_error("{wait: {duration: 10}}") == "steps[0].wait.duration: time: missing unit in duration \"10\"");
    CHECK(first_error("{wait: {duration: 2d}}") ==
          "steps[0].wait.duration: time: unknown unit \"d\" in duration \"2d\"");
    CHECK(first_error("{wait: {duration: 500ms}}") ==
          "steps[0].wait.duration: Invalid value: \"500ms\": must be at least 1s");
    CHECK(first_error("{scale: {workload: Deployment/a/b, replicas: -1}}") ==
          "steps[0].scale.replicas: Invalid value: -1: must be greater than or equal to 0 and fit in int32");
    CHECK(first_error("{clusterDown: {cluster: a, status: \"True\"}}") ==
          "steps[0].clusterDown.status: Unsupported value: \"True\": supported values: \"False\", \"Unknown\"");
    CHECK(first_error("{setResources: {cluster: a, allocatable: {cpu: lots}}}").starts_with(
        "steps[0].setResources.allocatable[cpu]: Invalid value: \"lots\": quantities must match"));
    CHECK(first_error("{addCluster: {cluster: {kind: ConfigMap}}}") ==
          "steps[0].addCluster.cluster: not a Cluster object (apiVersion cluster.karmada.io/v1alpha1, kind Cluster)");
}

TEST_CASE("an unquoted False status and untaint without the trailing dash are accepted")
{
    auto d = one_step("{clusterDown: {cluster: a, status: False}}");
    CHECK(d.errors.empty());
    CHECK(std::get<cluster_down_step>(d.value.steps[0].what).status == "False");
    auto u = one_step("{untaint: {cluster: a, taint: \"k:NoExecute\"}}");
    CHECK(u.errors.empty());
    CHECK(std::get<taint_step>(u.value.steps[0].what).change.remove);
}

TEST_CASE("the envelope: apiVersion, kind and a non-empty step list")
{
    auto d = decode_text("apiVersion: v1\nkind: Drill\nsteps: []\n");
    REQUIRE(d.errors.size() == 3);
    CHECK(d.errors[0].message ==
          "apiVersion: Unsupported value: \"v1\": supported values: \"karmada-policy-webhook.io/v1alpha1\"");
    CHECK(d.errors[1].message == "kind: Unsupported value: \"Drill\": supported values: \"Scenario\"");
    CHECK(d.errors[2].message == "steps: Required value: a scenario has at least one step");
    CHECK(decode_text("- a list\n").errors[0].message.starts_with("a scenario is a mapping"));
}

TEST_CASE("references: unknown clusters and workloads are errors; add and remove steps change what is known")
{
    auto d = decode_text("apiVersion: karmada-policy-webhook.io/v1alpha1\nkind: Scenario\nsteps:\n"
                         "  - clusterDown: {cluster: ghost}\n"
                         "  - addCluster: {cluster: {apiVersion: cluster.karmada.io/v1alpha1, kind: Cluster, "
                         "metadata: {name: ghost}}}\n"
                         "  - clusterUp: {cluster: ghost}\n"
                         "  - removeCluster: {cluster: m1}\n"
                         "  - name: too late\n    taint: {cluster: m1, taint: \"a:NoSchedule\"}\n"
                         "  - scale: {workload: Deployment/shop/web, replicas: 3}\n"
                         "  - rebalance: {workloads: [Deployment/shop/api]}\n");
    REQUIRE(d.errors.empty());
    const std::vector<std::string> clusters{"m1"};
    const std::vector<workload_ref> workloads{{"Deployment", "shop", "web", {}}};
    auto errs = validate_references(d.value, clusters, workloads);
    REQUIRE(errs.size() == 3);
    CHECK(errs[0].message == "steps[0].clusterDown.cluster: cluster ghost is not among the clusters at this step "
                             "(--clusters, addCluster and removeCluster steps)");
    CHECK(errs[0].where == position{4, 28});
    CHECK(errs[1].message.starts_with("steps[4] (too late).taint.cluster: cluster m1 is not among the clusters"));
    CHECK(errs[2].message == "steps[6].rebalance.workloads[0]: workload Deployment/shop/api is not among the workloads "
                             "(--workloads, --bindings)");
}
