// SPDX-License-Identifier: Apache-2.0
// The fields the API server's strict decoding refuses, in its order and with its text.
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "doc/load.hpp"
#include "schema/schema.hpp"

using namespace kpw;

namespace {

doc::value parse(std::string_view yaml)
{
    auto docs = doc::load_yaml(yaml);
    REQUIRE(docs.ok());
    REQUIRE(docs->size() == 1);
    return docs->front().root;
}

const schema::node& pp_schema()
{
    const schema::node* s = schema::crd_schema("PropagationPolicy");
    REQUIRE(s != nullptr);
    return *s;
}

std::vector<std::string> api_paths(const std::vector<schema::unknown_field>& fields)
{
    std::vector<std::string> out;
    for (const auto& f : fields)
        out.push_back(f.api_path);
    return out;
}

const char* head = "apiVersion: policy.karmada.io/v1alpha1\nkind: PropagationPolicy\n";

} // namespace

TEST_CASE("a policy the CRD fully describes has no unknown field")
{
    const auto v = parse(std::string(head) +
                         "metadata: {name: p, namespace: d, labels: {a: b}, annotations: {c: d}}\n"
                         "spec:\n  resourceSelectors: [{apiVersion: v1, kind: Secret, name: x}]\n"
                         "  placement:\n    clusterAffinity: {clusterNames: [m1]}\n"
                         "    replicaScheduling: {replicaSchedulingType: Divided}\n");
    CHECK(schema::unknown_fields(pp_schema(), v).empty());
}

TEST_CASE("metadata's unknown fields come first in key order, then the pruned ones sorted as strings")
{
    const auto v = parse(std::string(head) +
                         "zzz: 1\n"
                         "metadata:\n  name: p\n  uid2: x\n  ownerReferences: [{name: o, kidn: K}]\n  Labels: {}\n"
                         "spec:\n  resourceSelectors: [{apiVersion: v1, kind: Secret, nmae: x}]\n"
                         "  placement: {clusterAfinity: {}}\n  aaa: 1\n");
    const auto found = schema::unknown_fields(pp_schema(), v);
    CHECK(api_paths(found) == std::vector<std::string>{"metadata.Labels", "metadata.ownerReferences[0].kidn",
                                                       "metadata.uid2", "spec.aaa", "spec.placement.clusterAfinity",
                                                       "spec.resourceSelectors[0].nmae", "zzz"});
    // Our own paths (for positions) name the same fields.
    REQUIRE(found.size() == 7);
    CHECK(found[1].at.str() == "metadata.ownerReferences[0].kidn");
    CHECK(found[5].at.str() == "spec.resourceSelectors[0].nmae");
}

TEST_CASE("pruning sorts indices as text, as Go's sort.Strings does")
{
    std::string items;
    for (int i = 0; i < 11; ++i)
        items += "{apiVersion: v1, kind: Secret" + std::string(i == 2 || i == 10 ? ", x: 1" : "") + "}, ";
    const auto v = parse(std::string(head) + "metadata: {name: p}\nspec:\n  resourceSelectors: [" + items + "]\n");
    CHECK(api_paths(schema::unknown_fields(pp_schema(), v)) ==
          std::vector<std::string>{"spec.resourceSelectors[10].x", "spec.resourceSelectors[2].x"});
}

TEST_CASE("a mapping where the schema wants a scalar or a list has only unknown members")
{
    const auto v = parse(std::string(head) + "metadata: {name: p}\n"
                                             "spec:\n  schedulerName: {b: 1, a: 2}\n  resourceSelectors: {kind: x}\n"
                                             "  placement: {clusterAffinity: {clusterNames: [{c: 1}]}}\n");
    CHECK(api_paths(schema::unknown_fields(pp_schema(), v)) ==
          std::vector<std::string>{"spec.placement.clusterAffinity.clusterNames[0].c", "spec.resourceSelectors.kind",
                                   "spec.schedulerName.a", "spec.schedulerName.b"});
}

TEST_CASE("null members are not sent by kubectl apply and so never unknown; no descent below an unknown field")
{
    const auto v = parse(std::string(head) + "metadata: {name: p, lables: null}\n"
                                             "spec:\n  propagatDeps: null\n  placement: {clusterAfinity: {x: {y: 1}}}\n");
    CHECK(api_paths(schema::unknown_fields(pp_schema(), v)) ==
          std::vector<std::string>{"spec.placement.clusterAfinity"});
}

TEST_CASE("the BadRequest text is the API server's, several fields joined by \", \"")
{
    const auto v = parse(std::string(head) + "metadata: {name: p}\nspec: {placement: {clusterAfinity: {}}, b: 1}\n");
    const auto found = schema::unknown_fields(pp_schema(), v);
    CHECK(schema::strict_decoding_message("PropagationPolicy", "v1alpha1", found) ==
          "PropagationPolicy in version \"v1alpha1\" cannot be handled as a PropagationPolicy: strict decoding "
          "error: unknown field \"spec.b\", unknown field \"spec.placement.clusterAfinity\"");
    CHECK(schema::strict_decoding_message("ClusterPropagationPolicy", "v1alpha1", {found[1]}) ==
          "ClusterPropagationPolicy in version \"v1alpha1\" cannot be handled as a ClusterPropagationPolicy: strict "
          "decoding error: unknown field \"spec.placement.clusterAfinity\"");
}

TEST_CASE("--validate takes kubectl's values, true and false included")
{
    CHECK(schema::parse_field_validation("strict") == schema::field_validation::strict);
    CHECK(schema::parse_field_validation("true") == schema::field_validation::strict);
    CHECK(schema::parse_field_validation("warn") == schema::field_validation::warn);
    CHECK(schema::parse_field_validation("ignore") == schema::field_validation::ignore);
    CHECK(schema::parse_field_validation("false") == schema::field_validation::ignore);
    CHECK_FALSE(schema::parse_field_validation("Strict").has_value());
    CHECK_FALSE(schema::parse_field_validation("").has_value());
}
