// SPDX-License-Identifier: Apache-2.0
// The shipped AI examples (manifests/examples/ai): the numbers their README and comments state.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "doc/load.hpp"
#include "model/decode.hpp"
#include "scheduling/component_pitfalls.hpp"
#include "scheduling/component_sets.hpp"
#include "scheduling/inventory.hpp"
#include "scheduling/simulator.hpp"

using namespace kpw;
using scheduling::set_bound;

namespace {

std::vector<doc::document> load(const std::string& name)
{
    std::ifstream in(std::string(KPW_SOURCE_ROOT) + "/manifests/examples/ai/" + name);
    REQUIRE(in.good());
    std::stringstream text;
    text << in.rdbuf();
    auto docs = doc::load_yaml(text.str());
    REQUIRE(docs.ok());
    return std::move(*docs);
}

struct ai_example {
    scheduling::cluster_inventory inventory;
    std::vector<model::cluster> clusters;
    std::vector<model::workload> workloads;
    settings::feature_gates gates = *settings::parse_feature_gates("MultiplePodTemplatesScheduling=true");

    ai_example()
    {
        std::vector<scheduling::inventory_issue> issues;
        for (const auto& d : load("clusters.yaml"))
            inventory.add(d.root, issues);
        inventory.seal(issues);
        for (const auto& name : {"pytorchjob-bert.yaml", "flinkdeployment-inference.yaml"})
            for (const auto& d : load(std::string("workloads/") + name))
                scheduling::add_workloads(workloads, d.root, "default", issues);
        CHECK(issues.empty());
        clusters.assign(inventory.clusters().begin(), inventory.clusters().end());
    }

    scheduling::component_set_estimate sets(std::size_t workload, std::string_view cluster) const
    {
        const auto* c = inventory.find(cluster);
        REQUIRE(c != nullptr);
        return scheduling::max_available_component_sets(*c, workloads.at(workload).components, gates);
    }
};

model::propagation_spec policy(const std::string& file)
{
    auto docs = load("policies/" + file);
    std::string error;
    auto decoded = model::decode(docs.front().root, &error);
    REQUIRE(error.empty());
    return decoded.spec;
}

} // namespace

TEST_CASE("the PyTorchJob fits only gpu-h100-bj, bounded by its resource models")
{
    ai_example ex;
    REQUIRE(ex.workloads.size() == 2);
    REQUIRE(ex.workloads[0].components.size() == 2);
    auto h100 = ex.sets(0, "gpu-h100-bj");
    CHECK(h100.sets == 1); // the summary allows 2 (24 free GPUs / 9 per set); the model nodes hold 1
    CHECK(h100.bound == set_bound::resource_models);
    auto a100 = ex.sets(0, "gpu-a100-sh");
    CHECK(a100.sets == 0);
    CHECK(a100.resource == "nvidia.com/gpu");
    auto cpu = ex.sets(0, "cpu-gz");
    CHECK(cpu.bound == set_bound::resource_exhausted);
    CHECK(cpu.resource == "nvidia.com/gpu");
    auto kept = policy("keep-together.yaml");
    CHECK(scheduling::multi_template_applicable(kept, ex.workloads[0], ex.gates));
    CHECK(scheduling::component_pitfalls(kept, ex.workloads[0], ex.clusters, ex.gates).empty());
}

TEST_CASE("the FlinkDeployment fits nowhere: its memory is read in thousandths against Ki")
{
    ai_example ex;
    for (const char* name : {"gpu-h100-bj", "gpu-a100-sh", "cpu-gz"}) {
        CAPTURE(name);
        auto e = ex.sets(1, name);
        CHECK(e.sets == 0);
        CHECK(e.resource == "memory");
    }
    auto kept = policy("keep-together.yaml");
    auto warnings = scheduling::component_pitfalls(kept, ex.workloads[1], ex.clusters, ex.gates);
    REQUIRE_FALSE(warnings.empty());
    CHECK(warnings[0].id == "components-notation-mismatch");
}

TEST_CASE("the policy without a spread constraint does not keep the job together")
{
    ai_example ex;
    auto loose = policy("no-spread.yaml");
    CHECK_FALSE(scheduling::multi_template_applicable(loose, ex.workloads[0], ex.gates));
    auto warnings = scheduling::component_pitfalls(loose, ex.workloads[0], ex.clusters, ex.gates);
    REQUIRE(warnings.size() == 2);
    CHECK(warnings[0].id == "components-not-applicable");
    CHECK(warnings[1].id == "components-sent-to-every-candidate");
    CHECK(scheduling::component_targets({"gpu-h100-bj"}, ex.workloads[0], loose, ex.gates)[0].components.empty());
}

TEST_CASE("the FlinkDeployment that fits nowhere: v1.18 refuses every cluster, v1.16 and v1.17 select one")
{
    // common.go SelectClusters: v1.18.0 asks the selected cluster for one complete component set; v1.16
    // and v1.17 ask for spec.replicas, which is 0 in a multi-component binding, so the best-scored
    // cluster is selected though it holds no set, and the job propagates there.
    ai_example ex;
    auto kept = policy("keep-together.yaml");
    for (auto release : {settings::karmada_release::v1_16_0, settings::karmada_release::v1_17_1,
                         settings::karmada_release::v1_18_2}) {
        CAPTURE(settings::release_name(release));
        auto gates = *settings::parse_feature_gates("MultiplePodTemplatesScheduling=true", release);
        scheduling::options opts;
        opts.gates = &gates;
        auto d = scheduling::schedule(kept, ex.workloads[1], ex.clusters, opts);
        if (release == settings::karmada_release::v1_18_2) {
            CHECK_FALSE(d.scheduled);
            CHECK(d.message == "no enough resource when selecting 1 clusters");
        } else {
            REQUIRE(d.scheduled);
            REQUIRE(d.clusters.size() == 1);
            CHECK(d.clusters[0].replicas == 0);
            CHECK(d.clusters[0].available == 0);
        }
    }
}
