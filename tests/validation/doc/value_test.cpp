// SPDX-License-Identifier: Apache-2.0
#include "doc/value.hpp"

#include <string>
#include <utility>

#include <doctest/doctest.h>

using namespace kpw;
using doc::value;

namespace {

value sample()
{
    value m = value::mapping({1, 1});
    m.add("s", value::string("a string longer than the small-string buffer"));
    value list = value::sequence();
    list.push_back(value::integer(-7));
    list.push_back(value::number(1.5, "1.5"));
    list.push_back(value::boolean(true));
    list.push_back(value::null_value());
    m.add("l", std::move(list));
    return m;
}

} // namespace

TEST_CASE("value: copies are deep and equal, moves keep the kind and empty the source")
{
    const value a = sample();
    value b = a;
    CHECK(b == a);
    CHECK(b.pos() == position{1, 1});
    b.find("l")->items()[0] = value::integer(8);
    CHECK_FALSE(b == a);
    CHECK(a.find("l")->items()[0].as_int() == -7);

    value c = std::move(b);
    CHECK(c.find("l")->items()[0].as_int() == 8);
    CHECK(b.is_mapping()); // a moved-from node stays usable
    CHECK(b.members().empty());
}

TEST_CASE("value: a node can be replaced by one of its own descendants")
{
    value v = sample();
    v = std::move(*v.find("l"));
    REQUIRE(v.is_sequence());
    CHECK(v.items().size() == 4);
    CHECK(v.items()[1].text() == "1.5");

    value s = sample();
    s = value(*s.find("s")); // a copy of a descendant
    CHECK(s.text() == "a string longer than the small-string buffer");
}

TEST_CASE("value: accessors of another kind read as empty or zero")
{
    const value v = value::string("x");
    CHECK(v.items().empty());
    CHECK(v.members().empty());
    CHECK(v.find("x") == nullptr);
    CHECK(v.as_int() == 0);
    CHECK(v.as_double() == 0);
    CHECK_FALSE(v.as_bool());
    CHECK(value::mapping().text().empty());
    CHECK(value::integer(3).as_double() == 3);
    CHECK(value::integer(3).text() == "3");
    value m = value::mapping();
    CHECK_FALSE(m.erase("x"));
    m.set("k", value::integer(1));
    m.set("k", value::string("v"));
    CHECK(m.members().size() == 1);
    CHECK(m.string_at("k") == "v");
    CHECK(doc::to_json(sample()) == R"({"s":"a string longer than the small-string buffer","l":[-7,1.5,true,null]})");
}

TEST_CASE("value: assign_string turns a node of any kind into that string in place")
{
    value m = value::mapping();
    m.add("a", value::string(std::string(40, 'x'))); // heap-allocated text inside, freed on replace
    for (value v : {value(), value::integer(7), value::string("old"), value::sequence(), m}) {
        CAPTURE(doc::type_name(v.kind()));
        v.assign_string("a string longer than the small-string buffer");
        CHECK(v.is_string());
        CHECK(v.text() == "a string longer than the small-string buffer");
        CHECK(v.members().empty());
        CHECK(v == value::string("a string longer than the small-string buffer"));
    }
}
