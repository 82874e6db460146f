// SPDX-License-Identifier: Apache-2.0
// MaxAvailableComponentSets (day2 §6.3), applicability and the component result (§6.2).
#include <doctest/doctest.h>

#include "doc/load.hpp"
#include "model/cluster_decode.hpp"
#include "model/workload_decode.hpp"
#include "scheduling/component_sets.hpp"
#include "scheduling/select.hpp"
#include "scheduling/strategy.hpp"

using namespace kpw;
using scheduling::set_bound;

namespace {

model::resource_list resources(std::initializer_list<std::pair<const char*, const char*>> list)
{
    model::resource_list out;
    for (const auto& [name, text] : list)
        out[name] = *model::parse_quantity(text);
    return out;
}

model::cluster cluster(model::resource_list allocatable, model::resource_list allocated = {})
{
    model::cluster c;
    c.name = "member1";
    c.resource_summary = model::resource_summary{std::move(allocatable), std::move(allocated), {}, {}};
    return c;
}

model::component component(std::string name, std::int32_t replicas,
                           std::vector<std::pair<std::string, std::string>> request)
{
    model::component c;
    c.name = std::move(name);
    c.replicas = replicas;
    c.has_requirements = true;
    c.request_text = std::move(request);
    return c;
}

// The §6.3 worked example's components: 1 × {cpu 1, memory 2Gi} and 3 × {cpu 2, memory 4Gi}.
std::vector<model::component> worked_components()
{
    return {component("jobmanager", 1, {{"cpu", "1"}, {"memory", "2Gi"}}),
            component("taskmanager", 3, {{"cpu", "2"}, {"memory", "4Gi"}})};
}

model::workload decode_workload(std::string_view text)
{
    auto docs = doc::load_yaml(text);
    REQUIRE(docs.ok());
    auto d = model::decode_workload(docs->front().root, "default");
    REQUIRE(d.errors.empty());
    return d.value;
}

settings::feature_gates gates(std::string_view flag)
{
    auto g = settings::parse_feature_gates(flag);
    REQUIRE(g.ok());
    return *g;
}

model::propagation_spec spread(std::string field, std::int64_t min, std::int64_t max)
{
    model::propagation_spec s;
    s.placement.spread_constraints.push_back({std::move(field), {}, max, min});
    return s;
}

} // namespace

TEST_CASE("the worked example of §6.3: 3 sets, bounded by cpu")
{
    auto c = cluster(resources({{"cpu", "32"}, {"memory", "128Gi"}, {"pods", "110"}}),
                     resources({{"cpu", "8"}, {"memory", "32Gi"}, {"pods", "20"}}));
    auto e = scheduling::max_available_component_sets(c, worked_components(), settings::feature_gates{});
    CHECK(e.sets == 3); // cpu 24000 / 7000; memory 96Gi / 14Gi = 6; pods 90 / 4 = 22
    CHECK(e.bound == set_bound::resource);
    CHECK(e.resource == "cpu");

    auto more_cpu = cluster(resources({{"cpu", "128"}, {"memory", "128Gi"}, {"pods", "110"}}),
                            resources({{"cpu", "8"}, {"memory", "32Gi"}, {"pods", "20"}}));
    auto m = scheduling::max_available_component_sets(more_cpu, worked_components(), settings::feature_gates{});
    CHECK(m.sets == 6);
    CHECK(m.resource == "memory");
}

TEST_CASE("end to end: the worked example's cluster and a PyTorchJob decoded from YAML hold 3 sets")
{
    auto docs = doc::load_yaml(R"(apiVersion: cluster.karmada.io/v1alpha1
kind: Cluster
metadata: {name: member1}
spec: {syncMode: Push}
status:
  resourceSummary:
    allocatable: {cpu: "32", memory: 128Gi, pods: "110"}
    allocated: {cpu: "8", memory: 32Gi, pods: "20"}
)");
    REQUIRE(docs.ok());
    auto c = model::decode_cluster(docs->front().root).value;
    auto job = decode_workload(R"(apiVersion: kubeflow.org/v1
kind: PyTorchJob
metadata: {name: train}
spec:
  pytorchReplicaSpecs:
    Master:
      replicas: 1
      template: {spec: {containers: [{name: pytorch, resources: {requests: {cpu: "1", memory: 2Gi}}}]}}
    Worker:
      replicas: 3
      template: {spec: {containers: [{name: pytorch, resources: {requests: {cpu: "2", memory: 4Gi}}}]}}
)");
    auto g = gates("MultiplePodTemplatesScheduling=true");
    auto w = scheduling::scheduled_form(job, g);
    CHECK(scheduling::max_available_component_sets(c, w.components, g).sets == 3);
    auto spec = spread("cluster", 1, 1);
    REQUIRE(scheduling::multi_template_applicable(spec, w, g));
    auto targets = scheduling::component_targets({"member1"}, w, spec, g);
    REQUIRE(targets.size() == 1);
    CHECK(targets[0].components == std::vector<model::component_replicas>{{"master", 1}, {"worker", 3}});

    // The same numbers as a FlinkDeployment: its memory comes back from Lua as a plain float, read in
    // thousandths against the allocatable's whole bytes, so no set fits (the doc's example assumes 2Gi).
    auto flink = decode_workload(R"(apiVersion: flink.apache.org/v1beta1
kind: FlinkDeployment
metadata: {name: f}
spec:
  jobManager: {resource: {cpu: 1, memory: 2Gi}}
  taskManager: {replicas: 3, resource: {cpu: 2, memory: 4Gi}}
)");
    auto f = scheduling::max_available_component_sets(c, flink.components, g);
    CHECK(f.sets == 0);
    CHECK(f.resource == "memory");
}

TEST_CASE("the notation trap: a request stored in thousandths against an allocatable in whole units")
{
    auto c = cluster(resources({{"cpu", "64"}, {"memory", "65776576Ki"}, {"pods", "110"}}));
    // 1.5G = 1500000000 bytes is not a multiple of 1024: written "1500M", read in thousandths.
    auto trap = component("worker", 2, {{"memory", "1500M"}});
    auto e = scheduling::max_available_component_sets(c, {trap}, settings::feature_gates{});
    CHECK(e.sets == 0);
    CHECK(e.bound == set_bound::resource);
    auto fine = component("worker", 2, {{"memory", "1536Mi"}});
    CHECK(scheduling::max_available_component_sets(c, {fine}, settings::feature_gates{}).sets == 20);
    // The other way round: an allocatable in decimal notation makes memory look 1000× larger.
    auto decimal = cluster(resources({{"memory", "64G"}, {"pods", "110"}}));
    CHECK(scheduling::max_available_component_sets(decimal, {fine}, settings::feature_gates{}).sets == 55);
}

TEST_CASE("extended resources count like cpu and memory; a missing one gives 0")
{
    auto gpu = component("worker", 2, {{"cpu", "4"}, {"nvidia.com/gpu", "2"}});
    auto with = cluster(resources({{"cpu", "64"}, {"nvidia.com/gpu", "8"}, {"pods", "110"}}),
                        resources({{"nvidia.com/gpu", "1"}}));
    auto e = scheduling::max_available_component_sets(with, {gpu}, settings::feature_gates{});
    CHECK(e.sets == 1); // 7 GPUs free, 4 per set
    CHECK(e.resource == "nvidia.com/gpu");
    auto without = cluster(resources({{"cpu", "64"}, {"pods", "110"}}));
    auto none = scheduling::max_available_component_sets(without, {gpu}, settings::feature_gates{});
    CHECK(none.sets == 0);
    CHECK(none.bound == set_bound::resource_exhausted);
    CHECK(none.resource == "nvidia.com/gpu");
}

TEST_CASE("no summary, no pods left and sets without pods")
{
    model::cluster bare;
    CHECK(scheduling::max_available_component_sets(bare, worked_components(), {}).bound == set_bound::no_summary);
    auto full = cluster(resources({{"cpu", "32"}, {"pods", "10"}}), resources({{"pods", "10"}}));
    CHECK(scheduling::max_available_component_sets(full, worked_components(), {}).bound == set_bound::no_pods_left);
    auto c = cluster(resources({{"pods", "37"}}));
    auto empty = scheduling::max_available_component_sets(c, {component("idle", 0, {})}, {});
    CHECK(empty.sets == 37); // podsPerSet 0: allowedPods
    auto pods_only = scheduling::max_available_component_sets(c, {component("a", 4, {})}, {});
    CHECK(pods_only.sets == 9);
    CHECK(pods_only.bound == set_bound::pods);
}

TEST_CASE("finding 10: a per-set requirement past int64 wraps as Go's does, not undefined behaviour")
{
    // perSetRequirement multiplies and sums in Go int64; the schedule fuzzer found (2^63-1)m x 4 overflowing.
    auto c = cluster(resources({{"cpu", "8"}, {"pods", "37"}}));
    auto once = scheduling::max_available_component_sets(c, {component("huge", 1, {{"cpu", "9223372036854775807m"}})}, {});
    CHECK(once.sets == 0); // no wrap: 8000m / (2^63-1)m
    CHECK(once.bound == set_bound::resource);
    auto wrapped = scheduling::max_available_component_sets(c, {component("huge", 4, {{"cpu", "9223372036854775807m"}})}, {});
    CHECK(wrapped.sets == 9); // (2^63-1) x 4 wraps to -4, which resourceBoundedSets skips: pods 37 / 4
    CHECK(wrapped.bound == set_bound::pods);
}

TEST_CASE("resource models: complete sets placed first-fit on the model nodes")
{
    auto c = cluster(resources({{"cpu", "64"}, {"memory", "256Gi"}, {"nvidia.com/gpu", "16"}, {"pods", "220"}}));
    model::resource_model big{1, {{"cpu", *model::parse_quantity("16"), *model::parse_quantity("32")},
                                  {"memory", *model::parse_quantity("64Gi"), *model::parse_quantity("128Gi")},
                                  {"nvidia.com/gpu", *model::parse_quantity("4"), *model::parse_quantity("8")}}};
    model::resource_model small{0, {{"cpu", {}, *model::parse_quantity("16")}}};
    c.resource_models = {big, small};
    c.resource_summary->allocatable_modelings = {{0, 3}, {1, 2}};
    std::vector<model::component> job{component("master", 1, {{"cpu", "4"}, {"nvidia.com/gpu", "1"}}),
                                      component("worker", 3, {{"cpu", "8"}, {"nvidia.com/gpu", "2"}})};
    // Summary: cpu 64000 / 28000 = 2, gpu 16000 / 7000 = 2. Models: the grade-0 nodes have no cpu; two
    // grade-1 nodes of 16 cpu and 4 GPUs hold one set, the second master takes the last capacity.
    auto e = scheduling::max_available_component_sets(c, job, settings::feature_gates{});
    CHECK(e.sets == 1);
    CHECK(e.bound == set_bound::resource_models);
    auto off = gates("CustomizedClusterResourceModeling=false");
    CHECK(scheduling::max_available_component_sets(c, job, off).sets == 2);
    c.resource_models.clear(); // the nodes cannot be built: the summary's answer stands
    CHECK(scheduling::max_available_component_sets(c, job, settings::feature_gates{}).sets == 2);
}

TEST_CASE("the §6.2 table: applicability, the scheduled form and the result")
{
    auto on = gates("MultiplePodTemplatesScheduling=true");
    settings::feature_gates off;
    model::workload w;
    w.replicas = 4;
    w.has_requirements = true;
    w.components = worked_components();
    auto applicable = spread("cluster", 1, 1);
    CHECK(scheduling::multi_template_applicable(applicable, w, on));
    CHECK_FALSE(scheduling::multi_template_applicable(applicable, w, off));
    CHECK_FALSE(scheduling::multi_template_applicable(model::propagation_spec{}, w, on));
    CHECK_FALSE(scheduling::multi_template_applicable(spread("cluster", 1, 2), w, on));
    CHECK_FALSE(scheduling::multi_template_applicable(spread("region", 1, 1), w, on));
    // Read as written (estimation.go): without the webhook's defaults (cluster, minGroups 1) it is not.
    CHECK_FALSE(scheduling::multi_template_applicable(spread("", 0, 1), w, on));

    auto scheduled = scheduling::scheduled_form(w, on);
    CHECK(scheduled.replicas == 0);
    CHECK_FALSE(scheduled.has_requirements);
    CHECK(scheduling::scheduled_form(w, off).components.empty());

    auto both = scheduling::component_targets({"a", "b"}, scheduled, applicable, on);
    REQUIRE(both.size() == 2);
    CHECK(both[1].components.size() == 2);
    CHECK(both[1].components[1] == model::component_replicas{"taskmanager", 3});
    CHECK(scheduling::component_targets({"a"}, scheduled, model::propagation_spec{}, on)[0].components.empty());
    auto single = scheduled;
    single.components.resize(1);
    CHECK(scheduling::component_targets({"a"}, single, applicable, on)[0].components.empty());
}

TEST_CASE("selection with need 1 swaps a first cluster without a set for the reserve with the most sets")
{
    // Sets per cluster feed candidate.available; the primary tier's cluster holds none, overflow ones do.
    model::cluster primary, small, large;
    primary.name = "primary";
    small.name = "overflow-small";
    large.name = "overflow-large";
    std::vector<scheduling::candidate> ordered{{&primary, 0, 0, 0}, {&large, 1, 3, 1}, {&small, 1, 1, 2}};
    scheduling::canonical_sort(ordered);
    model::placement p = spread("cluster", 1, 1).placement;
    p.replica_scheduling = model::replica_scheduling_strategy{"Divided", "Aggregated", {}};
    auto s = scheduling::select_clusters(ordered, p, scheduling::strategy_of(p), 1);
    REQUIRE(s.error.empty());
    REQUIRE(s.clusters.size() == 1);
    CHECK(s.clusters[0].cluster->name == "overflow-large");

    for (auto& c : ordered)
        c.available = 0;
    auto none = scheduling::select_clusters(ordered, p, scheduling::strategy_of(p), 1);
    CHECK(none.error.find("no enough resource when selecting 1 clusters") != std::string::npos);
}

namespace {

// Clusters that bound the worked example's job differently: cpu, memory, pods, no summary, models.
std::vector<model::cluster> mixed_clusters()
{
    std::vector<model::cluster> out;
    out.push_back(cluster(resources({{"cpu", "32"}, {"memory", "128Gi"}, {"pods", "110"}}),
                          resources({{"cpu", "8"}, {"memory", "32Gi"}, {"pods", "20"}})));
    out.push_back(cluster(resources({{"cpu", "128"}, {"memory", "40Gi"}, {"pods", "110"}})));
    out.push_back(cluster(resources({{"cpu", "128"}, {"memory", "512Gi"}, {"pods", "9"}})));
    out.emplace_back();
    auto modelled = cluster(resources({{"cpu", "128"}, {"memory", "512Gi"}, {"pods", "220"}}));
    modelled.resource_models = {
        {0, {{"cpu", *model::parse_quantity("4"), *model::parse_quantity("8")},
             {"memory", *model::parse_quantity("8Gi"), *model::parse_quantity("16Gi")}}}};
    modelled.resource_summary->allocatable_modelings = {{0, 4}};
    out.push_back(modelled);
    for (std::size_t i = 0; i < out.size(); ++i)
        out[i].name = "member" + std::to_string(i);
    return out;
}

} // namespace

TEST_CASE("the shared cache answers exactly what max_available_component_sets does, per cluster")
{
    auto cs = mixed_clusters();
    auto gates_on = gates("MultiplePodTemplatesScheduling=true");
    scheduling::component_set_cache cache;
    scheduling::job_sets sets(cache, cs, worked_components(), gates_on);
    for (std::size_t i = 0; i < cs.size(); ++i) {
        CAPTURE(i);
        auto direct = scheduling::max_available_component_sets(cs[i], worked_components(), gates_on);
        auto shared = sets.estimate(i);
        CHECK(shared.sets == direct.sets);
        CHECK(shared.bound == direct.bound);
        CHECK(shared.resource == direct.resource);
        CHECK(sets.sets(i) == direct.sets);
    }
    CHECK(sets.bound_by(0) == "cpu");
    CHECK(sets.bound_by(1) == "memory");
    CHECK(sets.bound_by(2) == "pods");
    CHECK(sets.bound_by(3) == "no resourceSummary");
    CHECK(sets.bound_by(4) == "resource models");
    CHECK(sets.sets(4) == 2); // the summary allows 18 (cpu 128000 / 7000); 4 model nodes of {4 cpu, 8Gi} hold 2
}

TEST_CASE("jobs of one component shape share the cache; names do not matter, replicas do")
{
    auto cs = mixed_clusters();
    auto g = gates("MultiplePodTemplatesScheduling=true");
    scheduling::component_set_cache cache;
    auto renamed = worked_components();
    renamed[0].name = "master";
    renamed[1].name = "worker";
    auto more = worked_components();
    more[1].replicas = 4;
    {
        scheduling::job_sets a(cache, cs, worked_components(), g);
        CHECK(a.sets(0) == 3);
    }
    scheduling::job_sets b(cache, cs, renamed, g);
    CHECK(cache.shapes() == 1);
    scheduling::job_sets c(cache, cs, more, g);
    CHECK(cache.shapes() == 2);
    CHECK(c.sets(0) == 2); // cpu 24000 / 9000
    CHECK(b.sets(0) == 3);

    // Another modeling gate prepares the clusters again: the models no longer bound member4.
    auto no_models = gates("MultiplePodTemplatesScheduling=true,CustomizedClusterResourceModeling=false");
    scheduling::job_sets d(cache, cs, worked_components(), no_models);
    CHECK(d.sets(4) == scheduling::max_available_component_sets(cs[4], worked_components(), no_models).sets);
    CHECK(d.sets(4) > 0);
}

TEST_CASE("past max_shapes a job keeps its own answers and the cache stops growing")
{
    auto cs = mixed_clusters();
    auto g = gates("MultiplePodTemplatesScheduling=true");
    scheduling::component_set_cache cache;
    for (std::size_t i = 0; i <= scheduling::component_set_cache::max_shapes; ++i) {
        auto job = worked_components();
        job[1].replicas = static_cast<std::int32_t>(1 + i);
        scheduling::job_sets s(cache, cs, job, g);
        CHECK(s.sets(0) == scheduling::max_available_component_sets(cs[0], job, g).sets);
    }
    CHECK(cache.shapes() == scheduling::component_set_cache::max_shapes);
}
