// SPDX-License-Identifier: Apache-2.0
// admission::response named constructors and warning sanitising.
#include "admission/response.hpp"

#include <doctest/doctest.h>

using namespace kpw::admission;

TEST_CASE("allowed carries code 200 and no status text")
{
    const response r = allowed();
    CHECK(r.allowed);
    CHECK(r.code == 200);
    CHECK(r.reason.empty());
    CHECK(r.message.empty());
}

TEST_CASE("denied response carries 403 and reason Forbidden")
{
    const response r = denied("spec.placement: Invalid value");
    CHECK_FALSE(r.allowed);
    CHECK(r.code == 403);
    CHECK(r.reason == "Forbidden");
    CHECK(r.message == "spec.placement: Invalid value");
}

TEST_CASE("errored keeps the code and has no reason")
{
    const response r = errored(400, "there is no content to decode");
    CHECK_FALSE(r.allowed);
    CHECK(r.code == 400);
    CHECK(r.reason.empty());
}

TEST_CASE("complete gives a zero code the value 200")
{
    response r = allowed();
    r.code = 0;
    CHECK(complete(r).code == 200);
    CHECK(complete(denied("x")).code == 403);
}

TEST_CASE("warnings become single lines without control characters")
{
    const response r = with_warnings(allowed(), {"first\nsecond\tthird", "\x01trimmed \r\n"});
    REQUIRE(r.warnings.size() == 2);
    CHECK(r.warnings[0] == "first second third");
    CHECK(r.warnings[1] == "trimmed");
}

TEST_CASE("warnings are cut at 120 characters without splitting a UTF-8 sequence")
{
    std::string long_ascii(200, 'a');
    std::string long_utf8;
    for (int i = 0; i < 130; ++i)
        long_utf8 += "\xc3\xa9"; // é: 2 bytes, 1 character
    const response r = with_warnings(allowed(), {long_ascii, long_utf8});
    REQUIRE(r.warnings.size() == 2);
    CHECK(r.warnings[0].size() == 120);
    CHECK(r.warnings[1].size() == 240);
    CHECK(r.warnings[1].substr(238) == "\xc3\xa9");
}

TEST_CASE("duplicate and empty warnings are dropped and the count is bounded")
{
    std::vector<std::string> many{"same", "same", "", " \n "};
    for (int i = 0; i < 40; ++i)
        many.push_back(std::to_string(i).insert(0, 1, 'w'));
    const response r = with_warnings(allowed(), many);
    CHECK(r.warnings.size() == max_warnings);
    CHECK(r.warnings[0] == "same");
    CHECK(r.warnings[1] == "w0");
}
