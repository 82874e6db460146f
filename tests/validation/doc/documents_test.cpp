// SPDX-License-Identifier: Apache-2.0
#include "doc/load.hpp"

#include <doctest/doctest.h>

using namespace kpw;

TEST_CASE("load_documents: one JSON object goes through RapidJSON, one document without node positions")
{
    auto r = doc::load_documents("\n  {\"kind\": \"List\", \"items\": [{\"a\": 1}]}\n");
    REQUIRE(r.ok());
    REQUIRE(r->size() == 1);
    const doc::document& d = r->front();
    CHECK(d.index == 0);
    CHECK(d.start == position{2, 3});
    // The YAML loader positions every node; RapidJSON's path has none, which is how it is told apart.
    CHECK_FALSE(d.root.find("kind")->pos().known());
    CHECK(d.root.find("items")->items()[0].find("a")->as_int() == 1);
}

TEST_CASE("load_documents: a YAML stream, or JSON that RapidJSON rejects, goes through the YAML loader")
{
    auto stream = doc::load_documents("a: 1\n---\nb: 2\n");
    REQUIRE(stream.ok());
    REQUIRE(stream->size() == 2);
    CHECK(stream->back().root.find("b")->pos() == position{3, 4});

    // YAML flow style is not JSON: the YAML loader reads it, with positions.
    auto flow = doc::load_documents("{a: 1, b: [x]}");
    REQUIRE(flow.ok());
    CHECK(flow->front().root.find("a")->pos().known());

    // Two JSON objects (a stream, not one object) are YAML's to read too.
    auto two = doc::load_documents("{\"a\": 1}\n---\n{\"b\": 2}\n");
    REQUIRE(two.ok());
    CHECK(two->size() == 2);
}

TEST_CASE("load_documents: text that neither loader reads fails with the YAML loader's position")
{
    auto r = doc::load_documents("{\"a\": [1, 2}\n");
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().where.known());
    CHECK_FALSE(r.error().message.empty());
}

TEST_CASE("list_items: an object with a sequence of items is a List, whatever its kind (as kubectl reads it)")
{
    auto items_of = [](const char* json) {
        auto v = doc::parse_json(json);
        REQUIRE(v.ok());
        const doc::value* items = doc::list_items(*v);
        return items == nullptr ? -1 : static_cast<int>(items->items().size());
    };
    CHECK(items_of(R"({"kind":"List","items":[{},{}]})") == 2);
    CHECK(items_of(R"({"kind":"ClusterList","items":[]})") == 0);
    CHECK(items_of(R"({"kind":"Cluster","items":[{}]})") == 1); // unstructuredJSONScheme.decode: "items" decides
    CHECK(items_of(R"({"kind":"List","items":{"a":1}})") == -1);
    CHECK(items_of(R"({"kind":"List"})") == -1);
    CHECK(items_of(R"([{"kind":"List","items":[]}])") == -1);
}

TEST_CASE("load_yaml: a piece yaml-cpp reads as two documents keeps the pieces after it numbered by their lines")
{
    // The first piece dedents below its first key: yaml-cpp ends the document there and reads "spec:" as a
    // second one; kubectl reads only the piece's first document. The next piece is document 1 by its lines
    // (as the conformance oracle numbers it), not 2 by yaml-cpp's count.
    auto r = doc::load_yaml("    app: x\nspec:\n  a: b\n---\nkind: K\n");
    REQUIRE(r.ok());
    REQUIRE(r->size() == 2);
    CHECK((*r)[0].index == 0);
    CHECK((*r)[1].index == 1);
    CHECK((*r)[1].root.string_at("kind") == "K");
}
