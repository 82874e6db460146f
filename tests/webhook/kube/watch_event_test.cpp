// SPDX-License-Identifier: Apache-2.0
// decode_watch_event: one line of a watch stream, exactly as its header says.
#include "kube/watch_event.hpp"

#include <doctest/doctest.h>

#include <rapidjson/document.h>

using kpw::kube::decode_watch_event;
using kpw::kube::watch_event;

namespace {

bool is_json_object(const std::string& text)
{
    rapidjson::Document d;
    d.Parse(text.c_str(), text.size());
    return !d.HasParseError() && d.IsObject();
}

} // namespace

TEST_CASE("watch_event: ADDED, MODIFIED and DELETED carry namespace, name, resourceVersion and the object")
{
    const struct {
        const char* type;
        watch_event::kind kind;
    } cases[] = {{"ADDED", watch_event::kind::added},
                 {"MODIFIED", watch_event::kind::modified},
                 {"DELETED", watch_event::kind::deleted}};
    for (const auto& c : cases) {
        CAPTURE(c.type);
        const std::string line = std::string(R"({"type":")") + c.type +
                                 R"(","object":{"metadata":{"name":"nginx","namespace":"web","resourceVersion":"42"},"spec":{"replicas":3}}})";
        auto e = decode_watch_event(line);
        REQUIRE(e.ok());
        CHECK(e->type == c.kind);
        CHECK(e->name == "nginx");
        CHECK(e->namespace_ == "web");
        CHECK(e->resource_version == "42");
        CHECK(e->object == R"({"metadata":{"name":"nginx","namespace":"web","resourceVersion":"42"},"spec":{"replicas":3}})");
    }
}

TEST_CASE("watch_event: apiVersion and kind are filled in first when the object lacks them, kept when it has them")
{
    const std::string bare = R"({"type":"ADDED","object":{"metadata":{"name":"member1"},"spec":{}}})";
    auto filled = decode_watch_event(bare, "cluster.karmada.io/v1alpha1", "Cluster");
    REQUIRE(filled.ok());
    CHECK(filled->object ==
          R"({"apiVersion":"cluster.karmada.io/v1alpha1","kind":"Cluster","metadata":{"name":"member1"},"spec":{}})");
    CHECK(filled->namespace_.empty());

    const std::string typed = R"({"type":"ADDED","object":{"kind":"Deployment","apiVersion":"apps/v1","metadata":{"name":"a"}}})";
    auto kept = decode_watch_event(typed, "v1", "Pod");
    REQUIRE(kept.ok());
    CHECK(kept->object == R"({"kind":"Deployment","apiVersion":"apps/v1","metadata":{"name":"a"}})");

    auto not_asked = decode_watch_event(bare);
    REQUIRE(not_asked.ok());
    CHECK(not_asked->object == R"({"metadata":{"name":"member1"},"spec":{}})");
}

TEST_CASE("watch_event: a BOOKMARK carries only the resourceVersion")
{
    auto e = decode_watch_event(R"({"type":"BOOKMARK","object":{"kind":"Cluster","metadata":{"resourceVersion":"1234"}}})");
    REQUIRE(e.ok());
    CHECK(e->type == watch_event::kind::bookmark);
    CHECK(e->resource_version == "1234");
    CHECK(e->name.empty());
    CHECK(e->namespace_.empty());
}

TEST_CASE("watch_event: an ERROR carries the Status's code and message")
{
    auto e = decode_watch_event(
        R"j({"type":"ERROR","object":{"kind":"Status","apiVersion":"v1","status":"Failure","message":"too old resource version: 5 (10)","reason":"Expired","code":410}})j");
    REQUIRE(e.ok());
    CHECK(e->type == watch_event::kind::error);
    CHECK(e->code == 410);
    CHECK(e->message == "too old resource version: 5 (10)");
    CHECK(e->name.empty());
}

TEST_CASE("watch_event: numbers, unicode and a trailing CR survive the round trip")
{
    auto e = decode_watch_event(
        "{\"type\":\"MODIFIED\",\"object\":{\"metadata\":{\"name\":\"x\"},\"n\":18446744073709551615,\"f\":0.1,\"s\":\"caf\xc3\xa9\"}}\r");
    REQUIRE(e.ok());
    CHECK(e->object == "{\"metadata\":{\"name\":\"x\"},\"n\":18446744073709551615,\"f\":0.1,\"s\":\"caf\xc3\xa9\"}");
    CHECK(is_json_object(e->object));
}

TEST_CASE("watch_event: a line that is not an event fails and says what it held")
{
    const struct {
        const char* line;
        const char* says;
    } cases[] = {
        {"not json at all", "is not JSON"},
        {R"({"type":"ADDED","object":{"metadata":{"name":"x"}})", "is not JSON"}, // truncated
        {"", "is not JSON"},
        {"[1,2]", "is an array, not an object"},
        {R"({"object":{"metadata":{"name":"x"}}})", "has no \"type\" string"},
        {R"({"type":7,"object":{}})", "has no \"type\" string"},
        {R"({"type":"RENAMED","object":{"metadata":{"name":"x"}}})", "unknown type \"RENAMED\""},
        {R"({"type":"ADDED"})", "of type ADDED has no object"},
        {R"({"type":"ADDED","object":"x"})", "an object that is a string"},
        {R"({"type":"DELETED","object":{"metadata":{}}})", "without metadata.name"},
        {R"({"type":"MODIFIED","object":{"spec":{}}})", "without metadata.name"},
        {R"({"type":"ADDED","object":{"metadata":{"name":""}}})", "without metadata.name"},
        {R"({"type":"ADDED","object":{"metadata":[]}})", "metadata that is an array"},
        {"{\"type\":\"ADDED\",\"object\":{\"metadata\":{\"name\":\"\xff\"}}}", "is not JSON"}, // invalid UTF-8
    };
    for (const auto& c : cases) {
        CAPTURE(c.line);
        auto e = decode_watch_event(c.line, "v1", "Pod");
        REQUIRE_FALSE(e.ok());
        CHECK(e.error().message.find(c.says) != std::string::npos);
        CHECK(e.error().message.starts_with("a watch event line"));
    }
}
