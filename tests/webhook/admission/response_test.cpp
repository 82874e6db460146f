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

TEST_CASE("a warning of up to max_warning_chars characters passes whole")
{
    std::string words;
    while (words.size() + 5 <= max_warning_chars)
        words += "word ";
    words += std::string(max_warning_chars - words.size(), 'x');
    REQUIRE(words.size() == max_warning_chars);
    const response r = with_warnings(allowed(), {words});
    REQUIRE(r.warnings.size() == 1);
    CHECK(r.warnings[0] == words);
}

TEST_CASE("a longer warning is cut at a space and ends with an ellipsis")
{
    std::string words;
    while (words.size() < 2 * max_warning_chars)
        words += "seven. ";
    const response r = with_warnings(allowed(), {words});
    REQUIRE(r.warnings.size() == 1);
    const std::string& w = r.warnings[0];
    REQUIRE(w.ends_with("seven.\xe2\x80\xa6"));
    CHECK(w.size() - 3 + 1 <= max_warning_chars); // bytes = characters but for the 3-byte ellipsis
    CHECK(w.size() - 3 + 1 > max_warning_chars - 7); // no more than a word's room lost
    CHECK(words.starts_with(w.substr(0, w.size() - 3)));
}

TEST_CASE("a long token is cut hard, without splitting a UTF-8 sequence")
{
    std::string long_ascii(max_warning_chars + 80, 'a');
    std::string long_utf8 = "x ";
    for (std::size_t i = 0; i < max_warning_chars + 10; ++i)
        long_utf8 += "\xc3\xa9"; // é: 2 bytes, 1 character
    const response r = with_warnings(allowed(), {long_ascii, long_utf8});
    REQUIRE(r.warnings.size() == 2);
    CHECK(r.warnings[0] == std::string(max_warning_chars - 1, 'a') + "\xe2\x80\xa6");
    // "x " then max_warning_chars - 3 é and the ellipsis: the early space is too far back to cut at.
    CHECK(r.warnings[1].size() == 2 + 2 * (max_warning_chars - 3) + 3);
    CHECK(r.warnings[1].ends_with("\xc3\xa9\xe2\x80\xa6"));
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
