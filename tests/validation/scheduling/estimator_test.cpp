// SPDX-License-Identifier: Apache-2.0
// The general estimator: summary path, resource-model path, and every "0" rule of spec section 4.
#include <doctest/doctest.h>

#include "model/quantity.hpp"
#include "scheduling/estimator.hpp"

using namespace kpw;
using scheduling::estimate_source;
using scheduling::general_estimate;

namespace {

model::quantity q(std::string_view s) { return *model::parse_quantity(s); }

model::resource_list resources(std::initializer_list<std::pair<const char*, const char*>> items)
{
    model::resource_list out;
    for (auto [k, v] : items)
        out[k] = q(v);
    return out;
}

model::workload requesting(model::replica_request request)
{
    model::workload w;
    w.api_version = "apps/v1";
    w.kind = "Deployment";
    w.replicas = 1;
    w.request = std::move(request);
    w.has_requirements = !w.request.empty();
    return w;
}

// The spec's summary-path example: 16 CPU / 64Gi / 110 pods, 9.5 CPU + 40Gi + 52 pods allocated.
model::cluster summary_example()
{
    model::cluster c;
    c.name = "member1";
    model::resource_summary s;
    s.allocatable = resources({{"cpu", "16"}, {"memory", "64Gi"}, {"pods", "110"}});
    s.allocated = resources({{"cpu", "9500m"}, {"memory", "40Gi"}, {"pods", "52"}});
    s.allocating = resources({{"cpu", "500m"}, {"memory", "2Gi"}, {"pods", "3"}});
    c.resource_summary = s;
    return c;
}

// karmada's default models: 9 grades, cpu [0,1) [1,2) [2,4) ... and memory [0,4Gi) [4Gi,16Gi) ...
std::vector<model::resource_model> default_models()
{
    const char* cpu[] = {"0", "1", "2", "4", "8", "16", "32", "64", "128"};
    const char* mem[] = {"0", "4Gi", "16Gi", "32Gi", "64Gi", "128Gi", "256Gi", "512Gi", "1Ti"};
    std::vector<model::resource_model> out;
    for (int g = 0; g < 9; ++g) {
        auto max_of = [&](const char* const* xs) { return g < 8 ? q(xs[g + 1]) : q("9223372036854775807"); };
        out.push_back({g, {{"cpu", q(cpu[g]), max_of(cpu)}, {"memory", q(mem[g]), max_of(mem)}}});
    }
    return out;
}

// The spec's model-path example: default models, 3 grade-2 nodes, 24 CPU / 96Gi in the summary.
model::cluster model_example()
{
    model::cluster c;
    c.name = "member2";
    c.resource_models = default_models();
    model::resource_summary s;
    s.allocatable = resources({{"cpu", "24"}, {"memory", "96Gi"}, {"pods", "330"}});
    s.allocated = resources({{"cpu", "6"}});
    s.allocatable_modelings = {{0, 0}, {1, 0}, {2, 3}};
    c.resource_summary = s;
    return c;
}

} // namespace

TEST_CASE("summary path worked example: cpu bounds at 12 below memory 22 and pods 55")
{
    auto e = general_estimate(summary_example(), requesting({{"cpu", 500}, {"memory", 1LL << 30}}));
    CHECK(e.replicas == 12);
    CHECK(e.source == estimate_source::summary);
}

TEST_CASE("cpu is compared in millicores")
{
    CHECK(general_estimate(summary_example(), requesting({{"cpu", 250}})).replicas == 24);
    CHECK(general_estimate(summary_example(), requesting({{"cpu", 6001}})).replicas == 0);
    CHECK(general_estimate(summary_example(), requesting({{"cpu", 1}})).replicas == 55); // pods bound
}

TEST_CASE("memory is compared in bytes")
{
    CHECK(general_estimate(summary_example(), requesting({{"memory", 2LL << 30}})).replicas == 11);
    CHECK(general_estimate(summary_example(), requesting({{"memory", 3LL << 30}})).replicas == 7);
}

TEST_CASE("pods left bound every estimate and no request at all gives pods left")
{
    model::workload none = requesting({});
    auto e = general_estimate(summary_example(), none);
    CHECK(e.replicas == 55);
    CHECK(e.source == estimate_source::pods_only);
    auto full = summary_example();
    full.resource_summary->allocated["pods"] = q("107");
    CHECK(general_estimate(full, none).replicas == 0);
}

TEST_CASE("pods left are subtracted in Go int64: a count past its range wraps as Go's does")
{
    // getAllowedPodNumber: (2^63-1) - (-1) wraps to -2^63, "<= 0", no pods; signed overflow in C++.
    auto c = summary_example();
    c.resource_summary->allocatable["pods"] = q("9223372036854775807");
    c.resource_summary->allocated["pods"] = q("-1");
    c.resource_summary->allocating.clear();
    CHECK(scheduling::allowed_pod_number(*c.resource_summary) == std::numeric_limits<std::int64_t>::min());
    auto e = general_estimate(c, requesting({{"cpu", 100}}));
    CHECK(e.replicas == 0);
    CHECK(e.source == estimate_source::no_pods_left);
    c.resource_summary->allocated["pods"] = q("1");
    // maxAvailableReplicas returns int32(2^63-2): Go keeps the low 32 bits, -2 (not MaxInt32).
    CHECK(general_estimate(c, requesting({})).replicas == -2);
}

TEST_CASE("an estimate past MaxInt32 is converted as Go's int32() does, not clamped")
{
    auto c = summary_example();
    c.resource_summary->allocatable["pods"] = q("5000000007");
    c.resource_summary->allocated.clear();
    c.resource_summary->allocating.clear();
    CHECK(general_estimate(c, requesting({})).replicas == 705032711); // 5000000007 - 2^32
    c.resource_summary->allocatable["pods"] = q("4294967295");
    CHECK(general_estimate(c, requesting({})).replicas == -1); // UnauthenticReplica: calAvailableReplicas skips it
}

TEST_CASE("missing pieces give 0: no summary, no allocatable pods, a requested resource not allocatable")
{
    auto c = summary_example();
    c.resource_summary.reset();
    CHECK(general_estimate(c, requesting({{"cpu", 100}})).replicas == 0);
    auto no_pods = summary_example();
    no_pods.resource_summary->allocatable.erase("pods");
    CHECK(general_estimate(no_pods, requesting({{"cpu", 100}})).replicas == 0);
    CHECK(general_estimate(summary_example(), requesting({{"cpu", 100}, {"nvidia.com/gpu", 1}})).replicas == 0);
}

TEST_CASE("no free capacity of a requested resource gives 0")
{
    auto c = summary_example();
    c.resource_summary->allocated["memory"] = q("62Gi");
    CHECK(general_estimate(c, requesting({{"memory", 1}})).replicas == 0);
}

TEST_CASE("model path worked example: 3 grade-2 nodes hold 2 each, 6, where the summary says 18")
{
    auto request = requesting({{"cpu", 1000}, {"memory", 2LL << 30}});
    auto e = general_estimate(model_example(), request);
    CHECK(e.replicas == 6);
    CHECK(e.source == estimate_source::resource_models);
    auto summary_only = model_example();
    summary_only.resource_models.clear();
    CHECK(general_estimate(summary_only, request).replicas == 18);
}

TEST_CASE("model path: a resource the models do not define gives 0, pods left still bound")
{
    CHECK(general_estimate(model_example(), requesting({{"cpu", 100}, {"nvidia.com/gpu", 1}})).replicas == 0);
    auto few_pods = model_example();
    few_pods.resource_summary->allocatable["pods"] = q("4");
    CHECK(general_estimate(few_pods, requesting({{"cpu", 1000}})).replicas == 4);
    // A node holds at most 110 pods: 3 grade-2 nodes for a 1m request.
    CHECK(general_estimate(model_example(), requesting({{"cpu", 1}})).replicas == 330);
}

TEST_CASE("model path falls back to the summary on a negative node count")
{
    auto c = model_example();
    c.resource_summary->allocatable_modelings[0].count = -1;
    auto e = general_estimate(c, requesting({{"cpu", 1000}, {"memory", 2LL << 30}}));
    CHECK(e.replicas == 18);
    CHECK(e.source == estimate_source::summary);
}

TEST_CASE("grade 0 nodes are modelled as 0 CPU and hold nothing")
{
    auto c = model_example();
    c.resource_summary->allocatable_modelings = {{0, 10}};
    CHECK(general_estimate(c, requesting({{"cpu", 100}})).replicas == 0);
}

namespace {

// The estimate with the grade-by-grade reading of the models of v1.16.0 and v1.17.1
// (settings::changes::model_node_simulation), or v1.18.2's model nodes.
scheduling::estimate estimate_as(const model::cluster& c, const model::workload& w, bool legacy)
{
    scheduling::resource_table table;
    for (const auto& [name, value] : w.request)
        table.intern(name);
    auto prepared = scheduling::prepare_cluster(c, table);
    auto request = scheduling::prepare_request(w, table);
    request.legacy_models = legacy;
    return general_estimate(prepared, request);
}

} // namespace

TEST_CASE("v1.16/v1.17 resource models: a node claim without a request wraps count x MaxInt64 (v1.18: 110 a node)")
{
    auto c = model_example();
    c.resource_summary->allocatable_modelings = {{0, 0}, {1, 0}, {2, 2}};
    model::workload claim_only = requesting({});
    claim_only.has_requirements = true; // a nodeSelector: ReplicaRequirements without a resource request
    // getNodeAvailableReplicas answers MaxInt64 for no request; 2 x MaxInt64 in int64 is -2, below the pods
    // left, and maxAvailableReplicas returns it as int32: a negative estimate.
    auto legacy = estimate_as(c, claim_only, true);
    CHECK(legacy.replicas == -2);
    CHECK(legacy.source == estimate_source::resource_models);
    CHECK(estimate_as(c, claim_only, false).replicas == 220);
    // Three nodes: 3 x MaxInt64 wraps to 2^63 - 3, above the pods left (330): the pods left.
    c.resource_summary->allocatable_modelings = {{0, 0}, {1, 0}, {2, 3}};
    CHECK(estimate_as(c, claim_only, true).replicas == 330);
}

TEST_CASE("v1.16/v1.17 resource models: counts by position from the first grade every request reaches")
{
    auto c = model_example();
    // 1 CPU and 2Gi reach grade 1 (cpu min 1, memory min 4Gi); the 3 nodes at position 2 hold
    // min(2000m / 1000m, 16Gi / 2Gi) = 2 each, as v1.18.2's model nodes do.
    auto request = requesting({{"cpu", 1000}, {"memory", 2LL << 30}});
    CHECK(estimate_as(c, request, true).replicas == 6);
    // A resource no model defines: the error sends Karmada to the summary (18), where v1.18.2's model
    // nodes hold none of it (0).
    c.resource_summary->allocatable["nvidia.com/gpu"] = q("4");
    auto gpu = requesting({{"cpu", 1000}, {"nvidia.com/gpu", 1}});
    CHECK(estimate_as(c, gpu, true).replicas == 4);
    CHECK(estimate_as(c, gpu, true).source == estimate_source::summary);
    CHECK(estimate_as(c, gpu, false).replicas == 0);
    // A request beyond every grade's minimum: 0.
    CHECK(estimate_as(c, requesting({{"cpu", 200000}}), true).replicas == 0);
}
