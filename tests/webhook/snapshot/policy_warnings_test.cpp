// SPDX-License-Identifier: Apache-2.0
// serve --clusters in the policy handler: snapshot warnings on admitted policies, verdicts untouched.
#include "admission/policy_handler.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <memory>
#include <string>

#include "admission/response.hpp"
#include "doc/load.hpp"
#include "snapshot/holder.hpp"
#include "snapshot/load.hpp"

using namespace kpw::admission;

namespace {

const std::string examples = std::string(KPW_SOURCE_ROOT) + "/manifests/examples/";

// The shipped example snapshot and workloads, through the loader lint and serve share.
std::shared_ptr<const kpw::snapshot::state> example_state(bool with_workloads = true)
{
    auto s = std::make_shared<kpw::snapshot::state>();
    std::vector<kpw::lint::file_error> errors;
    kpw::snapshot::load(*s, {examples + "clusters.yaml"},
                        with_workloads ? std::vector<std::string>{examples + "workloads.yaml"} : std::vector<std::string>{},
                        "default", errors);
    REQUIRE(errors.empty());
    REQUIRE(s->clusters.size() == 9);
    return s;
}

// A PropagationPolicy as the validating webhook receives it (CRD and mutating defaults applied).
std::string policy(std::string_view ns, std::string_view deployment, std::string_view placement, bool labelled = true)
{
    const std::string label =
        labelled ? R"(,"labels":{"propagationpolicy.karmada.io/permanent-id":"4f3c5a1e-0000-4000-8000-000000000001"})" : "";
    return R"({"apiVersion":"policy.karmada.io/v1alpha1","kind":"PropagationPolicy",
      "metadata":{"name":"p","namespace":")" + std::string(ns) + "\"" + label + R"(},
      "spec":{"resourceSelectors":[{"apiVersion":"apps/v1","kind":"Deployment","namespace":")" + std::string(ns) +
           R"(","name":")" + std::string(deployment) + R"("}],"placement":)" + std::string(placement) + R"(,
              "schedulerName":"default-scheduler","conflictResolution":"Abort","preemption":"Never","priority":0}})";
}

// dc-shanghai names no cluster of the snapshot; nginx (3 replicas, Duplicated) lands on member1.
const std::string groups = R"({"clusterAffinities":[{"affinityName":"dc-shanghai","clusterNames":["unavailable"]},
                                                    {"affinityName":"dc-beijing","clusterNames":["member1"]}]})";
// checkout's 10 replicas do not fit idc-east-1 (6 available).
const std::string too_small = R"({"clusterAffinities":[{"affinityName":"local-idc","clusterNames":["idc-east-1"]}],
  "replicaScheduling":{"replicaSchedulingType":"Divided","replicaDivisionPreference":"Weighted",
                       "weightPreference":{"dynamicWeight":"AvailableReplicas"}}})";
// nginx on member1 or member2: every group matches, the workload fits.
const std::string fine = R"({"clusterAffinity":{"clusterNames":["member1","member2"]}})";

request create(const std::string& object, std::string ns)
{
    // Members built from moved strings: gcc 12 -O3 reports a bogus -Wrestrict for short literal assignments.
    request r{std::string("admission.k8s.io/v1"), std::string("uid-1"),
              {"policy.karmada.io", "v1alpha1", "PropagationPolicy"}, std::string("CREATE"), std::string("p"),
              std::move(ns), false, {}, {}, {}};
    auto v = kpw::doc::parse_json(object);
    REQUIRE_MESSAGE(v.ok(), object);
    r.object = *v;
    return r;
}

policy_handler handler_with(std::shared_ptr<const kpw::snapshot::state> s)
{
    policy_handler_options o;
    if (s)
        o.cluster_snapshot = std::make_shared<kpw::snapshot::holder>(std::move(s));
    return policy_handler(std::move(o));
}

// The warnings `with` has beyond what the handler without a snapshot says (the validation warnings).
std::vector<std::string> added(const response& with, const response& without)
{
    std::vector<std::string> out;
    for (const auto& w : with.warnings)
        if (std::find(without.warnings.begin(), without.warnings.end(), w) == without.warnings.end())
            out.push_back(w);
    return out;
}

bool contains(const std::string& s, std::string_view part) { return s.find(part) != std::string::npos; }

void check_same_verdict(const response& a, const response& b)
{
    CHECK(a.allowed == b.allowed);
    CHECK(a.code == b.code);
    CHECK(a.reason == b.reason);
    CHECK(a.message == b.message);
    CHECK(a.causes == b.causes);
}

} // namespace

TEST_CASE("a group that matches no known cluster is a warning and the policy is still allowed")
{
    const auto req = create(policy("default", "nginx", groups), "default");
    const auto plain = handler_with(nullptr).handle(req);
    const auto res = handler_with(example_state()).handle(req);
    REQUIRE_MESSAGE(plain.allowed, plain.message);
    check_same_verdict(res, plain);
    const auto extra = added(res, plain);
    REQUIRE(extra.size() == 1);
    CHECK(extra[0].starts_with("spec.placement.clusterAffinities[0]: affinity group dc-shanghai matches no cluster"));
}

TEST_CASE("a known workload the policy would leave unschedulable is a warning, the verdict unchanged")
{
    const auto req = create(policy("production", "checkout", too_small), "production");
    const auto plain = handler_with(nullptr).handle(req);
    const auto res = handler_with(example_state()).handle(req);
    REQUIRE_MESSAGE(plain.allowed, plain.message);
    check_same_verdict(res, plain);
    const auto extra = added(res, plain);
    REQUIRE(extra.size() == 1);
    // Karmada's condition text whole (longer than the 120 characters the docs suggest; kube-apiserver
    // passes it whole).
    CHECK(extra[0] == "Deployment production/checkout unschedulable: local-idc: "
                      "failed to scale up: Clusters available replicas 6 are not enough to schedule.");
    for (const auto& w : res.warnings) {
        CHECK(w.size() <= max_warning_chars); // ASCII here: bytes = characters
        CHECK(std::none_of(w.begin(), w.end(), [](char c) { return static_cast<unsigned char>(c) < 0x20; }));
    }
}

TEST_CASE("without --workloads only the unmatched-group warning applies")
{
    const auto req = create(policy("production", "checkout", too_small), "production");
    const auto res = handler_with(example_state(false)).handle(req);
    CHECK(added(res, handler_with(nullptr).handle(req)).empty());
}

TEST_CASE("a policy that fits the snapshot gets no snapshot warnings")
{
    const auto req = create(policy("default", "nginx", fine), "default");
    const auto plain = handler_with(nullptr).handle(req);
    const auto res = handler_with(example_state()).handle(req);
    REQUIRE_MESSAGE(plain.allowed, plain.message);
    check_same_verdict(res, plain);
    CHECK(res.warnings == plain.warnings);
}

TEST_CASE("a workload in another namespace is not the policy's: a PropagationPolicy claims its own only")
{
    const auto req = create(policy("default", "checkout", too_small), "default");
    CHECK(added(handler_with(example_state()).handle(req), handler_with(nullptr).handle(req)).empty());
}

TEST_CASE("a denied policy stays denied with the same answer, whatever the snapshot says")
{
    const auto req = create(policy("default", "nginx", groups, false), "default");
    const auto plain = handler_with(nullptr).handle(req);
    const auto res = handler_with(example_state()).handle(req);
    CHECK_FALSE(plain.allowed);
    check_same_verdict(res, plain);
    CHECK(res.warnings == plain.warnings);
}

TEST_CASE("replacing the held snapshot changes the warnings of the next request")
{
    auto holder = std::make_shared<kpw::snapshot::holder>(example_state());
    policy_handler_options o;
    o.cluster_snapshot = holder;
    const policy_handler h(std::move(o));
    const auto req = create(policy("default", "nginx", groups), "default");
    const auto before = h.handle(req);
    // An empty snapshot (workloads.yaml holds no Cluster object): no group matches, nginx fits nowhere.
    auto empty = std::make_shared<kpw::snapshot::state>();
    std::vector<kpw::lint::file_error> errors;
    kpw::snapshot::load(*empty, {examples + "workloads.yaml"}, {examples + "workloads.yaml"}, "default", errors);
    REQUIRE(errors.empty());
    REQUIRE(empty->clusters.size() == 0);
    holder->replace(empty);
    const auto after = h.handle(req);
    check_same_verdict(after, before);
    CHECK(after.warnings.size() == before.warnings.size() + 2);
    CHECK(std::any_of(after.warnings.begin(), after.warnings.end(),
                      [](const std::string& w) { return contains(w, "affinity group dc-beijing matches no cluster"); }));
    CHECK(std::any_of(after.warnings.begin(), after.warnings.end(), [](const std::string& w) {
        return w.starts_with("Deployment default/nginx unschedulable: ");
    }));
}
