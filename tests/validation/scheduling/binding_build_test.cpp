// SPDX-License-Identifier: Apache-2.0
// Why BuildResourceBinding fails: the interpreter, then (PriorityBasedScheduling) the policy's priority class.
#include <doctest/doctest.h>

#include "fixtures.hpp"
#include "scheduling/binding_build.hpp"

using namespace kpw;
using namespace kpw::scheduling;
using namespace kpw::scheduling::test;

namespace {

model::workload priority_class(std::string name)
{
    model::workload o;
    o.api_version = "scheduling.k8s.io/v1";
    o.kind = "PriorityClass";
    o.name = std::move(name);
    return o;
}

model::propagation_spec with_priority(std::string source, std::string name)
{
    model::propagation_spec spec;
    spec.schedule_priority = model::schedule_priority{std::move(source), std::move(name)};
    return spec;
}

settings::feature_gates priority_gate()
{
    settings::feature_gates g;
    g.set("PriorityBasedScheduling", true);
    return g;
}

} // namespace

TEST_CASE("schedulePriority is read only with PriorityBasedScheduling, and needs its PriorityClass")
{
    const auto w = deployment(3);
    const auto spec = with_priority("KubePriorityClass", "high");
    const std::vector<model::workload> none;
    CHECK_FALSE(binding_build_failure(w, spec, settings::feature_gates{}, none)); // gate off: never read
    auto missing = binding_build_failure(w, spec, priority_gate(), none);
    REQUIRE(missing);
    CHECK(missing->id == "priority-class-not-found");
    CHECK(missing->field == "spec.schedulePriority.priorityClassName");
    CHECK(missing->message.find(R"("priorityclasses.scheduling.k8s.io "high" not found")") != std::string::npos);
    const std::vector<model::workload> objects{priority_class("high")};
    CHECK_FALSE(binding_build_failure(w, spec, priority_gate(), objects));
    auto namespaced = priority_class("high");
    namespaced.namespace_ = "default"; // not the cluster-scoped object the detector reads
    CHECK(binding_build_failure(w, spec, priority_gate(), std::vector{namespaced}));
    CHECK_FALSE(binding_build_failure(w, model::propagation_spec{}, priority_gate(), none)); // no schedulePriority
}

TEST_CASE("the other priority class sources are BuildResourceBinding's errors; a cluster-scoped template is exempt")
{
    const auto w = deployment(3);
    const std::vector<model::workload> none;
    auto pod = binding_build_failure(w, with_priority("PodPriorityClass", "x"), priority_gate(), none);
    REQUIRE(pod);
    CHECK(pod->message.find("PodPriorityClass is not supported yet") != std::string::npos);
    CHECK(pod->field == "spec.schedulePriority.priorityClassSource");
    auto odd = binding_build_failure(w, with_priority("Other", "x"), priority_gate(), none);
    REQUIRE(odd);
    CHECK(odd->message.find("unsupported priority class source") != std::string::npos);
    auto cluster_scoped = w;
    cluster_scoped.namespace_.clear(); // BuildClusterResourceBinding reads no priority
    CHECK_FALSE(binding_build_failure(cluster_scoped, with_priority("KubePriorityClass", "high"), priority_gate(), none));
}

TEST_CASE("the interpreter's failure comes first, whatever the priority")
{
    auto w = deployment(3);
    w.replicas_failure = model::interpretation_failure{"spec.replicas: Invalid value", {7, 3}};
    w.interpreter = model::replica_interpreter::native_template;
    auto f = binding_build_failure(w, with_priority("KubePriorityClass", "high"), priority_gate(), {});
    REQUIRE(f);
    CHECK(f->id == "template-not-interpretable");
    CHECK(f->where == position{7, 3});
}
