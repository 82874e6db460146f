// SPDX-License-Identifier: Apache-2.0
#include "schema/object_meta.hpp"

#include <string>

#include <doctest/doctest.h>

#include "doc/load.hpp"

using namespace kpw;

namespace {
doc::value metadata(const std::string& yaml)
{
    auto docs = doc::load_yaml(yaml);
    REQUIRE(docs);
    REQUIRE(docs->size() == 1);
    return (*docs)[0].root;
}
} // namespace

// The texts are encoding/json's, as karmada-apiserver returns them (the conformance oracle:
// "json: cannot unmarshal number into Go struct field ObjectMeta.labels of type string").
TEST_CASE("metadata decoded into ObjectMeta: the first Go type error, in sorted key order")
{
    struct row {
        std::string name, yaml, at, message;
    };
    const row rows[] = {
        {"a number as a label value", "labels: {b: x, a: 1}", "metadata.labels[a]",
         "json: cannot unmarshal number into Go struct field ObjectMeta.labels of type string"},
        {"a bool as an annotation value", "annotations: {a: true}", "metadata.annotations[a]",
         "json: cannot unmarshal bool into Go struct field ObjectMeta.annotations of type string"},
        {"labels as a list", "labels: [a]", "metadata.labels",
         "json: cannot unmarshal array into Go struct field ObjectMeta.labels of type map[string]string"},
        {"a number as the name", "name: 123", "metadata.name",
         "json: cannot unmarshal number into Go struct field ObjectMeta.name of type string"},
        {"a finalizer that is no string", "finalizers: [a, {b: 1}]", "metadata.finalizers[1]",
         "json: cannot unmarshal object into Go struct field ObjectMeta.finalizers of type string"},
        {"a fraction as the generation", "generation: 1.5", "metadata.generation",
         "json: cannot unmarshal number 1.5 into Go struct field ObjectMeta.generation of type int64"},
        {"metadata that is a string", "just-a-name", "metadata",
         "json: cannot unmarshal string into Go value of type v1.ObjectMeta"},
        {"metadata that is a list", "[name, web]", "metadata",
         "json: cannot unmarshal array into Go value of type v1.ObjectMeta"},
        {"annotations are decoded before labels", "labels: {a: 1}\nannotations: {b: 2}", "metadata.annotations[b]",
         "json: cannot unmarshal number into Go struct field ObjectMeta.annotations of type string"},
    };
    for (const auto& r : rows) {
        CAPTURE(r.name);
        const auto e = schema::object_meta_type_check(metadata(r.yaml));
        REQUIRE(e);
        CHECK(e->at.str() == r.at);
        CHECK(e->message == r.message);
    }
}

TEST_CASE("metadata of the right types, or nulls, decodes")
{
    CHECK_FALSE(schema::object_meta_type_check(
        metadata("name: web\nnamespace: shop\nlabels: {a: '1', b: null}\nfinalizers: [x]\ngeneration: 3\nuid: null")));
    CHECK_FALSE(schema::object_meta_type_check(metadata("a: not-metadata-at-all")));
}
