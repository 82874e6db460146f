// SPDX-License-Identifier: Apache-2.0
// Quantities keep their notation, and the API server's canonical text decides what a client reads back.
#include <doctest/doctest.h>

#include "model/quantity.hpp"

using namespace kpw::model;

namespace {

quantity q(std::string_view text)
{
    auto parsed = parse_quantity(text);
    REQUIRE(parsed.has_value());
    return *parsed;
}

} // namespace

TEST_CASE("parsing records the notation of the suffix")
{
    CHECK(q("2Gi").notation() == notation::binary_si);
    CHECK(q("2G").notation() == notation::decimal_si);
    CHECK(q("500m").notation() == notation::decimal_si);
    CHECK(q("16").notation() == notation::decimal_si);
    CHECK(q("1e3").notation() == notation::decimal_exponent);
    CHECK(q("0.5Ki").notation() == notation::binary_si); // 512: not below 1
    CHECK(q("0.0001Ki").notation() == notation::decimal_si); // ParseQuantity: a binary amount below 1
}

TEST_CASE("equality ignores the notation; arithmetic keeps the left operand's unless it is zero")
{
    CHECK(q("1Ki") == q("1024"));
    CHECK((q("128Gi") - q("32G")).notation() == notation::binary_si);
    CHECK((quantity{} + q("1Gi")).notation() == notation::binary_si);
}

TEST_CASE("the stored notation follows CanonicalizeBytes")
{
    CHECK(stored_notation(q("65776576Ki")) == notation::binary_si);
    CHECK(stored_notation(q("1.5Ki")) == notation::decimal_si);   // 1536: no binary suffix fits
    CHECK(stored_notation(q("1000Ki")) == notation::binary_si);   // 1024000 = 1000Ki
    CHECK(stored_notation(q("512")) == notation::decimal_si);
    CHECK(stored_notation(q("0Gi")) == notation::decimal_si);
    CHECK(stored_notation(q("0.5Ki")) == notation::decimal_si);   // below 1024
}

TEST_CASE("canonical text is what the API server writes")
{
    CHECK(canonical_text(q("1.5Gi")) == "1536Mi");
    CHECK(canonical_text(q("2048m")) == "2048m");
    CHECK(canonical_text(q("2000m")) == "2");
    CHECK(canonical_text(q("2e9")) == "2e9");
    CHECK(canonical_text(q("2000000000")) == "2G");
    CHECK(canonical_text(quantity::from_int(2'000'000'000).with_notation(notation::binary_si)) == "1953125Ki");
    CHECK(canonical_text(quantity::from_int(1'500'000'000).with_notation(notation::binary_si)) == "1500M");
    CHECK(canonical_text(q("-300m")) == "-300m");
    CHECK(canonical_text(quantity{}) == "0");
}
