// SPDX-License-Identifier: Apache-2.0
// The binding Karmada's detector writes for a template, and its owner check (karmada#2090).
#include <doctest/doctest.h>

#include "scheduling/binding_pairing.hpp"

using namespace kpw;
using namespace kpw::scheduling;

namespace {

model::workload deployment(std::string ns, std::string name, std::string uid = "")
{
    model::workload w;
    w.api_version = "apps/v1";
    w.kind = "Deployment";
    w.namespace_ = std::move(ns);
    w.name = std::move(name);
    w.uid = std::move(uid);
    return w;
}

model::binding binding(std::string kind, std::string ns, std::string name)
{
    model::binding b;
    b.kind = std::move(kind);
    b.namespace_ = std::move(ns);
    b.name = std::move(name);
    return b;
}

} // namespace

TEST_CASE("the detector's binding is the one named after the template, whatever its spec.resource says")
{
    const auto web = deployment("shop", "Web");
    auto b = binding(std::string(model::kind_resource_binding), "shop", "web-deployment");
    b.resource = {"apps/v1", "Deployment", "shop", "other", "", ""};
    CHECK(is_detector_binding_of(b, web));
    CHECK_FALSE(is_detector_binding_of(binding(std::string(model::kind_resource_binding), "default", "web-deployment"), web));
    CHECK_FALSE(is_detector_binding_of(binding(std::string(model::kind_cluster_resource_binding), "shop", "web-deployment"), web));
    // A cluster-scoped template's binding is a ClusterResourceBinding; ':' becomes '.'.
    model::workload role = deployment("", "system:edit");
    role.kind = "ClusterRole";
    CHECK(is_detector_binding_of(binding(std::string(model::kind_cluster_resource_binding), "", "system.edit-clusterrole"), role));
}

TEST_CASE("the owner check: no controller, or the template's own uid; an unknown uid matches no owner")
{
    auto b = binding(std::string(model::kind_resource_binding), "shop", "web-deployment");
    CHECK(detector_may_update(b, ""));
    b.controller_owner_uid = "uid-1";
    CHECK(detector_may_update(b, "uid-1"));
    CHECK_FALSE(detector_may_update(b, "uid-2"));
    CHECK_FALSE(detector_may_update(b, ""));
}

TEST_CASE("the live template's uid: its own, else the one its recorded binding holds")
{
    auto recorded = binding(std::string(model::kind_resource_binding), "shop", "web-deployment");
    recorded.controller_owner_uid = "owner-uid";
    CHECK(live_template_uid(deployment("shop", "web", "own"), &recorded) == "own");
    CHECK(live_template_uid(deployment("shop", "web"), &recorded) == "owner-uid");
    recorded.resource.uid = "resource-uid";
    CHECK(live_template_uid(deployment("shop", "web"), &recorded) == "resource-uid");
    CHECK(live_template_uid(deployment("shop", "web"), nullptr).empty());
}
