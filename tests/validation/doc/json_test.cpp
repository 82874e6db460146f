// SPDX-License-Identifier: Apache-2.0
#include "doc/load.hpp"

#include <string>

#include <doctest/doctest.h>

using namespace kpw;

TEST_CASE("json: objects keep member order and scalar types")
{
    auto r = doc::parse_json(R"({"b": 1, "a": [true, null, "x", 1.5, -7, 12345678901234567890]})");
    REQUIRE(r.ok());
    const doc::value& v = *r;
    REQUIRE(v.is_mapping());
    CHECK(v.members()[0].first == "b");
    CHECK(v.find("b")->as_int() == 1);
    const auto& a = v.find("a")->items();
    REQUIRE(a.size() == 6);
    CHECK(a[0].as_bool());
    CHECK(a[1].is_null());
    CHECK(a[2].text() == "x");
    CHECK(a[3].kind() == doc::type::number);
    CHECK(a[4].as_int() == -7);
    CHECK(a[5].kind() == doc::type::number); // beyond int64 stays a number with its text
    CHECK(a[5].text() == "12345678901234567890");
}

TEST_CASE("json: round trip through to_json uses Go escaping")
{
    auto r = doc::parse_json(R"({"m":"<a&b>","n":[1,2]})");
    REQUIRE(r.ok());
    CHECK(doc::to_json(*r) == R"({"m":"\u003ca\u0026b\u003e","n":[1,2]})");
    // Control characters as Go 1.22+ writes them: the five short escapes, \u00XX for the rest.
    auto c = doc::parse_json(R"(["\b\f\n\r\t\u0001\u001f"])");
    REQUIRE(c.ok());
    CHECK(doc::to_json(*c) == R"(["\b\f\n\r\t\u0001\u001f"])");
}

TEST_CASE("json: malformed input is a failure with a position, never a crash")
{
    auto r = doc::parse_json("{\n  \"a\": ,\n}");
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().where.line == 2);
    CHECK(r.error().message.find("invalid JSON") == 0);

    CHECK_FALSE(doc::parse_json("").ok());
    CHECK_FALSE(doc::parse_json("{} trailing").ok());
    CHECK_FALSE(doc::parse_json("{\"a\":\"\xff\"}").ok());
    CHECK_FALSE(doc::parse_json(std::string("{\"a\":\"\0\"}", 9)).ok());
}

TEST_CASE("json: a stray closing bracket first is reported as an empty document")
{
    auto r = doc::parse_json("  ]{}");
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().message == "invalid JSON: The document is empty.");
    CHECK(r.error().where.column == 3);
}

TEST_CASE("json: a raw control byte in a string is refused wherever it falls, an escaped one is not")
{
    // RapidJSON's SSE2 scanner lets some through depending on their 16-byte block: every offset is tried.
    int caught_after_rapidjson = 0;
    for (std::size_t at = 0; at < 40; ++at) {
        std::string text = R"({"name":")" + std::string(40, 'x') + R"("})";
        text[9 + at] = '\x1f';
        CAPTURE(at);
        auto r = doc::parse_json(text);
        REQUIRE_FALSE(r.ok());
        // RapidJSON's own refusal where its scanner sees the byte, the check after it where it does not.
        const std::string& m = r.error().message;
        CHECK((m == "invalid JSON: Invalid escape character in string." || m == "invalid JSON: Invalid encoding in string."));
        caught_after_rapidjson += m == "invalid JSON: Invalid encoding in string." ? 1 : 0;
        CHECK(r.error().where.column == static_cast<int>(10 + at));
    }
    CHECK(caught_after_rapidjson > 0); // the check after the parse is what refuses those
    auto escaped = doc::parse_json(R"({"name":"a\u001fb"})");
    REQUIRE(escaped.ok());
    CHECK(escaped->string_at("name") == "a\x1f" "b");
}

TEST_CASE("json: nesting is bounded, deep input fails at the first bracket too deep")
{
    std::string deep(100000, '[');
    auto r = doc::parse_json(deep);
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().message.find("deeper than 512") != std::string::npos);
    CHECK(r.error().where.column == 513);

    std::string ok_depth = std::string(500, '[') + std::string(500, ']');
    CHECK(doc::parse_json(ok_depth).ok());
}

TEST_CASE("json: a repeated key keeps its last value, as Go's encoding/json does")
{
    auto r = doc::parse_json(R"({"a": 1, "b": 2, "a": 3})");
    REQUIRE(r.ok());
    CHECK(r->members().size() == 2);
    CHECK(r->find("a")->as_int() == 3);

    std::string big = "{";
    for (int i = 0; i < 100; ++i)
        big += "\"k" + std::to_string(i) + "\":" + std::to_string(i) + ",";
    big += "\"k7\":\"last\"}";
    auto b = doc::parse_json(big);
    REQUIRE(b.ok());
    CHECK(b->members().size() == 100);
    CHECK(b->find("k7")->text() == "last");
}

TEST_CASE("json: a repeated key is recorded with its positions where lint reads JSON (load_yaml, load_documents)")
{
    // kubectl decodes JSON into unstructured's map[string]interface{}: the last value wins whole, an object too.
    const std::string text = "{\"a\": {\"x\": 1},\n"
                             " \"items\": [{\"c\": 1, \"c\": {\"d\": 2}}],\n"
                             " \"a\": 3}";
    for (bool documents : {false, true}) {
        CAPTURE(documents);
        auto r = documents ? doc::load_documents(text) : doc::load_yaml(text);
        REQUIRE(r.ok());
        REQUIRE(r->size() == 1);
        const auto& d = (*r)[0];
        CHECK(d.root.find("a")->as_int() == 3);
        CHECK(doc::to_json(*d.root.find("items")) == R"([{"c":{"d":2}}])");
        REQUIRE(d.repeated_keys.size() == 2);
        CHECK(d.repeated_keys[0].path == "items[0].c");
        CHECK(d.repeated_keys[0].key == "c");
        CHECK(d.repeated_keys[0].first == kpw::position{2, 13});
        CHECK(d.repeated_keys[0].again == kpw::position{2, 21});
        CHECK(d.repeated_keys[1].path == "a");
        CHECK(d.repeated_keys[1].first == kpw::position{1, 2});
        CHECK(d.repeated_keys[1].again == kpw::position{3, 2});
    }
    // Without a repeat the fast path keeps its speed (no positions) and records nothing.
    auto plain = doc::load_documents(R"({"a": 1, "b": {"a": 2}})");
    REQUIRE(plain.ok());
    CHECK((*plain)[0].repeated_keys.empty());
    bool repeated = true;
    CHECK(doc::parse_json(R"({"a": 1, "b": {"a": 2}})", {}, {}, &repeated).ok());
    CHECK_FALSE(repeated);
    CHECK(doc::parse_json(R"({"b": {"a": 1, "a": 2}})", {}, {}, &repeated).ok());
    CHECK(repeated);
}

TEST_CASE("json: pruned members are parsed and checked but not stored")
{
    static constexpr doc::json_prune meta[] = {{"managedFields", {}}};
    static constexpr doc::json_prune object[] = {{"metadata", meta}, {"drop", {}}};
    static constexpr doc::json_prune root[] = {{"object", object}, {"user", {}}};
    auto r = doc::parse_json(R"({"user":{"a":[1,{"b":2}]},"object":{"drop":"x","metadata":{"name":"n",)"
                             R"("managedFields":[{"f":{}}]},"keep":[{"metadata":{"managedFields":1}}]},"n":null})",
                             {}, root);
    REQUIRE(r.ok());
    CHECK(doc::to_json(*r) ==
          R"({"object":{"metadata":{"name":"n"},"keep":[{"metadata":{"managedFields":1}}]},"n":null})");

    // A pruned subtree still counts for the depth limit and must still be valid JSON.
    doc::load_limits shallow;
    shallow.max_depth = 3;
    CHECK_FALSE(doc::parse_json(R"({"user":{"a":[[1]]}})", shallow, root).ok());
    CHECK(doc::parse_json(R"({"user":{"a":[1]}})", shallow, root).ok());
    auto bad = doc::parse_json(R"({"user":{"a":[1,]}})", {}, root);
    REQUIRE_FALSE(bad.ok());
    CHECK(bad.error().message.find("invalid JSON") == 0);
}

TEST_CASE("is_clean_utf8: the first bad byte is found at every offset, across the 16- and 8-byte fast paths")
{
    const std::string ascii(47, 'a');
    for (std::size_t at = 0; at < ascii.size(); ++at) {
        CAPTURE(at);
        for (const std::string_view bad : {std::string_view("\0", 1), std::string_view("\x80"), std::string_view("\xc3\x28")}) {
            std::string text = ascii;
            text.replace(at, bad.size(), bad);
            std::size_t where = 12345;
            CHECK_FALSE(doc::is_clean_utf8(text, where));
            CHECK(where == at);
        }
        // A valid 3-byte sequence anywhere, straddling the block boundaries too, is clean.
        if (at + 3 <= ascii.size()) {
            std::string text = ascii;
            text.replace(at, 3, "\xe2\x82\xac");
            std::size_t where = 0;
            CHECK(doc::is_clean_utf8(text, where));
        }
    }
}
