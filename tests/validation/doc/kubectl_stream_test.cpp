// SPDX-License-Identifier: Apache-2.0
// A file cut into documents as kubectl's YAMLOrJSONDecoder cuts it: JSON values first when the stream
// starts with '{', YAML after the JSON decoder fails on fewer than two values.
#include <string>

#include <doctest/doctest.h>

#include "doc/load.hpp"

using namespace kpw;

TEST_CASE("a stream starting with '{' is JSON to kubectl, within its first 4 KiB of spaces")
{
    CHECK(doc::kubectl_reads_json("{\"a\": 1}"));
    CHECK(doc::kubectl_reads_json(" \n\t\u00a0{\"a\": 1}"));
    CHECK_FALSE(doc::kubectl_reads_json("\xEF\xBB\xBF{\"a\": 1}")); // a BOM is no space
    CHECK_FALSE(doc::kubectl_reads_json(std::string(4096, ' ') + "{}"));
    CHECK_FALSE(doc::kubectl_reads_json("a: {}"));
}

TEST_CASE("JSON is read as JSON: a line break before a key's colon is only whitespace")
{
    // yaml-cpp (and go-yaml) refuse an implicit key whose ':' is on a later line; Go's JSON decoder does not.
    auto r = doc::load_yaml("{\"kind\": \"X\", \"k\"\n\n: \"v\",\n \"n\": [1, 2]}\n");
    REQUIRE(r.ok());
    REQUIRE(r->size() == 1);
    const doc::value& v = (*r)[0].root;
    CHECK(v.find("k")->text() == "v");
    CHECK(v.find("k")->key_pos() == position{1, 15});
    CHECK(v.find("k")->pos() == position{3, 3});
    CHECK(v.find("n")->items()[1].pos() == position{4, 11});
}

TEST_CASE("consecutive JSON values are documents, numbered in order; a null is skipped")
{
    auto r = doc::load_yaml("{\"a\": 1}{\"b\": 2}\nnull {\"c\": 3}");
    REQUIRE(r.ok());
    REQUIRE(r->size() == 3);
    CHECK((*r)[1].root.find("b")->as_int() == 2);
    CHECK((*r)[2].root.find("c")->as_int() == 3);
    CHECK((*r)[2].index == 2);
    CHECK((*r)[2].root.pos() == position{2, 6});
}

TEST_CASE("after one JSON value the rest is YAML, from the next line or the next non-space")
{
    auto r = doc::load_yaml("{\"a\": 1}\n---\nkind: X\nname: y\n");
    REQUIRE(r.ok());
    REQUIRE(r->size() == 2);
    CHECK((*r)[1].root.find("name")->pos() == position{4, 7});
    CHECK((*r)[1].index == 1);
    // The JSON object followed by text: kubectl decodes "s]}m" as a YAML document of its own (a string).
    auto trailing = doc::load_yaml("{\"a\": {}}s]}m");
    REQUIRE(trailing.ok());
    REQUIRE(trailing->size() == 2);
    CHECK(trailing->at(1).root.text() == "s]}m");
    CHECK(trailing->at(1).root.pos() == position{1, 10});
}

TEST_CASE("a failure after two JSON values is the file's error")
{
    auto r = doc::load_yaml("{\"a\": 1}\n{\"b\": 2}\nkind: X\n");
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().where == position{3, 1});
    CHECK(r.error().message.find("after 2 JSON values") != std::string::npos);
}

TEST_CASE("a YAML flow mapping is not JSON: the whole stream is YAML")
{
    auto r = doc::load_yaml("{kind: X, name: y}\n---\n{kind: Z}\n");
    REQUIRE(r.ok());
    REQUIRE(r->size() == 2);
    CHECK((*r)[1].root.find("kind")->text() == "Z");
}

TEST_CASE("a control character in a JSON string fails the JSON decoder, then go-yaml")
{
    CHECK(doc::control_in_json_string("{\"a\": \"x\x1ay\"}") == std::optional<std::size_t>(8));
    CHECK_FALSE(doc::control_in_json_string("{\"a\": \"x\\\"\x20y\"}\n\t"));
    CHECK_FALSE(doc::load_yaml("{\"a\": \"x\x1ay\"}").ok());
    CHECK_FALSE(doc::load_documents("{\"a\": \"x\x1ay\"}").ok());
}

TEST_CASE("kubectl_readable_head: the whole documents kubectl sends before one that does not parse")
{
    using kpw::doc::kubectl_readable_head;
    const std::string good = "a: 1\n---\nb: 2\n";
    const std::string bad = "---\nc: [\n";
    CHECK(kubectl_readable_head(good + bad) == good.size());
    CHECK(kubectl_readable_head("c: [\n") == 0); // the first document: nothing before it
    CHECK(kubectl_readable_head("a: 1\n--- # next\nc: [\n") == 5); // a comment may follow the separator
    CHECK(kubectl_readable_head("a: 1\n--- c: [\n") == 0); // not YAMLReader's separator: one document
    // A JSON stream: the values Go's decoder read before it failed, and the YAML after one value.
    CHECK(kubectl_readable_head("{\"a\": 1}\n---\nc: [\n") == 8);
    CHECK(kubectl_readable_head("{\"a\": 1}},\"b\": 2}") == 8);
    CHECK(kubectl_readable_head("{\"a\": 1}\n---\nb: 2\n---\nc: [\n") == 18);
    CHECK(kubectl_readable_head("{\"a\": 1} {\"b\": 2} ,") == 17); // after two values, JSON's own error
    CHECK_FALSE(doc::load_yaml("{\"a\": 1} {\"b\": 2} ,"));
    CHECK(doc::load_yaml(std::string_view("{\"a\": 1} {\"b\": 2} ,").substr(0, 17))->size() == 2);
    CHECK(kubectl_readable_head("{\"a\": [1,\n") == 0); // the first value: nothing before it
    // Bisection finds the last good head among many documents.
    std::string many;
    for (int i = 0; i < 50; ++i) {
        many += 'k';
        many += std::to_string(i); // appended piece by piece: GCC 12's -Wrestrict misreads operator+ chains
        many += ": v\n---\n";
    }
    CHECK(kubectl_readable_head(many + "c: [\n") == many.size() - 4);
}
