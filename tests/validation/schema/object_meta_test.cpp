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

// The texts are Go's as kubectl v1.35.3 prints them after "unable to decode FILE: " (checked against the
// loopback plane's kubectl): the document decoded into {TypeMeta; ObjectMeta `json:"metadata"`}.
TEST_CASE("metadata decoded into ObjectMeta: the first Go error, in sorted key order")
{
    struct row {
        std::string name, yaml, at, message;
    };
    const row rows[] = {
        {"a number as a label value", "labels: {b: x, a: 1}", "metadata.labels[a]",
         "json: cannot unmarshal number into Go struct field ObjectMeta.metadata.labels of type string"},
        {"a bool as an annotation value", "annotations: {a: true}", "metadata.annotations[a]",
         "json: cannot unmarshal bool into Go struct field ObjectMeta.metadata.annotations of type string"},
        {"labels as a list", "labels: [a]", "metadata.labels",
         "json: cannot unmarshal array into Go struct field ObjectMeta.metadata.labels of type map[string]string"},
        {"a number as the name", "name: 123", "metadata.name",
         "json: cannot unmarshal number into Go struct field ObjectMeta.metadata.name of type string"},
        {"a finalizer that is no string", "finalizers: [a, {b: 1}]", "metadata.finalizers[1]",
         "json: cannot unmarshal object into Go struct field ObjectMeta.metadata.finalizers of type string"},
        {"a fraction as the generation", "generation: 1.5", "metadata.generation",
         "json: cannot unmarshal number 1.5 into Go struct field ObjectMeta.metadata.generation of type int64"},
        {"metadata that is a string", "just-a-name", "metadata",
         "json: cannot unmarshal string into Go struct field metadataOnlyObject.metadata of type v1.ObjectMeta"},
        {"metadata that is a list", "[name, web]", "metadata",
         "json: cannot unmarshal array into Go struct field metadataOnlyObject.metadata of type v1.ObjectMeta"},
        {"the first error in sorted key order", "labels: {a: 1}\ngeneration: x", "metadata.generation",
         "json: cannot unmarshal string into Go struct field ObjectMeta.metadata.generation of type int64"},
        {"a timestamp that is a number", "creationTimestamp: 5", "metadata.creationTimestamp",
         "json: cannot unmarshal number into Go struct field ObjectMeta.metadata.creationTimestamp of type string"},
        {"a timestamp in another layout", "creationTimestamp: bad", "metadata.creationTimestamp",
         "parsing time \"bad\" as \"2006-01-02T15:04:05Z07:00\": cannot parse \"bad\" as \"2006\""},
        {"a timestamp out of range", "deletionTimestamp: '2020-13-01T00:00:00Z'", "metadata.deletionTimestamp",
         "parsing time \"2020-13-01T00:00:00Z\": month out of range"},
        {"a timestamp with a day February lacks", "creationTimestamp: '2021-02-29T00:00:00Z'",
         "metadata.creationTimestamp", "parsing time \"2021-02-29T00:00:00Z\": day out of range"},
        {"an owner reference member of the wrong type", "ownerReferences: [{controller: x}]",
         "metadata.ownerReferences[0].controller",
         "json: cannot unmarshal string into Go struct field OwnerReference.metadata.ownerReferences.controller of "
         "type bool"},
        {"owner references that are no list", "ownerReferences: 5", "metadata.ownerReferences",
         "json: cannot unmarshal number into Go struct field ObjectMeta.metadata.ownerReferences of type "
         "[]v1.OwnerReference"},
        {"a managed-fields time that is a number", "managedFields: [{time: 3}]", "metadata.managedFields[0].time",
         "json: cannot unmarshal number into Go struct field ManagedFieldsEntry.metadata.managedFields.time of type "
         "string"},
    };
    for (const auto& r : rows) {
        CAPTURE(r.name);
        const auto e = schema::object_meta_type_check(metadata(r.yaml));
        REQUIRE(e);
        CHECK(e->at.str() == r.at);
        CHECK(e->message == r.message);
    }
}

// What kubectl does not check (a List's items) the API server decodes: metadata alone, so the path has no
// "metadata." and a metadata that is no object is a Go value (the conformance oracle's 400s).
TEST_CASE("the API server's reading: metadata alone, its own words, timestamps left to their types")
{
    const auto label = schema::object_meta_type_check(metadata("labels: {a: 1}"), schema::meta_reader::api_server);
    REQUIRE(label);
    CHECK(label->message == "json: cannot unmarshal number into Go struct field ObjectMeta.labels of type string");
    const auto whole = schema::object_meta_type_check(metadata("just-a-name"), schema::meta_reader::api_server);
    REQUIRE(whole);
    CHECK(whole->message == "json: cannot unmarshal string into Go value of type v1.ObjectMeta");
    CHECK_FALSE(schema::object_meta_type_check(metadata("creationTimestamp: bad"), schema::meta_reader::api_server));
}

TEST_CASE("metadata of the right types, or nulls, decodes")
{
    CHECK_FALSE(schema::object_meta_type_check(
        metadata("name: web\nnamespace: shop\nlabels: {a: '1', b: null}\nfinalizers: [x]\ngeneration: 3\nuid: null\n"
                 "creationTimestamp: '2024-02-29T23:59:59.5+08:00'\nmanagedFields: [{fieldsV1: 3}]")));
    CHECK_FALSE(schema::object_meta_type_check(metadata("a: not-metadata-at-all")));
}
