// SPDX-License-Identifier: Apache-2.0
// karmadactl taint syntax: parsing, kubectl's errors, and the resulting cluster taints.
#include <doctest/doctest.h>

#include "controllers/taint_syntax.hpp"

using namespace kpw;
using controllers::parse_taint_spec;

TEST_CASE("add specs parse into key, value and effect")
{
    auto a = parse_taint_spec("maintenance=true:NoExecute");
    REQUIRE(a.ok());
    CHECK_FALSE(a->remove);
    CHECK(a->taint == model::taint{"maintenance", "true", "NoExecute"});
    auto b = parse_taint_spec("example.com/dedicated:NoSchedule");
    REQUIRE(b.ok());
    CHECK(b->taint == model::taint{"example.com/dedicated", "", "NoSchedule"});
}

TEST_CASE("removal specs: KEY- removes every effect, KEY:EFFECT- one, a value is dropped")
{
    auto key = parse_taint_spec("maintenance-");
    REQUIRE(key.ok());
    CHECK(key->remove);
    CHECK(key->taint == model::taint{"maintenance", "", ""});
    auto effect = parse_taint_spec("maintenance=true:NoExecute-");
    REQUIRE(effect.ok());
    CHECK(effect->taint == model::taint{"maintenance", "", "NoExecute"});
}

TEST_CASE("malformed specs fail with kubectl's texts")
{
    CHECK(parse_taint_spec("maintenance").error().message == "invalid taint spec: maintenance");
    CHECK(parse_taint_spec("a:b:c").error().message == "invalid taint spec: a:b:c");
    CHECK(parse_taint_spec("a=b=c:NoSchedule").error().message == "invalid taint spec: a=b=c:NoSchedule");
    CHECK(parse_taint_spec("a:Never").error().message == "invalid taint effect: Never, unsupported taint effect");
    CHECK(parse_taint_spec("a:").error().message == "invalid taint effect: , unsupported taint effect");
    CHECK(parse_taint_spec("bad key:NoSchedule").error().message.starts_with(
        "invalid taint spec: bad key:NoSchedule, name part must consist of alphanumeric characters"));
    CHECK(parse_taint_spec("a=bad value:NoSchedule").error().message.starts_with(
        "invalid taint spec: a=bad value:NoSchedule, a valid label must be"));
    CHECK_FALSE(parse_taint_spec("-").ok());
}

TEST_CASE("applying: the new taint first, NoExecute stamped, duplicates and missing taints refused")
{
    model::cluster c;
    c.name = "idc-east-1";
    c.taints = {{"dedicated", "gpu", "NoSchedule"}};
    auto added = controllers::apply_taint_change(c, *parse_taint_spec("maintenance=true:NoExecute"), 1000);
    REQUIRE(added.ok());
    REQUIRE(added->size() == 2);
    CHECK((*added)[0].key == "maintenance");
    CHECK((*added)[0].time_added == 1000);
    CHECK((*added)[1].key == "dedicated");
    CHECK_FALSE((*added)[1].time_added.has_value());

    auto again = controllers::apply_taint_change(c, *parse_taint_spec("dedicated=cpu:NoSchedule"), 1000);
    CHECK(again.error().message == "cluster idc-east-1 already has dedicated taint(s) with same effect(s) and "
                                   "--overwrite is false");
    auto missing = controllers::apply_taint_change(c, *parse_taint_spec("maintenance:NoExecute-"), 1000);
    CHECK(missing.error().message == "taint \"maintenance:NoExecute\" not found");
    auto removed = controllers::apply_taint_change(c, *parse_taint_spec("dedicated-"), 1000);
    REQUIRE(removed.ok());
    CHECK(removed->empty());
    auto prefer = controllers::apply_taint_change(c, *parse_taint_spec("a:PreferNoSchedule"), 1000);
    CHECK(prefer.error().message == "spec.taints[0].effect: Unsupported value: \"PreferNoSchedule\": supported "
                                    "values: \"NoSchedule\", \"NoExecute\"");
}
