// SPDX-License-Identifier: Apache-2.0
// The seed scenarios end to end on the shipped snapshot: manifests/examples/clusters.yaml + workloads.yaml.
#include <doctest/doctest.h>

#include <fstream>
#include <sstream>

#include "doc/load.hpp"
#include "fixtures.hpp"
#include "scheduling/inventory.hpp"

using namespace kpw;
using namespace kpw::scheduling;
using namespace kpw::scheduling::test;

namespace {

std::vector<doc::document> load_example(const std::string& name)
{
    std::ifstream in(std::string(KPW_SOURCE_ROOT) + "/manifests/examples/" + name);
    REQUIRE(in.good());
    std::stringstream text;
    text << in.rdbuf();
    auto docs = doc::load_yaml(text.str());
    REQUIRE(docs.ok());
    return std::move(*docs);
}

struct example {
    cluster_inventory clusters;
    std::vector<model::workload> workloads;

    example()
    {
        std::vector<inventory_issue> issues;
        for (const auto& d : load_example("clusters.yaml"))
            clusters.add(d.root, issues);
        clusters.seal(issues);
        for (const auto& d : load_example("workloads.yaml"))
            add_workloads(workloads, d.root, "default", issues);
        CHECK(issues.empty());
    }

    const model::workload& workload(std::string_view name) const
    {
        for (const auto& w : workloads)
            if (w.name == name && w.kind == "Deployment")
                return w;
        FAIL("no workload ", name);
        return workloads.front();
    }
};

} // namespace

TEST_CASE("the snapshot decodes: nine clusters, four workload objects")
{
    example ex;
    CHECK(ex.clusters.size() == 9);
    CHECK(ex.workloads.size() == 4);
    CHECK(ex.workload("checkout").request == model::replica_request{{"cpu", 600}, {"memory", 1152LL << 20}});
}

TEST_CASE("checkout-local-idc: idc-east-1 takes 6, the maintenance cluster none, cloud-east-1 the other 4")
{
    example ex;
    auto spec = dynamic_weight_spec(); // as checkout-local-idc.yaml
    spec.placement.cluster_affinities = {term("local-idc", {"idc-east-1", "idc-east-2"},
                                              {overflow("public-cloud", {"cloud-east-1", "cloud-east-2"})})};
    auto d = schedule(spec, ex.workload("checkout"), ex.clusters.clusters());
    REQUIRE(d.scheduled);
    CHECK(d.affinity_name == "local-idc");
    REQUIRE(d.clusters.size() == 2);
    CHECK(d.clusters[0].name == "idc-east-1");
    CHECK(d.clusters[0].replicas == 6);
    CHECK(d.clusters[0].tier == "local-idc");
    CHECK(d.clusters[1].name == "cloud-east-1");
    CHECK(d.clusters[1].replicas == 4);
    CHECK(d.clusters[1].tier == "public-cloud");
    CHECK(d.clusters[1].available == 30);
    CHECK_FALSE(d.tie);
    REQUIRE(d.candidates.size() == 3); // idc-east-2 is filtered by its taint
    CHECK(d.candidates[2].name == "cloud-east-2");
    CHECK(d.candidates[2].available == 3);
}

TEST_CASE("overflow-onprem-cloud: cluster1 takes 4, cluster2 4 and cluster3 2")
{
    example ex;
    auto spec = dynamic_weight_spec(); // as overflow-onprem-cloud.yaml
    spec.placement.cluster_affinities = {term("on-prem", {"cluster1"}, {overflow("public-cloud", {"cluster2", "cluster3"})})};
    auto d = schedule(spec, ex.workload("nginx-overflow"), ex.clusters.clusters());
    REQUIRE(d.scheduled);
    CHECK(split(d) == replicas_map{{"cluster1", 4}, {"cluster2", 4}, {"cluster3", 2}});
    CHECK(d.clusters[0].tier == "on-prem");
    CHECK(d.clusters[2].tier == "public-cloud");
}

TEST_CASE("dc-groups: dc-shanghai fails (its cluster does not exist), dc-beijing takes all 3 replicas")
{
    example ex;
    model::propagation_spec spec; // as dc-groups.yaml: Duplicated
    spec.placement.cluster_affinities = {term("dc-shanghai", {"unavailable"}), term("dc-beijing", {"member1"}),
                                         term("dc-hongkong", {"member2"})};
    auto d = schedule(spec, ex.workload("nginx"), ex.clusters.clusters());
    REQUIRE(d.scheduled);
    CHECK(d.affinity_name == "dc-beijing");
    CHECK(split(d) == replicas_map{{"member1", 3}});
    REQUIRE(d.failures.size() == 1);
    CHECK(d.failures[0].str() == "dc-shanghai: no cluster passed the filters (unavailable: not in the snapshot)");
    auto unmatched = unmatched_terms(spec, ex.clusters.clusters());
    REQUIRE(unmatched.size() == 1);
    CHECK(unmatched[0].affinity_name == "dc-shanghai");
}
