// SPDX-License-Identifier: Apache-2.0
// karmada-scheduler-estimator's MaxAvailableReplicas, rule by rule (docs/estimator.md), and the combination
// with the general estimator (calAvailableReplicas).
#include <doctest/doctest.h>

#include "doc/load.hpp"
#include "model/member_state_decode.hpp"
#include "model/workload_decode.hpp"
#include "member_support.hpp"
#include "scheduling/accurate_estimator.hpp"
#include "scheduling/available.hpp"

using namespace kpw;
using kpw::scheduling::test::claim_of;
using kpw::scheduling::test::member;

namespace {

std::int32_t estimate(std::string_view yaml, const model::replica_request& request, const model::node_claim* claim = nullptr)
{
    auto m = member(yaml);
    return scheduling::estimate_accurate(scheduling::prepare_member(m), request, claim).replicas;
}

// A pod template's claim, decoded as the workload decoder decodes it.
const model::replica_request cpu500 = {{"cpu", 500}};

const std::string two_nodes = R"(
apiVersion: v1
kind: Node
metadata: {name: a, labels: {zone: z1, gen: "5"}}
status: {allocatable: {cpu: "2", memory: 8Gi, pods: "110"}}
---
apiVersion: v1
kind: Node
metadata: {name: b, labels: {zone: z2, gen: "3"}}
status: {allocatable: {cpu: "1", memory: 8Gi, pods: "110"}}
)";

} // namespace

TEST_CASE("per node floor(free / request), summed: fragmentation counts (2000m/500m + 1000m/500m = 6)")
{
    CHECK(estimate(two_nodes, cpu500) == 6);
    CHECK(estimate(two_nodes, {{"cpu", 700}}) == 3); // 2 + 1, where the total 3000m / 700m would say 4
}

TEST_CASE("no request: the pods each node still allows")
{
    CHECK(estimate(two_nodes, {}) == 220);
}

TEST_CASE("a member without nodes answers 0")
{
    CHECK(estimate("", cpu500) == 0);
}

TEST_CASE("pods bound to a node subtract their requests; terminated, unassigned and unknown-node pods do not")
{
    const std::string pods = two_nodes + R"(
---
apiVersion: v1
kind: Pod
metadata: {name: running, namespace: d, uid: u1}
spec: {nodeName: a, containers: [{name: c, resources: {requests: {cpu: "1"}}}]}
status: {phase: Running}
---
apiVersion: v1
kind: Pod
metadata: {name: done, namespace: d, uid: u2}
spec: {nodeName: a, containers: [{name: c, resources: {requests: {cpu: "1"}}}]}
status: {phase: Succeeded}
---
apiVersion: v1
kind: Pod
metadata: {name: failed, namespace: d, uid: u3}
spec: {nodeName: b, containers: [{name: c, resources: {requests: {cpu: "1"}}}]}
status: {phase: Failed}
---
apiVersion: v1
kind: Pod
metadata: {name: pending, namespace: d, uid: u4}
spec: {containers: [{name: c, resources: {requests: {cpu: "1"}}}]}
status: {phase: Pending}
---
apiVersion: v1
kind: Pod
metadata: {name: elsewhere, namespace: d, uid: u5}
spec: {nodeName: gone, containers: [{name: c, resources: {requests: {cpu: "1"}}}]}
)";
    CHECK(estimate(pods, cpu500) == 4); // a: 1000m left (2), b: 1000m (2)
}

TEST_CASE("init containers raise the maximum, overhead adds; limits are not read (the stored pod has requests)")
{
    const std::string pods = two_nodes + R"(
---
apiVersion: v1
kind: Pod
metadata: {name: p, namespace: d, uid: u1}
spec:
  nodeName: a
  containers: [{name: c, resources: {requests: {cpu: 200m}, limits: {cpu: "2"}}}]
  initContainers: [{name: i, resources: {requests: {cpu: 900m}}}]
  overhead: {cpu: 100m}
)";
    // a: 2000 - max(200, 900) - 100 = 1000m -> 2; b: 2
    CHECK(estimate(pods, cpu500) == 4);
}

TEST_CASE("the pod count: allocatable pods minus the pods on the node, never below 0")
{
    const std::string yaml = R"(
apiVersion: v1
kind: Node
metadata: {name: a}
status: {allocatable: {cpu: "64", pods: "2"}}
---
apiVersion: v1
kind: Pod
metadata: {name: p1, namespace: d, uid: u1}
spec: {nodeName: a}
---
apiVersion: v1
kind: Pod
metadata: {name: p2, namespace: d, uid: u2}
spec: {nodeName: a}
---
apiVersion: v1
kind: Pod
metadata: {name: p3, namespace: d, uid: u3}
spec: {nodeName: a}
)";
    CHECK(estimate(yaml, cpu500) == 0);
    auto m = member(yaml);
    auto e = scheduling::estimate_accurate(scheduling::prepare_member(m), cpu500, nullptr);
    CHECK(e.bound == "pods");
}

TEST_CASE("an extended resource the node lacks fits nothing; a non-scalar unknown name is ignored")
{
    CHECK(estimate(two_nodes, {{"cpu", 500}, {"example.com/gpu", 1}}) == 0);
    CHECK(estimate(two_nodes, {{"cpu", 500}, {"foo", 1}}) == 6);
    const std::string gpu = R"(
apiVersion: v1
kind: Node
metadata: {name: g}
status: {allocatable: {cpu: "8", pods: "110", example.com/gpu: "3"}}
)";
    CHECK(estimate(gpu, {{"cpu", 500}, {"example.com/gpu", 1}}) == 3);
}

TEST_CASE("taints: NoSchedule and NoExecute exclude a node unless tolerated; PreferNoSchedule does not")
{
    const std::string tainted = R"(
apiVersion: v1
kind: Node
metadata: {name: a}
spec: {taints: [{key: dedicated, value: gpu, effect: NoSchedule}]}
status: {allocatable: {cpu: "2", pods: "110"}}
---
apiVersion: v1
kind: Node
metadata: {name: b}
spec: {taints: [{key: soft, effect: PreferNoSchedule}]}
status: {allocatable: {cpu: "1", pods: "110"}}
)";
    CHECK(estimate(tainted, cpu500) == 2);
    auto tolerating = claim_of("tolerations: [{key: dedicated, operator: Equal, value: gpu, effect: NoSchedule}]");
    CHECK(estimate(tainted, cpu500, &tolerating) == 6);
    auto wrong_value = claim_of("tolerations: [{key: dedicated, value: cpu}]");
    CHECK(estimate(tainted, cpu500, &wrong_value) == 2);
    auto lt = claim_of("tolerations: [{key: dedicated, operator: Lt, value: '5'}]");
    CHECK(estimate(tainted, cpu500, &lt) == 2); // comparison operators are off
}

TEST_CASE("an unschedulable node counts only for a toleration of node.kubernetes.io/unschedulable")
{
    const std::string cordoned = R"(
apiVersion: v1
kind: Node
metadata: {name: a}
spec: {unschedulable: true}
status: {allocatable: {cpu: "2", pods: "110"}}
)";
    CHECK(estimate(cordoned, cpu500) == 0);
    auto exists = claim_of("tolerations: [{operator: Exists}]");
    CHECK(estimate(cordoned, cpu500, &exists) == 4);
    auto no_execute_only = claim_of("tolerations: [{operator: Exists, effect: NoExecute}]");
    CHECK(estimate(cordoned, cpu500, &no_execute_only) == 0);
}

TEST_CASE("nodeSelector: every pair must be a label of the node")
{
    auto z1 = claim_of("nodeSelector: {zone: z1}");
    CHECK(estimate(two_nodes, cpu500, &z1) == 4);
    auto none = claim_of("nodeSelector: {zone: z1, gen: '3'}");
    CHECK(estimate(two_nodes, cpu500, &none) == 0);
}

TEST_CASE("required node affinity: terms ORed, expressions ANDed, Gt/Lt as integers, matchFields by name")
{
    auto gt = claim_of(R"(affinity: {nodeAffinity: {requiredDuringSchedulingIgnoredDuringExecution:
  {nodeSelectorTerms: [{matchExpressions: [{key: gen, operator: Gt, values: ["4"]}]}]}}})");
    CHECK(estimate(two_nodes, cpu500, &gt) == 4);
    auto either = claim_of(R"(affinity: {nodeAffinity: {requiredDuringSchedulingIgnoredDuringExecution:
  {nodeSelectorTerms: [{matchExpressions: [{key: zone, operator: In, values: [z9]}]},
                       {matchFields: [{key: metadata.name, operator: In, values: [b]}]}]}}})");
    CHECK(estimate(two_nodes, cpu500, &either) == 2);
    auto not_in = claim_of(R"(affinity: {nodeAffinity: {requiredDuringSchedulingIgnoredDuringExecution:
  {nodeSelectorTerms: [{matchExpressions: [{key: zone, operator: NotIn, values: [z1]}, {key: gen, operator: Exists}]}]}}})");
    CHECK(estimate(two_nodes, cpu500, &not_in) == 2);
}

TEST_CASE("required node affinity: an empty term is dropped, a term that does not parse never matches")
{
    auto only_empty = claim_of(R"(affinity: {nodeAffinity: {requiredDuringSchedulingIgnoredDuringExecution:
  {nodeSelectorTerms: [{}]}}})");
    CHECK(estimate(two_nodes, cpu500, &only_empty) == 0);
    auto bad_then_good = claim_of(R"(affinity: {nodeAffinity: {requiredDuringSchedulingIgnoredDuringExecution:
  {nodeSelectorTerms: [{matchExpressions: [{key: zone, operator: In}]},
                       {matchExpressions: [{key: gen, operator: Lt, values: ["4"]}]}]}}})");
    CHECK(estimate(two_nodes, cpu500, &bad_then_good) == 2);
    auto gt_not_integer = claim_of(R"(affinity: {nodeAffinity: {requiredDuringSchedulingIgnoredDuringExecution:
  {nodeSelectorTerms: [{matchExpressions: [{key: gen, operator: Gt, values: ["4.5"]}]}]}}})");
    CHECK(estimate(two_nodes, cpu500, &gt_not_integer) == 0);
    auto bad_key = claim_of(R"(affinity: {nodeAffinity: {requiredDuringSchedulingIgnoredDuringExecution:
  {nodeSelectorTerms: [{matchExpressions: [{key: "bad key", operator: DoesNotExist}]}]}}})");
    CHECK(estimate(two_nodes, cpu500, &bad_key) == 0);
    auto field_two_values = claim_of(R"(affinity: {nodeAffinity: {requiredDuringSchedulingIgnoredDuringExecution:
  {nodeSelectorTerms: [{matchFields: [{key: metadata.name, operator: In, values: [a, b]}]}]}}})");
    CHECK(estimate(two_nodes, cpu500, &field_two_values) == 0);
}

TEST_CASE("Go int32: each node's answer is truncated to int32 and the sum wraps")
{
    const std::string huge = R"(
apiVersion: v1
kind: Node
metadata: {name: a}
status: {allocatable: {pods: "4294967297"}}
---
apiVersion: v1
kind: Node
metadata: {name: b}
status: {allocatable: {pods: "2147483647"}}
)";
    // int32(4294967297) = 1; 1 + MaxInt32 wraps to MinInt32.
    CHECK(estimate(huge, {}) == std::numeric_limits<std::int32_t>::min());
}

TEST_CASE("decode errors: a pod without uid, another kind, a duplicate node, at their positions")
{
    model::member_state m;
    m.cluster = "member1";
    std::vector<model::member_issue> issues;
    auto docs = doc::load_yaml(R"(apiVersion: v1
kind: Pod
metadata: {name: p, namespace: d}
spec: {nodeName: a}
---
apiVersion: v1
kind: ResourceQuota
metadata: {name: q}
---
apiVersion: v1
kind: List
items:
- {apiVersion: v1, kind: Node, metadata: {name: a}, status: {allocatable: {cpu: nope}}}
- {apiVersion: v1, kind: Node, metadata: {name: a}}
)");
    REQUIRE(docs);
    for (const auto& d : *docs)
        model::add_member_objects(m, d.root, issues);
    model::seal_member(m, issues);
    REQUIRE(issues.size() == 4);
    CHECK(issues[0].message == "Pod d/p: metadata.uid: Required value: karmada-scheduler-estimator's cache keys pods by uid");
    CHECK(issues[0].where.line == 3);
    CHECK(issues[1].message.starts_with("member state holds v1 Node and Pod objects only, not v1 ResourceQuota"));
    CHECK(issues[1].where.line == 6);
    CHECK(issues[2].message.starts_with("Node a: status.allocatable[cpu]: Invalid value: \"nope\""));
    CHECK(issues[2].where.line == 13);
    CHECK(issues[3].message.find("listed twice") != std::string::npos);
}

TEST_CASE("calAvailableReplicas: the smaller answer per cluster; -1 (UnauthenticReplica) is skipped")
{
    model::cluster c;
    c.name = "member1";
    model::resource_summary s;
    s.allocatable = {{"cpu", *model::parse_quantity("100")}, {"pods", *model::parse_quantity("110")}};
    c.resource_summary = s;
    std::vector<model::cluster> clusters{c};
    scheduling::snapshot snap(clusters);
    model::workload w;
    w.replicas = 3;
    w.request = cpu500;
    w.has_requirements = true;
    auto request = scheduling::prepare_request(w, snap.resources());

    // No member state: general only (100 CPU / 500m = 200, pods 110).
    CHECK(scheduling::estimate_available(snap, 0, request, false).replicas == 110);
    model::member_states members;
    members.members.push_back(member(two_nodes));
    snap.use_members(members);
    REQUIRE(snap.has_estimators());
    std::vector<scheduling::group_filter::pass> feasible{{0, 0}};
    CHECK(scheduling::estimator_use_of(snap, feasible).accurate);
    auto both = scheduling::estimate_available(snap, 0, request, true);
    CHECK(both.replicas == 6);
    CHECK(both.accurate_bound);
    CHECK(scheduling::available_bound_by(both, request, snap.resources()).starts_with("karmada-scheduler-estimator: cpu"));
    // The accurate answer asked but not used when the general one is smaller.
    w.request = {{"cpu", 10}};
    auto small = scheduling::prepare_request(w, snap.resources());
    auto general_wins = scheduling::estimate_available(snap, 0, small, true);
    CHECK(general_wins.replicas == 110);
    CHECK_FALSE(general_wins.accurate_bound);
}

TEST_CASE("one feasible cluster without an estimator drops the accurate answers of all")
{
    model::cluster a, b;
    a.name = "member1";
    b.name = "member2";
    std::vector<model::cluster> clusters{a, b};
    scheduling::snapshot snap(clusters);
    model::member_states members;
    members.members.push_back(member(two_nodes)); // member1 only
    snap.use_members(members);
    std::vector<scheduling::group_filter::pass> both{{0, 0}, {1, 0}}, first{{0, 0}};
    auto use = scheduling::estimator_use_of(snap, both);
    CHECK_FALSE(use.accurate);
    CHECK(use.missing == "member2");
    CHECK(scheduling::estimator_use_of(snap, first).accurate);
    model::member_states none;
    scheduling::snapshot plain(clusters);
    plain.use_members(none);
    CHECK_FALSE(plain.has_estimators());
    CHECK(scheduling::estimator_use_of(plain, both).missing.empty());
}
