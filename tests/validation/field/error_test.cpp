// SPDX-License-Identifier: Apache-2.0
#include "field/error.hpp"

#include <doctest/doctest.h>

namespace field = kpw::field;
using field::path;

TEST_CASE("each reason renders its body the apimachinery way")
{
    const path p = path::root("spec").child("placement");
    CHECK(field::required(path::root("spec")).str() == "spec: Required value");
    CHECK(field::invalid(p, "-1", "must be greater than 0").str() ==
          "spec.placement: Invalid value: -1: must be greater than 0");
    CHECK(field::not_supported(p.child("replicaScheduling").child("replicaSchedulingType"), field::go_quote("X"),
                               {"Duplicated", "Divided"})
              .str() == "spec.placement.replicaScheduling.replicaSchedulingType: Unsupported value: \"X\": "
                        "supported values: \"Duplicated\", \"Divided\"");
    CHECK(field::too_long(path::root("n"), 32).str() == "n: Too long: may not be more than 32 bytes");
    CHECK(field::type_invalid(path::root("spec").child("priority"), "\"string\"",
                              "spec.priority in body must be of type integer: \"string\"")
              .str() == "spec.priority: Invalid value: \"string\": spec.priority in body must be of type integer: "
                        "\"string\"");
    CHECK(field::wire_name(field::reason::not_supported) == "FieldValueNotSupported");
    CHECK(field::wire_name(field::reason::type_invalid) == "FieldValueTypeInvalid");
}

TEST_CASE("an error without a field renders its body alone")
{
    field::error e{field::reason::forbidden, "", "", "the schedulerName should not be updated"};
    CHECK(e.str() == "Forbidden: the schedulerName should not be updated");
}

TEST_CASE("aggregate: one error bare, several bracketed, duplicates dropped in place")
{
    const auto a = field::invalid(path::root("a"), "1", "x");
    const auto b = field::invalid(path::root("b"), "2", "y");
    CHECK(field::aggregate({}) == "");
    CHECK(field::aggregate({a}) == "a: Invalid value: 1: x");
    CHECK(field::aggregate({a, b}) == "[a: Invalid value: 1: x, b: Invalid value: 2: y]");
    CHECK(field::aggregate({a, b, a}) == "[a: Invalid value: 1: x, b: Invalid value: 2: y]");
    CHECK(field::aggregate({a, a}) == "a: Invalid value: 1: x");
}

TEST_CASE("go_quote follows strconv.Quote")
{
    CHECK(field::go_quote("abc") == "\"abc\"");
    CHECK(field::go_quote("a\"b\\c") == "\"a\\\"b\\\\c\"");
    CHECK(field::go_quote("tab\there\n") == "\"tab\\there\\n\"");
    CHECK(field::go_quote(std::string("\x01", 1)) == "\"\\x01\"");
    CHECK(field::go_quote("\xff") == "\"\\xff\"");
    CHECK(field::go_quote("d\xc3\xa9j\xc3\xa0") == "\"d\xc3\xa9j\xc3\xa0\""); // printable UTF-8 kept
    CHECK(field::go_quote("\xe2\x80\xa8") == "\"\\u2028\"");
}

TEST_CASE("located keeps Karmada's field and text and only adds where to point")
{
    const path list = path::root("spec").child("placement").child("clusterAffinities");
    const auto plain = field::invalid(list, "[]", "each affinity term in a policy must have a unique name");
    CHECK(plain.locate_at.empty());
    const auto e = field::located(plain, list.index(1).child("affinityName"));
    CHECK(e.str() == plain.str());
    CHECK(e.field == "spec.placement.clusterAffinities");
    CHECK(e.locate_at == "spec.placement.clusterAffinities[1].affinityName");
    CHECK_FALSE(e.locate_key);
    CHECK(field::located(plain, path::root("metadata").child("labels").key("a/b/c"), true).locate_key);
}
