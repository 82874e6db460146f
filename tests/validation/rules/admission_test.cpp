// SPDX-License-Identifier: Apache-2.0
// validate_admission: UPDATE checks, the permanent-id label, undecodable objects (rules §6.1, §6.2, §8).
#include "support.hpp"

using namespace kpw;
using outcome = admission_verdict::outcome;

namespace {

constexpr const char* bad_spec = R"("placement":{"clusterTolerations":[{"operator":"Lt"}]})";

doc::value object_with(std::string_view spec_json, std::string_view kind = "PropagationPolicy")
{
    return testing::parse_json(testing::admission_json(spec_json, kind));
}

admission_verdict update(const doc::value& now, const doc::value& old, policy_kind kind = policy_kind::propagation_policy)
{
    return validate_admission(kind, admission_operation::update, now, &old,
                              kind == policy_kind::propagation_policy ? "default" : "", true, {});
}

std::string undecodable_message(std::string_view json)
{
    const auto v = validate_admission(policy_kind::propagation_policy, admission_operation::create,
                                      testing::parse_json(json), nullptr, "default", true, {});
    CHECK(v.result == outcome::undecodable);
    CHECK(v.errors.empty());
    return v.message;
}

} // namespace

TEST_CASE("a valid CREATE is allowed, with no message")
{
    const auto v = testing::admit_spec(R"("placement":{"clusterAffinity":{"clusterNames":["a"]}})");
    CHECK(v.result == outcome::allowed);
    CHECK(v.message.empty());
    CHECK(v.errors.empty());
}

TEST_CASE("the permanent-id label is required and short-circuits the spec rules")
{
    doc::value obj = object_with(bad_spec);
    obj.find("metadata")->erase("labels");
    auto v = validate_admission(policy_kind::propagation_policy, admission_operation::create, obj, nullptr, "default", true, {});
    CHECK(v.result == outcome::denied);
    CHECK(v.message == "label propagationpolicy.karmada.io/permanent-id is required, it should be set by the "
                       "mutating admission webhook during creation");
    CHECK(v.errors.empty());
    v = validate_admission(policy_kind::propagation_policy, admission_operation::create, obj, nullptr, "default", false, {});
    CHECK(v.errors.size() == 1); // without the requirement the spec rules run
    doc::value cpp = object_with("", "ClusterPropagationPolicy");
    cpp.find("metadata")->find("labels")->set("clusterpropagationpolicy.karmada.io/permanent-id", doc::value::string(""));
    CHECK(validate_admission(policy_kind::cluster_propagation_policy, admission_operation::create, cpp, nullptr, "", true, {})
              .result == outcome::allowed); // an empty value is accepted
    cpp.find("metadata")->erase("labels");
    CHECK(validate_admission(policy_kind::cluster_propagation_policy, admission_operation::create, cpp, nullptr, "", true, {})
              .message == "label clusterpropagationpolicy.karmada.io/permanent-id is required, it should be set by "
                          "the mutating admission webhook during creation");
}

TEST_CASE("UPDATE: schedulerName is immutable (U1) and checked before the label (U2)")
{
    const doc::value old = object_with(R"("schedulerName":"default-scheduler")");
    doc::value now = object_with(std::string(R"("schedulerName":"other",)") + bad_spec);
    now.find("metadata")->find("labels")->set("propagationpolicy.karmada.io/permanent-id", doc::value::string("2"));
    auto v = update(now, old);
    CHECK(v.result == outcome::denied);
    CHECK(v.message == "the schedulerName should not be updated");
    CHECK(v.errors.empty());
    // absent and "" are the same scheduler name
    CHECK(update(object_with(R"("schedulerName":"")"), object_with("")).result == outcome::allowed);
}

TEST_CASE("UPDATE: the permanent-id label may not change or disappear (U2)")
{
    const doc::value old = object_with("");
    doc::value changed = object_with("");
    changed.find("metadata")->find("labels")->set("propagationpolicy.karmada.io/permanent-id", doc::value::string("2"));
    const std::string msg =
        "label propagationpolicy.karmada.io/permanent-id is immutable, it can only be set by the system during creation";
    CHECK(update(changed, old).message == msg);
    doc::value removed = object_with("");
    removed.find("metadata")->erase("labels");
    CHECK(update(removed, old).message == msg);
    doc::value cpp_old = object_with("", "ClusterPropagationPolicy");
    doc::value cpp_new = cpp_old;
    cpp_old.find("metadata")->find("labels")->set("clusterpropagationpolicy.karmada.io/permanent-id", doc::value::string("x"));
    CHECK(update(cpp_new, cpp_old, policy_kind::cluster_propagation_policy).message ==
          "label clusterpropagationpolicy.karmada.io/permanent-id is immutable, it can only be set by the system "
          "during creation");
    CHECK(update(object_with(bad_spec), old).errors.size() == 1); // unchanged immutables: the spec rules run
}

TEST_CASE("objects that Go cannot decode are undecodable, with encoding/json's message")
{
    CHECK(validate_admission(policy_kind::propagation_policy, admission_operation::create, doc::value(), nullptr, "default", true, {})
              .message == "there is no content to decode");
    CHECK(update(object_with(""), doc::value()).message == "there is no content to decode");
    CHECK(undecodable_message(testing::admission_json(R"("priority":"high")")) ==
          "json: cannot unmarshal string into Go struct field PropagationSpec.spec.priority of type int32");
    CHECK(undecodable_message(testing::admission_json(R"("priority":1.5)")) ==
          "json: cannot unmarshal number 1.5 into Go struct field PropagationSpec.spec.priority of type int32");
    CHECK(undecodable_message(testing::admission_json(R"("priority":3000000000)")) ==
          "json: cannot unmarshal number 3000000000 into Go struct field PropagationSpec.spec.priority of type int32");
    CHECK(undecodable_message(testing::admission_json(R"("placement":{"clusterAffinities":[{"affinityName":7}]})")) ==
          "json: cannot unmarshal number into Go struct field "
          "ClusterAffinityTerm.spec.placement.clusterAffinities.affinityName of type string");
    CHECK(undecodable_message(testing::admission_json(R"("placement":{"clusterAffinity":{"clusterNames":"a"}})")) ==
          "json: cannot unmarshal string into Go struct field ClusterAffinity.spec.placement.clusterAffinity.clusterNames "
          "of type []string");
    CHECK(undecodable_message(testing::admission_json(R"("placement":"x")")) ==
          "json: cannot unmarshal string into Go struct field PropagationSpec.spec.placement of type v1alpha1.Placement");
    CHECK(undecodable_message(testing::admission_json(R"("propagateDeps":"true")")) ==
          "json: cannot unmarshal string into Go struct field PropagationSpec.spec.propagateDeps of type bool");
    // apimachinery reads apiVersion and kind first (json serializer's Interpret), so an object that is no
    // JSON object fails there, in its words (karmada-webhook's answer, tests/conformance/reviews).
    CHECK(undecodable_message("[1]") ==
          "couldn't get version/kind; json parse error: json: cannot unmarshal array into Go value of type "
          R"(struct { APIVersion string "json:\"apiVersion,omitempty\""; Kind string "json:\"kind,omitempty\"" })");
    CHECK(undecodable_message(R"({"metadata":{"labels":{"a":1}}})") ==
          "json: cannot unmarshal number into Go struct field ObjectMeta.metadata.labels of type string");
}

TEST_CASE("admission verdicts carry warnings but warnings never deny")
{
    const auto v = testing::admit_spec(R"("placement":{"clusterAffinity":{"clusterNames":["a","b"],"exclude":["b"]}})");
    CHECK(v.result == outcome::allowed);
    CHECK(testing::warning_ids(v.warnings) == std::vector<std::string>{"cluster-included-and-excluded"});
}
