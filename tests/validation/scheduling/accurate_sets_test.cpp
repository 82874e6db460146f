// SPDX-License-Identifier: Apache-2.0
// karmada-scheduler-estimator's MaxAvailableComponentSets (first-fit packing of complete sets on the
// member's nodes, docs/estimator.md) and its merge with the general estimator's sets (calAvailableReplicas).
#include <doctest/doctest.h>

#include <random>

#include "doc/load.hpp"
#include "model/components.hpp"
#include "model/member_state_decode.hpp"
#include "model/workload_decode.hpp"
#include "member_support.hpp"
#include "scheduling/accurate_estimator.hpp"
#include "scheduling/component_sets.hpp"
#include "scheduling/simulator.hpp"

using namespace kpw;
using kpw::scheduling::test::claim_of;
using kpw::scheduling::test::member;

namespace {

model::component component(std::string name, std::int32_t replicas, model::replica_request request,
                           std::optional<model::node_claim> claim = std::nullopt)
{
    model::component c;
    c.name = std::move(name);
    c.replicas = replicas;
    c.has_requirements = true;
    for (const auto& [res, units] : request)
        c.request_text.emplace_back(res, model::canonical_text(model::resource_list_quantity(res, units)));
    c.request = std::move(request);
    c.claim = std::move(claim);
    return c;
}

scheduling::accurate_estimate sets(std::string_view yaml, const std::vector<model::component>& components)
{
    auto m = member(yaml);
    return scheduling::estimate_accurate_sets(scheduling::prepare_member(m), components);
}

// The committed case estimator-component-sets: a master and two workers of 1 CPU.
const std::vector<model::component> pytorch = {component("master", 1, {{"cpu", 1000}}),
                                               component("worker", 2, {{"cpu", 1000}})};

std::string node(std::string_view name, std::string_view cpu, std::string_view extra = "")
{
    return "---\napiVersion: v1\nkind: Node\nmetadata: {name: " + std::string(name) +
           "}\nstatus: {allocatable: {cpu: \"" + std::string(cpu) + "\", memory: 64Gi, pods: \"110\"" +
           std::string(extra) + "}}\n";
}

} // namespace

TEST_CASE("a set must fit whole: one node of 2 CPUs holds no set of 3 one-CPU pods (the case's 0)")
{
    auto e = sets(node("n0", "2"), pytorch);
    CHECK(e.replicas == 0);
    CHECK(e.failure.empty());
    CHECK(e.bound == "cpu");
    CHECK(e.component == "worker");
    CHECK(scheduling::describe(e) == "karmada-scheduler-estimator: cpu of component worker (1 of 1 node(s) match)");
    // Replicas of one component spread over nodes: 2 + 2 CPUs hold one set (master and a worker on n0,
    // the other worker on n1), not 4 / 3 rounded down twice.
    CHECK(sets(node("n0", "2") + node("n1", "2"), pytorch).replicas == 1);
    CHECK(sets(node("n0", "3") + node("n1", "3"), pytorch).replicas == 2);
}

TEST_CASE("first fit in snapshot order and component order, not the best packing")
{
    // Nodes of 2, 1 and 3 CPUs; a set is one pod of 1 CPU (b) and one of 2 CPUs (a). In the order b, a:
    // set 1 puts b on n0 and a on n2; set 2 puts b on n0 and finds 2 CPUs nowhere (n1 1, n2 1): 1 set,
    // where b on n1, a on n0 and both on n2 hold 2. In the order a, b the packing finds those 2.
    std::string nodes = node("n0", "2") + node("n1", "1") + node("n2", "3");
    std::vector<model::component> small_first{component("b", 1, {{"cpu", 1000}}), component("a", 1, {{"cpu", 2000}})};
    std::vector<model::component> big_first{component("a", 1, {{"cpu", 2000}}), component("b", 1, {{"cpu", 1000}})};
    CHECK(sets(nodes, small_first).replicas == 1);
    CHECK(sets(nodes, big_first).replicas == 2);
}

TEST_CASE("the snapshot's node order: name order, one node of each zone in turn (nodeTree.list)")
{
    auto m = member(R"(apiVersion: v1
kind: List
items:
- {apiVersion: v1, kind: Node, metadata: {name: d, labels: {topology.kubernetes.io/zone: z2}}}
- {apiVersion: v1, kind: Node, metadata: {name: c, labels: {topology.kubernetes.io/zone: z1}}}
- {apiVersion: v1, kind: Node, metadata: {name: b, labels: {topology.kubernetes.io/zone: z1}}}
- {apiVersion: v1, kind: Node, metadata: {name: a, labels: {topology.kubernetes.io/zone: z2, failure-domain.beta.kubernetes.io/zone: z1}}}
- {apiVersion: v1, kind: Node, metadata: {name: e}}
)");
    auto p = scheduling::prepare_member(m);
    std::vector<std::string> names;
    for (auto i : p.snapshot_order)
        names.push_back(m.nodes[i].name);
    // Zones first seen in name order: z1 (a, by its beta label; b; c), z2 (d), "" (e).
    CHECK(names == std::vector<std::string>{"a", "d", "e", "b", "c"});
}

TEST_CASE("each component's own node claim; cordoned and tainted nodes only when tolerated")
{
    std::string nodes = R"(apiVersion: v1
kind: Node
metadata: {name: cpu-1}
status: {allocatable: {cpu: "8", memory: 64Gi, pods: "110"}}
---
apiVersion: v1
kind: Node
metadata: {name: gpu-1, labels: {gpu: "true"}}
spec: {taints: [{key: gpu, value: "true", effect: NoSchedule}]}
status: {allocatable: {cpu: "8", memory: 64Gi, pods: "110", nvidia.com/gpu: "4"}}
---
apiVersion: v1
kind: Node
metadata: {name: gpu-2, labels: {gpu: "true"}}
spec: {unschedulable: true}
status: {allocatable: {cpu: "8", memory: 64Gi, pods: "110", nvidia.com/gpu: "4"}}
)";
    auto on_gpu = claim_of(R"({nodeSelector: {gpu: "true"}, tolerations: [{key: gpu, operator: Exists}]})");
    std::vector<model::component> job{component("driver", 1, {{"cpu", 1000}}),
                                      component("trainer", 2, {{"cpu", 1000}, {"nvidia.com/gpu", 1}}, on_gpu)};
    auto e = sets(nodes, job);
    // Only gpu-1 takes trainers (gpu-2 is cordoned, cpu-1 has no gpu label): 4 GPUs, 2 per set.
    CHECK(e.replicas == 2);
    CHECK(e.bound == "nvidia.com/gpu");
    CHECK(e.component == "trainer");
    CHECK(e.matching == 1);
    CHECK(e.first_excluded == "cpu-1: node affinity/selector");
    // Without the claim the trainers find no node with a GPU they may use: gpu-1's taint is not tolerated.
    job[1].claim.reset();
    CHECK(sets(nodes, job).replicas == 0);
    // A claim no node matches.
    job[1].claim = claim_of(R"({nodeSelector: {gpu: "h100"}})");
    CHECK(scheduling::describe(sets(nodes, job)) ==
          "karmada-scheduler-estimator: no node matches component trainer (excluded cpu-1: node affinity/selector)");
    // Tolerating the cordon (node.kubernetes.io/unschedulable) opens gpu-2 as well.
    job[1].claim = claim_of(R"({nodeSelector: {gpu: "true"}, tolerations: [{operator: Exists}]})");
    CHECK(sets(nodes, job).replicas == 4);
}

TEST_CASE("pods already on a node count, and so does its pod limit")
{
    std::string state = R"(apiVersion: v1
kind: Node
metadata: {name: n0}
status: {allocatable: {cpu: "4", memory: 64Gi, pods: "4"}}
---
apiVersion: v1
kind: Pod
metadata: {name: p, namespace: d, uid: u1}
spec:
  nodeName: n0
  containers: [{name: c, resources: {requests: {cpu: "1"}}}]
status: {phase: Running}
)";
    // 3 CPUs and 3 pods left: one set of 3 pods.
    CHECK(sets(state, pytorch).replicas == 1);
    std::vector<model::component> tiny{component("a", 1, {}), component("b", 1, {})};
    auto e = sets(state, tiny);
    CHECK(e.replicas == 1); // 3 pods left, 2 per set
    CHECK(e.bound == "pods");
    CHECK(scheduling::describe(e) == "karmada-scheduler-estimator: pod count of component b (1 of 1 node(s) match)");
}

TEST_CASE("a member without nodes answers 0; a loop that only stops at MaxInt32 is a failed call")
{
    auto none = sets("", pytorch);
    CHECK(none.replicas == 0);
    CHECK(none.failure.empty());
    std::vector<model::component> empty{component("a", 0, {{"cpu", 1000}}), component("b", 0, {})};
    auto e = sets(node("n0", "2"), empty);
    CHECK_FALSE(e.failure.empty());
    CHECK(e.failure.find("every component has 0 replicas") != std::string::npos);
    // A component of 0 replicas next to others changes nothing.
    auto with_zero = pytorch;
    with_zero.push_back(component("evaluator", 0, {{"cpu", 64000}}));
    CHECK(sets(node("n0", "3") + node("n1", "3"), with_zero).replicas == 2);
    // Many sets are counted without packing each (one node of 100,000 pods and CPUs).
    auto big = sets(node("n0", "100000", ", pods: \"100000\""), pytorch);
    CHECK(big.replicas == 33333);
}

namespace {

// A literal first-fit packing (scheduling_simulator_components.go) on small integers, to hold the counted
// steps of estimate_accurate_sets to.
struct ref_node {
    std::int64_t cpu, memory, pods, gpu;
    bool has_gpu;
};
struct ref_part {
    std::int32_t replicas;
    std::int64_t cpu, memory, gpu;
};

std::int32_t reference(std::vector<ref_node> nodes, const std::vector<ref_part>& parts)
{
    std::int32_t sets = 0;
    for (;;) {
        for (const auto& p : parts) {
            std::int64_t remaining = p.replicas;
            for (auto& n : nodes) {
                std::int64_t fit = n.pods;
                if (p.cpu > 0)
                    fit = std::min(fit, n.cpu / p.cpu);
                if (p.memory > 0)
                    fit = std::min(fit, n.memory / p.memory);
                if (p.gpu > 0)
                    fit = std::min(fit, n.has_gpu ? n.gpu / p.gpu : 0);
                if (fit == 0)
                    continue;
                fit = std::min(fit, remaining);
                n.cpu -= p.cpu * fit;
                n.memory -= p.memory * fit;
                n.pods -= fit;
                if (n.has_gpu)
                    n.gpu -= p.gpu * fit;
                remaining -= fit;
                if (remaining == 0)
                    break;
            }
            if (remaining != 0)
                return sets;
        }
        ++sets;
    }
}

} // namespace

TEST_CASE("counted repeats agree with the literal packing (random members and jobs)")
{
    std::mt19937_64 rng(20261205);
    auto pick = [&](std::initializer_list<std::int64_t> values) {
        return *(values.begin() + static_cast<std::ptrdiff_t>(rng() % values.size()));
    };
    for (int round = 0; round < 400; ++round) {
        model::member_state m;
        m.cluster = "member1";
        std::vector<ref_node> ref_nodes;
        std::size_t count = 1 + rng() % 6;
        for (std::size_t i = 0; i < count; ++i) {
            ref_node r{pick({0, 500, 1000, 2000, 3500, 8000}), pick({0, 1, 4, 16}) << 30, pick({0, 1, 3, 10, 110}),
                       pick({0, 1, 2, 4}), rng() % 2 == 0};
            model::node n;
            n.name = "n" + std::to_string(i);
            n.allocatable = {{"cpu", r.cpu}, {"memory", r.memory}};
            if (r.has_gpu)
                n.allocatable.emplace_back("nvidia.com/gpu", r.gpu);
            n.allocatable.emplace_back("pods", r.pods);
            m.nodes.push_back(std::move(n));
            ref_nodes.push_back(r);
        }
        std::vector<model::component> job;
        std::vector<ref_part> ref_parts;
        std::size_t parts = 1 + rng() % 3;
        for (std::size_t i = 0; i < parts; ++i) {
            ref_part p{static_cast<std::int32_t>(pick({1, 1, 2, 3, 5})), pick({0, 250, 500, 1000}),
                       pick({0, 0, 1}) << 30, pick({0, 0, 0, 1})};
            model::replica_request request;
            if (p.cpu > 0)
                request.emplace_back("cpu", p.cpu);
            if (p.memory > 0)
                request.emplace_back("memory", p.memory);
            if (p.gpu > 0)
                request.emplace_back("nvidia.com/gpu", p.gpu);
            job.push_back(component("c" + std::to_string(i), p.replicas, request));
            ref_parts.push_back(p);
        }
        auto e = scheduling::estimate_accurate_sets(scheduling::prepare_member(m), job);
        INFO("round " << round);
        CHECK(e.failure.empty());
        CHECK(e.replicas == reference(ref_nodes, ref_parts));
    }
}

TEST_CASE("calAvailableReplicas for component sets: the smaller of both estimators, explained")
{
    model::cluster c;
    c.name = "member1";
    model::resource_summary s;
    s.allocatable = {{"cpu", *model::parse_quantity("100")}, {"pods", *model::parse_quantity("1000")}};
    c.resource_summary = s;
    std::vector<model::cluster> clusters{c};
    scheduling::snapshot snap(clusters);
    model::member_states members;
    auto m = member(node("n0", "2"));
    members.members.push_back(m);
    snap.use_members(members);
    auto gates = *settings::parse_feature_gates("MultiplePodTemplatesScheduling=true");
    scheduling::component_set_cache cache;
    scheduling::job_sets js(cache, snap.clusters(), pytorch, gates, &snap);
    CHECK(js.sets(0) == 33); // the general estimator: 100 CPUs / 3
    REQUIRE(js.accurate(0) != nullptr);
    CHECK(js.accurate(0)->replicas == 0);
    CHECK(js.available(0, false) == 33);
    CHECK(js.available(0, true) == 0);
    CHECK(js.bound_by(0, false) == "cpu");
    CHECK(js.bound_by(0, true) == "karmada-scheduler-estimator: cpu of component worker (1 of 1 node(s) match)");
    // A bigger node (110 pods: 36 sets): the general estimator binds, and says what the other answered.
    model::member_states roomy;
    roomy.members.push_back(member(node("n0", "1000")));
    scheduling::snapshot snap2(clusters);
    snap2.use_members(roomy);
    scheduling::job_sets js2(cache, snap2.clusters(), pytorch, gates, &snap2);
    CHECK(js2.available(0, true) == 33);
    CHECK(js2.bound_by(0, true) == "general estimator: cpu (karmada-scheduler-estimator: 36)");
    // Without member state there is no accurate answer.
    scheduling::snapshot plain(clusters);
    scheduling::job_sets js3(cache, plain.clusters(), pytorch, gates, &plain);
    CHECK(js3.accurate(0) == nullptr);
    CHECK(js3.available(0, true) == 33);
}

namespace {

// m1 and m2, each with a resource summary of 100 CPUs and 1000 pods; placement on one cluster.
struct two_members {
    std::vector<model::cluster> clusters;
    model::propagation_spec spec;
    model::workload job;
    settings::feature_gates gates = *settings::parse_feature_gates("MultiplePodTemplatesScheduling=true");

    two_members()
    {
        for (const char* name : {"m1", "m2"}) {
            model::cluster c;
            c.name = name;
            c.ready = "True";
            c.api_enablements.push_back({"kubeflow.org/v1", {"PyTorchJob"}});
            model::resource_summary s;
            s.allocatable = {{"cpu", *model::parse_quantity("100")}, {"pods", *model::parse_quantity("1000")}};
            c.resource_summary = s;
            clusters.push_back(std::move(c));
        }
        spec.placement.spread_constraints.push_back({"cluster", {}, 1, 1});
        job.api_version = "kubeflow.org/v1";
        job.kind = "PyTorchJob";
        job.namespace_ = "default";
        job.name = "train";
        job.uid = "u";
        job.components = pytorch;
    }

    scheduling::decision run(const model::member_states& members)
    {
        scheduling::snapshot snap(clusters);
        snap.use_members(members);
        scheduling::options opts;
        opts.gates = &gates;
        opts.explain = true;
        return scheduling::schedule(spec, job, snap, opts);
    }
};

model::member_state named(std::string cluster, std::string_view yaml)
{
    auto m = member(yaml);
    m.cluster = std::move(cluster);
    return m;
}

} // namespace

TEST_CASE("schedule: karmada-scheduler-estimator's sets choose the cluster, and --explain says which bound")
{
    two_members t;
    model::member_states members;
    members.members.push_back(named("m1", node("n0", "2")));  // no set
    members.members.push_back(named("m2", node("n0", "30"))); // 10 sets
    auto d = t.run(members);
    REQUIRE(d.scheduled);
    REQUIRE(d.clusters.size() == 1);
    CHECK(d.clusters[0].name == "m2");
    CHECK(d.message.find("complete component sets per cluster: the smaller of the general estimator") !=
          std::string::npos);
    REQUIRE(d.groups.size() == 1);
    const auto& rows = d.groups[0].considered;
    REQUIRE(rows.size() == 2);
    CHECK(rows[0].available == 0);
    CHECK(rows[0].bound_by == "karmada-scheduler-estimator: cpu of component worker (1 of 1 node(s) match)");
    CHECK(rows[1].available == 10);
    CHECK(rows[1].bound_by.starts_with("karmada-scheduler-estimator: cpu of component "));
}

TEST_CASE("schedule: a member without state, or a call that fails, leaves the general estimator's sets")
{
    two_members t;
    model::member_states one;
    one.members.push_back(named("m1", node("n0", "2")));
    auto d = t.run(one); // m2 has no estimator: every accurate answer is dropped
    REQUIRE(d.scheduled);
    CHECK(d.message.find("cluster m2 has no karmada-scheduler-estimator") != std::string::npos);
    CHECK(d.groups[0].considered[0].available == 33);
    CHECK(d.groups[0].considered[0].bound_by == "cpu");

    // Every component of 0 replicas: m1's estimator never finishes its packing, and the call fails.
    t.job.components = {component("master", 0, {{"cpu", 1000}}), component("worker", 0, {{"cpu", 1000}})};
    model::member_states both;
    both.members.push_back(named("m1", node("n0", "2")));
    both.members.push_back(named("m2", node("n0", "2")));
    auto e = t.run(both);
    REQUIRE(e.scheduled);
    CHECK(e.message.find("the call to m1's karmada-scheduler-estimator fails") != std::string::npos);
}
