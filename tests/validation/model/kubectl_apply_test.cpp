// SPDX-License-Identifier: Apache-2.0
// kubectl apply's three-way merge in the fields the dry run reads (model::kubectl_applied).
#include <doctest/doctest.h>

#include "model/kubectl_apply.hpp"

using namespace kpw::model;

namespace {

workload live_web()
{
    workload w;
    w.api_version = "apps/v1";
    w.kind = "Deployment";
    w.namespace_ = "default";
    w.name = "web";
    w.uid = "live-uid";
    w.replicas = 7; // scaled by an HPA
    w.labels = {{"app", "web"}, {"tier", "front"}, {"propagationpolicy.karmada.io/permanent-id", "id"}};
    w.annotations = {{"propagationpolicy.karmada.io/name", "old"},
                     {std::string(last_applied_annotation),
                      R"({"metadata":{"labels":{"app":"web","tier":"front"}},"spec":{"template":{}}})"}};
    return w;
}

workload_manifest manifest(bool sets_replicas, std::int32_t replicas = 1)
{
    workload w;
    w.api_version = "apps/v1";
    w.kind = "Deployment";
    w.namespace_ = "default";
    w.name = "web";
    w.replicas = replicas;
    w.labels = {{"app", "web"}, {"team", "shop"}};
    return {w, sets_replicas};
}

} // namespace

TEST_CASE("labels: the live ones kept, those kubectl applied before and the manifest dropped removed")
{
    const auto live = live_web();
    const workload out = kubectl_applied(&live, manifest(true, 3));
    CHECK(out.labels == label_map{{"app", "web"}, {"team", "shop"}, {"propagationpolicy.karmada.io/permanent-id", "id"}});
    CHECK(out.annotations.contains("propagationpolicy.karmada.io/name")); // Karmada's claim stays
    CHECK(out.uid == "live-uid");
    CHECK(out.replicas == 3);
}

TEST_CASE("spec.replicas: a manifest without it keeps the live count unless kubectl applied one before")
{
    auto live = live_web();
    CHECK(kubectl_applied(&live, manifest(false)).replicas == 7);
    live.annotations[std::string(last_applied_annotation)] = R"({"spec":{"replicas":2}})";
    CHECK(kubectl_applied(&live, manifest(false)).replicas == 1); // the patch deletes it; the default applies
}

TEST_CASE("a last-applied annotation that is not JSON counts as none; no live object: the manifest as written")
{
    auto live = live_web();
    live.annotations[std::string(last_applied_annotation)] = "{not json";
    const workload out = kubectl_applied(&live, manifest(false));
    CHECK(out.labels.contains("tier")); // nothing known to have been applied before: kept
    CHECK(out.replicas == 7);
    CHECK(kubectl_applied(nullptr, manifest(false)).labels == label_map{{"app", "web"}, {"team", "shop"}});
}
