// SPDX-License-Identifier: Apache-2.0
// Warnings with stable ids for multi-component jobs (day2 §6.2 pitfalls, §6.3 notation trap).
#include <doctest/doctest.h>

#include <algorithm>

#include "scheduling/component_pitfalls.hpp"

using namespace kpw;

namespace {

model::component component(std::string name, std::int32_t replicas,
                           std::vector<std::pair<std::string, std::string>> request)
{
    return {std::move(name), replicas, true, {}, std::move(request), {}};
}

model::workload job(std::vector<model::component> components)
{
    model::workload w;
    w.kind = "PyTorchJob";
    w.name = "train";
    w.components = std::move(components);
    return w;
}

model::cluster cluster(std::string name, std::initializer_list<std::pair<const char*, const char*>> allocatable)
{
    model::cluster c;
    c.name = std::move(name);
    model::resource_summary s;
    for (const auto& [r, text] : allocatable)
        s.allocatable[r] = *model::parse_quantity(text);
    c.resource_summary = s;
    return c;
}

model::propagation_spec kept_together()
{
    model::propagation_spec s;
    s.placement.spread_constraints.push_back({"cluster", {}, 1, 1});
    return s;
}

settings::feature_gates on()
{
    auto g = settings::parse_feature_gates("MultiplePodTemplatesScheduling=true");
    REQUIRE(g.ok());
    return *g;
}

std::vector<std::string> ids(const std::vector<scheduling::component_warning>& warnings)
{
    std::vector<std::string> out;
    for (const auto& w : warnings)
        out.push_back(w.id);
    return out;
}

bool has(const std::vector<std::string>& list, std::string_view id)
{
    return std::find(list.begin(), list.end(), id) != list.end();
}

} // namespace

TEST_CASE("with the gate off the job is not kept together, and the warning names the gate")
{
    auto w = scheduling::component_pitfalls(kept_together(), job({component("master", 1, {})}), {}, {});
    REQUIRE(w.size() == 1);
    CHECK(w[0].id == "components-gate-off");
    CHECK(w[0].message.find("MultiplePodTemplatesScheduling=true") != std::string::npos);
}

TEST_CASE("without spread constraints the job is not applicable and goes to every candidate")
{
    auto list = ids(scheduling::component_pitfalls({}, job({component("master", 1, {})}), {}, on()));
    CHECK(has(list, "components-not-applicable"));
    CHECK(has(list, "components-sent-to-every-candidate"));
}

TEST_CASE("static weights ignore the spread constraint although the job is applicable")
{
    auto spec = kept_together();
    model::replica_scheduling_strategy rs{"Divided", "Weighted", model::cluster_preferences{{{{}, 1}}, ""}};
    spec.placement.replica_scheduling = rs;
    auto list = ids(scheduling::component_pitfalls(spec, job({component("master", 1, {})}), {}, on()));
    CHECK_FALSE(has(list, "components-not-applicable"));
    CHECK(has(list, "components-sent-to-every-candidate"));
}

TEST_CASE("a region constraint beside the cluster constraint 1/1 splits the job across regions")
{
    // Karmada places such a job whole on one cluster per chosen region (the fuzz finding 8 shape).
    auto spec = kept_together();
    spec.placement.spread_constraints.insert(spec.placement.spread_constraints.begin(), {"region", "", 3, 3});
    auto list = ids(scheduling::component_pitfalls(spec, job({component("master", 1, {})}), {}, on()));
    CHECK_FALSE(has(list, "components-not-applicable"));
    CHECK(has(list, "components-split-by-region"));
    auto one_region = kept_together();
    one_region.placement.spread_constraints.insert(one_region.placement.spread_constraints.begin(), {"region", "", 1, 1});
    CHECK_FALSE(has(ids(scheduling::component_pitfalls(one_region, job({component("master", 1, {})}), {}, on())),
                    "components-split-by-region"));
}

TEST_CASE("a kept-together job with consistent notations gets no warning")
{
    auto w = job({component("worker", 2, {{"cpu", "4"}, {"memory", "16Gi"}})});
    auto list = scheduling::component_pitfalls(kept_together(), w,
                                               {cluster("a", {{"cpu", "64"}, {"memory", "256Gi"}, {"pods", "110"}})},
                                               on());
    CHECK(list.empty());
}

TEST_CASE("a decimal request against a binary allocatable is the 1000x notation trap")
{
    auto w = job({component("worker", 2, {{"memory", "1500M"}})});
    auto list = scheduling::component_pitfalls(kept_together(), w, {cluster("a", {{"memory", "65776576Ki"}})}, on());
    REQUIRE(has(ids(list), "components-notation-mismatch"));
    CHECK(list[0].message.find("far fewer") != std::string::npos);
}

TEST_CASE("components that fit no single cluster but the clusters together are fragmented capacity")
{
    auto w = job({component("master", 1, {{"nvidia.com/gpu", "4"}}), component("worker", 2, {{"nvidia.com/gpu", "4"}})});
    std::vector<model::cluster> clusters{cluster("a", {{"nvidia.com/gpu", "8"}, {"pods", "110"}}),
                                         cluster("b", {{"nvidia.com/gpu", "8"}, {"pods", "110"}})};
    CHECK(has(ids(scheduling::component_pitfalls(kept_together(), w, clusters, on())), "components-fragmented"));
    clusters[1].resource_summary->allocatable["nvidia.com/gpu"] = model::quantity::from_int(12);
    CHECK_FALSE(has(ids(scheduling::component_pitfalls(kept_together(), w, clusters, on())), "components-fragmented"));
    clusters.pop_back(); // one cluster of 8 GPUs: too small, and no sum could help
    CHECK_FALSE(has(ids(scheduling::component_pitfalls(kept_together(), w, clusters, on())), "components-fragmented"));
}

TEST_CASE("Flink-style memory under 1Mi and negative replicas are flagged")
{
    auto w = job({component("jobmanager", 1, {{"memory", "2048m"}}), component("taskmanager", -1, {})});
    auto list = ids(scheduling::component_pitfalls(kept_together(), w, {}, on()));
    CHECK(has(list, "components-memory-tiny"));
    CHECK(has(list, "components-negative-replicas"));
}
