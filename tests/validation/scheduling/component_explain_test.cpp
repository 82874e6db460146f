// SPDX-License-Identifier: Apache-2.0
// Explain rows of a multi-component job scheduled as one (day2-semantics §6.2): available = complete
// component sets and what bounds them, the one cluster that holds the job, why the others were not chosen.
#include <doctest/doctest.h>

#include "explain_rows.hpp"
#include "fixtures.hpp"
#include "scheduling/component_sets.hpp"
#include "scheduling/filter_cache.hpp"

using namespace kpw;
using namespace kpw::scheduling;
using namespace kpw::scheduling::test;

namespace {

model::component part(std::string name, std::int32_t replicas, const char* cpu, const char* memory, const char* gpus)
{
    model::component c;
    c.name = std::move(name);
    c.replicas = replicas;
    c.has_requirements = true;
    c.request_text = {{"cpu", cpu}, {"memory", memory}, {"nvidia.com/gpu", gpus}};
    return c;
}

// A PyTorchJob as Karmada's interpreter reads it: master 1 × {8 cpu, 32Gi, 1 GPU}, worker 4 × {16 cpu,
// 64Gi, 2 GPUs}. One complete set: 5 pods, 72 cpu, 288Gi, 9 GPUs.
model::workload pytorch_job()
{
    model::workload w;
    w.api_version = "kubeflow.org/v1";
    w.kind = "PyTorchJob";
    w.namespace_ = "ml";
    w.name = "bert";
    w.uid = "u-1";
    w.components = {part("master", 1, "8", "32Gi", "1"), part("worker", 4, "16", "64Gi", "2")};
    return w;
}

model::cluster node(std::string name, const char* memory, std::int64_t gpus, std::int64_t pods)
{
    model::cluster c;
    c.name = std::move(name);
    c.api_enablements = {{"kubeflow.org/v1", {"PyTorchJob"}}};
    model::resource_summary s;
    s.allocatable = {{"cpu", model::quantity::from_int(512)},
                     {"memory", *model::parse_quantity(memory)},
                     {"pods", model::quantity::from_int(pods)}};
    if (gpus > 0)
        s.allocatable["nvidia.com/gpu"] = model::quantity::from_int(gpus);
    c.resource_summary = s;
    return c;
}

// gpu-bound 2 sets (20 GPUs / 9), memory-bound 1 (400Gi / 288Gi), no-gpu 0, pods-bound 3 (17 pods / 5),
// pods-bound-2 3 (15 / 5).
std::vector<model::cluster> fleet()
{
    return {node("gpu-bound", "4Ti", 20, 110), node("memory-bound", "400Gi", 64, 110), node("no-gpu", "4Ti", 0, 110),
            node("pods-bound", "4Ti", 64, 17), node("pods-bound-2", "4Ti", 64, 15)};
}

model::propagation_spec one_cluster(model::propagation_spec spec)
{
    spec.placement.spread_constraints = {{"cluster", "", 1, 1}};
    return spec;
}

const settings::feature_gates& gate_on()
{
    static const auto g = *settings::parse_feature_gates("MultiplePodTemplatesScheduling=true");
    return g;
}

options explaining()
{
    options o;
    o.explain = true;
    o.gates = &gate_on();
    return o;
}

constexpr const char* kept = "not chosen: multi-template scheduling keeps the job on one cluster (";

} // namespace

TEST_CASE("each row of a PyTorchJob kept together counts complete sets and names the resource that bounds them")
{
    auto cs = fleet();
    auto d = schedule(one_cluster(aggregated_spec()), pytorch_job(), snapshot(cs), explaining());
    REQUIRE(d.scheduled);
    const auto& g = d.groups.at(0);
    REQUIRE(g.considered.size() == 5);
    struct expected {
        const char* name;
        std::int32_t sets;
        const char* bound;
    };
    for (auto e : {expected{"gpu-bound", 2, "nvidia.com/gpu"}, expected{"memory-bound", 1, "memory"},
                   expected{"no-gpu", 0, "nvidia.com/gpu"}, expected{"pods-bound", 3, "pods"},
                   expected{"pods-bound-2", 3, "pods"}}) {
        CAPTURE(e.name);
        const auto& r = row(g, e.name);
        CHECK(r.passed);
        CHECK(r.component_sets);
        CHECK(r.available == e.sets);
        CHECK(r.bound_by == e.bound);
        CHECK(r.replicas == 0); // nothing is divided: the cluster gets the components
    }
}

TEST_CASE("resource models and a missing summary are named as the set estimator's bounds")
{
    auto modelled = node("modelled", "4Ti", 64, 110);
    modelled.resource_models = {{0,
                                 {{"cpu", *model::parse_quantity("16"), *model::parse_quantity("32")},
                                  {"memory", *model::parse_quantity("64Gi"), *model::parse_quantity("128Gi")},
                                  {"nvidia.com/gpu", *model::parse_quantity("2"), *model::parse_quantity("4")}}}};
    modelled.resource_summary->allocatable_modelings = {{0, 5}}; // 5 nodes × {16 cpu, 64Gi, 2 GPUs}: one set
    auto bare = node("bare", "4Ti", 64, 110);
    bare.resource_summary.reset();
    std::vector<model::cluster> cs{modelled, bare};
    auto d = schedule(one_cluster(aggregated_spec()), pytorch_job(), snapshot(cs), explaining());
    const auto& g = d.groups.at(0);
    CHECK(row(g, "modelled").available == 1);
    CHECK(row(g, "modelled").bound_by == "resource models");
    CHECK(row(g, "bare").available == 0);
    CHECK(row(g, "bare").bound_by == "no resourceSummary");
}

TEST_CASE("the chosen cluster holds the whole job; the others say what put it first")
{
    auto cs = fleet();
    auto d = schedule(one_cluster(aggregated_spec()), pytorch_job(), snapshot(cs), explaining());
    REQUIRE(d.clusters.size() == 1);
    CHECK(d.clusters[0].name == "pods-bound");
    const auto& g = d.groups.at(0);
    const auto& chosen = row(g, "pods-bound");
    CHECK(chosen.holds_job);
    CHECK(chosen.left_out.empty());
    CHECK_FALSE(row(g, "gpu-bound").holds_job);
    CHECK(row(g, "gpu-bound").left_out ==
          std::string(kept) + "pods-bound was picked first: more complete sets, 3 > 2)");
    CHECK(row(g, "no-gpu").left_out == std::string(kept) + "pods-bound was picked first: more complete sets, 3 > 0)");
    CHECK(row(g, "pods-bound-2").left_out ==
          std::string(kept) + "pods-bound was picked first: as many complete sets, 3, and its name sorts first)");
}

TEST_CASE("a first cluster without a set is swapped for the reserve with the most sets, and the rows say so")
{
    auto cs = fleet();
    auto spec = one_cluster(aggregated_spec());
    spec.placement.cluster_affinities = {
        term("primary", {"no-gpu"}, {overflow("burst", {"gpu-bound", "memory-bound", "pods-bound-2"})})};
    cs[4].resource_summary->allocatable["pods"] = model::quantity::from_int(10); // pods-bound-2: 2 sets
    auto d = schedule(spec, pytorch_job(), snapshot(cs), explaining());
    REQUIRE(d.scheduled);
    REQUIRE(d.clusters.size() == 1);
    CHECK(d.clusters[0].name == "gpu-bound");
    CHECK(d.clusters[0].tier == "burst");
    const auto& g = d.groups.at(0);
    CHECK(row(g, "gpu-bound").holds_job);
    CHECK(row(g, "gpu-bound").left_out.empty());
    CHECK(row(g, "no-gpu").tier == "primary");
    CHECK(row(g, "no-gpu").left_out == "not chosen: it came first in Karmada's order but holds no complete set, so "
                                       "the reserve swap replaced it with gpu-bound (the most sets, 2)");
    std::string swapped = std::string(kept) + "gpu-bound replaced no-gpu, which came first but holds no complete set: ";
    CHECK(row(g, "memory-bound").left_out == swapped + "the reserve swap takes the most sets, 2 > 1)");
    CHECK(row(g, "pods-bound-2").left_out == swapped + "the first in order of the candidates with the most sets, 2)");
    CHECK(g.considered.size() == 4); // pods-bound is in neither tier: no row
}

TEST_CASE("Duplicated checks no capacity: the first in order holds the job even without a set")
{
    auto cs = fleet();
    auto spec = one_cluster(duplicated_spec());
    spec.placement.cluster_affinities = {term("primary", {"no-gpu"}, {overflow("burst", {"gpu-bound"})})};
    auto d = schedule(spec, pytorch_job(), snapshot(cs), explaining());
    REQUIRE(d.clusters.size() == 1);
    CHECK(d.clusters[0].name == "no-gpu");
    const auto& g = d.groups.at(0);
    CHECK(row(g, "no-gpu").holds_job);
    CHECK(row(g, "no-gpu").left_out.empty());
    CHECK(row(g, "gpu-bound").left_out ==
          std::string(kept) + "no-gpu was picked first: tier primary comes before burst)");
}

TEST_CASE("when no cluster holds a set, every row says the job is placed whole or nowhere")
{
    std::vector<model::cluster> cs{node("a", "4Ti", 0, 110), node("b", "100Gi", 64, 110)};
    auto d = schedule(one_cluster(aggregated_spec()), pytorch_job(), snapshot(cs), explaining());
    REQUIRE_FALSE(d.scheduled);
    const auto& g = d.groups.at(0);
    CHECK(g.outcome == "selection");
    for (const char* name : {"a", "b"}) {
        CAPTURE(name);
        CHECK_FALSE(row(g, name).holds_job);
        CHECK(row(g, name).left_out == "holds no complete set, and no other candidate does either: multi-template "
                                       "scheduling places the whole job on one cluster or nowhere");
    }
    CHECK(row(g, "a").bound_by == "nvidia.com/gpu");
    CHECK(row(g, "b").bound_by == "memory");
}

TEST_CASE("with the gate off the rows are the general estimator's, and no cluster holds a kept-together job")
{
    auto cs = fleet();
    options o;
    o.explain = true;
    auto d = schedule(one_cluster(aggregated_spec()), pytorch_job(), snapshot(cs), o);
    for (const auto& r : d.groups.at(0).considered) {
        CAPTURE(r.name);
        CHECK_FALSE(r.component_sets);
        CHECK_FALSE(r.holds_job);
    }
}

TEST_CASE("through a filter_cache, jobs of one component shape share the sets and decide the same")
{
    auto cs = fleet();
    snapshot snap(cs);
    filter_cache shared(snap);
    auto o = explaining();
    o.filters = &shared;
    auto spec = one_cluster(aggregated_spec());
    auto other = pytorch_job();
    other.name = "bert-2";
    other.components[1].name = "trainer"; // names are not part of the shape
    auto a = schedule(spec, pytorch_job(), snap, o);
    auto b = schedule(spec, other, snap, o);
    CHECK(shared.component_sets().shapes() == 1);
    auto alone = schedule(spec, pytorch_job(), snap, explaining());
    for (const auto* d : {&a, &b}) {
        REQUIRE(d->clusters.size() == 1);
        CHECK(d->clusters[0].name == alone.clusters[0].name);
        CHECK(d->clusters[0].available == alone.clusters[0].available);
        REQUIRE(d->groups.at(0).considered.size() == alone.groups.at(0).considered.size());
        for (std::size_t i = 0; i < alone.groups[0].considered.size(); ++i) {
            CHECK(d->groups[0].considered[i].bound_by == alone.groups[0].considered[i].bound_by);
            CHECK(d->groups[0].considered[i].left_out == alone.groups[0].considered[i].left_out);
        }
    }
}
