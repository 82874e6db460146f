// SPDX-License-Identifier: Apache-2.0
// Built-in kinds decoded as kube-apiserver decodes them into k8s.io/api's Go types: the texts below are
// the API server's (checked against client-go's decoder by the conformance oracle, which refuses the same
// snapshots: tests/conformance/cases/workload-quantity-unparsable).
#include <string>

#include <doctest/doctest.h>

#include "doc/load.hpp"
#include "schema/go_types.hpp"

using kpw::schema::go_decode_check;
using kpw::schema::is_builtin_kind;

namespace {

kpw::doc::value load(const std::string& yaml)
{
    auto docs = kpw::doc::load_yaml(yaml);
    REQUIRE(docs.ok());
    REQUIRE(docs->size() == 1);
    return std::move((*docs)[0].root);
}

std::string deployment(const std::string& spec)
{
    return "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web, labels: {app: web}}\nspec:\n" + spec;
}

// The error's field path and message, "" when the object decodes.
std::string check(const std::string& yaml)
{
    auto e = go_decode_check(load(yaml));
    return e ? e->at.str() + " | " + e->message : "";
}

} // namespace

TEST_CASE("the table knows the built-in kinds and no custom resource")
{
    CHECK(is_builtin_kind("apps/v1", "Deployment"));
    CHECK(is_builtin_kind("batch/v1", "Job"));
    CHECK(is_builtin_kind("v1", "Pod"));
    CHECK_FALSE(is_builtin_kind("apps/v1", "DeploymentList"));
    CHECK_FALSE(is_builtin_kind("flink.apache.org/v1beta1", "FlinkDeployment"));
    CHECK(check("apiVersion: kubeflow.org/v1\nkind: PyTorchJob\nspec: 5\n").empty());
}

TEST_CASE("an object that decodes passes, unknown fields and nulls included")
{
    CHECK(check(deployment("  replicas: 3\n  unknownField: {a: 1}\n  paused: null\n  template:\n    spec:\n"
                           "      containers: [{name: web, image: nginx, ports: [{containerPort: 80}],\n"
                           "        resources: {requests: {cpu: 250m, memory: 1Gi}, limits: {memory: \"+\"}}}]\n"))
              .empty());
    // go-yaml reads 09 and 3.0 as floats; kubectl writes them as the JSON numbers 9 and 3.
    CHECK(check(deployment("  replicas: 3.0\n  minReadySeconds: 09\n")).empty());
    // Field names are matched case-sensitively: "Replicas" is an unknown field, dropped, not checked.
    CHECK(check(deployment("  Replicas: three\n")).empty());
}

TEST_CASE("type mismatches in encoding/json's words, at the value to edit")
{
    CHECK(check(deployment("  replicas: \"3\"\n")) ==
          "spec.replicas | Deployment in version \"v1\" cannot be handled as a Deployment: json: cannot unmarshal "
          "string into Go struct field DeploymentSpec.spec.replicas of type int32");
    CHECK(check(deployment("  replicas: 1.5\n")).find("cannot unmarshal number 1.5 into Go struct field "
                                                      "DeploymentSpec.spec.replicas of type int32") != std::string::npos);
    CHECK(check(deployment("  replicas: 4294967296\n")).find("number 4294967296") != std::string::npos);
    CHECK(check(deployment("  selector: app\n")).find("Go struct field DeploymentSpec.spec.selector of type "
                                                      "v1.LabelSelector") != std::string::npos);
    CHECK(check(deployment("  template: {spec: {containers: [{name: c, image: 5}]}}\n")) ==
          "spec.template.spec.containers[0].image | Deployment in version \"v1\" cannot be handled as a Deployment: "
          "json: cannot unmarshal number into Go struct field Container.spec.template.spec.containers.image of type "
          "string");
    CHECK(check(deployment("  template: {spec: {nodeSelector: {zone: 1}}}\n"))
              .starts_with("spec.template.spec.nodeSelector[zone] | "));
    CHECK(check("apiVersion: v1\nkind: Service\nmetadata: {name: s}\nspec: {selector: {app: {a: b}}}\n")
              .find("cannot unmarshal object into Go struct field ServiceSpec.spec.selector of type string") !=
          std::string::npos);
}

TEST_CASE("types with their own UnmarshalJSON: quantities, int-or-strings, times, bytes")
{
    CHECK(check(deployment("  template: {spec: {containers: [{name: c, resources: {requests: {memory: 8KiGi}}}]}}\n")) ==
          "spec.template.spec.containers[0].resources.requests[memory] | Deployment in version \"v1\" cannot be "
          "handled as a Deployment: unable to parse quantity's suffix");
    CHECK(check(deployment("  template: {spec: {containers: [{name: c, resources: {limits: {cpu: true}}}]}}\n"))
              .find("quantities must match the regular expression") != std::string::npos);
    CHECK(check(deployment("  strategy: {rollingUpdate: {maxSurge: 25%, maxUnavailable: 1}}\n")).empty());
    CHECK(check(deployment("  strategy: {rollingUpdate: {maxSurge: 1.5}}\n"))
              .find("json: cannot unmarshal number 1.5 into Go struct field "
                    "RollingUpdateDeployment.spec.strategy.rollingUpdate.maxSurge of type int32") != std::string::npos);
    CHECK(check("apiVersion: v1\nkind: Pod\nmetadata: {name: p, creationTimestamp: yesterday}\n")
              .starts_with("metadata.creationTimestamp | Pod in version \"v1\" cannot be handled as a Pod: parsing time"));
    CHECK(check("apiVersion: v1\nkind: Secret\nmetadata: {name: s}\ndata: {k: aGVsbG8=}\n").empty());
    CHECK(check("apiVersion: v1\nkind: Secret\nmetadata: {name: s}\ndata: {k: \"not base64!\"}\n")
              .find("illegal base64 data at input byte") != std::string::npos);
}

TEST_CASE("a type mismatch is saved and the walk goes on; an UnmarshalJSON error ends it")
{
    // Sorted key order: minReadySeconds (a mismatch, saved) before template (a quantity error, fatal).
    const std::string both = deployment("  template: {spec: {containers: [{name: c, resources: {requests: {cpu: x}}}]}}\n"
                                        "  minReadySeconds: soon\n");
    CHECK(check(both).find("quantities must match") != std::string::npos);
    const std::string two = deployment("  minReadySeconds: soon\n  replicas: many\n");
    CHECK(check(two).find("DeploymentSpec.spec.minReadySeconds") != std::string::npos);
}
