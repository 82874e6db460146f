// SPDX-License-Identifier: Apache-2.0
// A binding as an older Karmada release stores it: the fields its ResourceBinding CRD lacks are pruned.
#include "model/release_fields.hpp"

#include <doctest/doctest.h>

#include "doc/load.hpp"
#include "model/binding_decode.hpp"

using namespace kpw;

namespace {

model::binding binding_with_tiers()
{
    auto docs = doc::load_yaml(R"(apiVersion: work.karmada.io/v1alpha2
kind: ResourceBinding
metadata:
  name: web-deployment
  namespace: shop
  annotations:
    policy.karmada.io/applied-placement: '{"clusterAffinities":[{"affinityName":"a","clusterNames":["m1"],"overflowAffinities":[{"affinityName":"b","clusterNames":["m2"]}]}]}'
spec:
  resource: {apiVersion: apps/v1, kind: Deployment, namespace: shop, name: web}
  placement:
    clusterAffinities:
      - affinityName: a
        clusterNames: [m1]
        overflowAffinities: []
    workloadAffinity:
      affinity: {groupByLabelKey: app}
)");
    REQUIRE(docs.ok());
    auto b = model::decode_binding(docs->front().root);
    REQUIRE(b.errors.empty());
    return b.value;
}

} // namespace

TEST_CASE("v1.17 stores a binding without overflow tiers, in spec and in the applied-placement annotation")
{
    model::binding b = binding_with_tiers();
    model::as_stored_by(b, settings::karmada_release::v1_17_1);
    REQUIRE(b.placement.has_value());
    CHECK(b.placement->cluster_affinities[0].overflow_affinities.empty());
    CHECK_FALSE(b.placement->cluster_affinities[0].overflow_affinities.explicitly_empty); // `[]` is gone too
    CHECK(b.placement->workload_affinity.has_value());                                   // v1.17 has it
    auto applied = model::decode_applied_placement(b);
    REQUIRE(applied.ok());
    REQUIRE(applied->has_value());
    CHECK((*applied)->cluster_affinities[0].overflow_affinities.empty());

    model::binding old = binding_with_tiers();
    model::as_stored_by(old, settings::karmada_release::v1_16_0);
    CHECK_FALSE(old.placement->workload_affinity.has_value());

    model::binding kept = binding_with_tiers();
    const std::string annotation = kept.annotations.at("policy.karmada.io/applied-placement");
    model::as_stored_by(kept, settings::karmada_release::v1_18_2);
    CHECK(kept.placement->cluster_affinities[0].overflow_affinities.explicitly_empty);
    CHECK(kept.annotations.at("policy.karmada.io/applied-placement") == annotation);
}

TEST_CASE("the annotation loses only the later release's members, the rest stays as written")
{
    model::binding b = binding_with_tiers();
    b.annotations["policy.karmada.io/applied-placement"] =
        R"({"clusterAffinities":[{"affinityName":"a","clusterNames":[],"OverflowAffinities":[{"affinityName":"b"}]}],)"
        R"("workloadAffinity":{"affinity":{"groupByLabelKey":"app"}},"zz":1})";
    model::as_stored_by(b, settings::karmada_release::v1_16_0);
    // json.Unmarshal folds case; an explicit [] and members lint does not know stay as they were.
    CHECK(b.annotations.at("policy.karmada.io/applied-placement") ==
          R"({"clusterAffinities":[{"affinityName":"a","clusterNames":[]}],"zz":1})");
    auto applied = model::decode_applied_placement(b);
    REQUIRE(applied.ok());
    REQUIRE(applied->has_value());
    CHECK((*applied)->cluster_affinities[0].cluster_affinity.cluster_names.explicitly_empty);
}
