// SPDX-License-Identifier: Apache-2.0
// Kubernetes quantity parsing and karmada's rounding (MilliValue / Value round up).
#include <doctest/doctest.h>

#include "model/quantity.hpp"

using kpw::model::parse_quantity;
using kpw::model::quantity;

namespace {

std::int64_t millis(std::string_view s) { return parse_quantity(s).value().milli_ceil(); }
std::int64_t units(std::string_view s) { return parse_quantity(s).value().value_ceil(); }

} // namespace

TEST_CASE("cpu quantities convert to millicores")
{
    CHECK(millis("16") == 16000);
    CHECK(millis("9500m") == 9500);
    CHECK(millis("0.5") == 500);
    CHECK(millis(".25") == 250);
    CHECK(millis("1.") == 1000);
    CHECK(millis("250000u") == 250);
    CHECK(millis("1e3") == 1'000'000);
    CHECK(millis("1E-3") == 1);
}

TEST_CASE("fractions of a millicore round up, as MilliValue does")
{
    CHECK(millis("0.1m") == 1);
    CHECK(millis("1n") == 1);
    CHECK(millis("1500001n") == 2);
    CHECK(millis("0") == 0);
}

TEST_CASE("memory suffixes: decimal and binary differ")
{
    CHECK(units("100M") == 100'000'000);
    CHECK(units("100Mi") == 104'857'600);
    CHECK(units("1Ki") == 1024);
    CHECK(units("1k") == 1000);
    CHECK(units("64Gi") == 68'719'476'736);
    CHECK(units("1.5Gi") == 1'610'612'736);
    CHECK(units("1Ti") == 1'099'511'627'776);
    CHECK(units("1Ei") == 1'152'921'504'606'846'976);
    CHECK(units("2G") == 2'000'000'000);
}

TEST_CASE("values round up to whole units, as Value does")
{
    CHECK(units("500m") == 1);
    CHECK(units("1001m") == 2);
    CHECK(units("-500m") == 0);
    CHECK(units("110") == 110);
    CHECK(units("+3") == 3);
}

TEST_CASE("exact arithmetic: allocatable minus allocated minus allocating")
{
    auto free = *parse_quantity("16") - *parse_quantity("9500m") - *parse_quantity("500m");
    CHECK(free.milli_ceil() == 6000);
    auto mem = *parse_quantity("64Gi") - *parse_quantity("40Gi") - *parse_quantity("2Gi");
    CHECK(mem == *parse_quantity("22Gi"));
    CHECK(*parse_quantity("1Gi") < *parse_quantity("1.1G"));
}

TEST_CASE("malformed quantities are rejected with apimachinery's error")
{
    using kpw::model::parse_quantity_checked;
    using kpw::model::quantity_error;
    // Go's answers, from resource.ParseQuantity (k8s.io/apimachinery v0.35.3).
    for (auto bad : {"", "abc", "1x", "1KiB", "1.2.3", "1 Gi", "1e3e"})
        CHECK_MESSAGE(parse_quantity_checked(bad).error == quantity_error::format, bad);
    for (auto bad : {"--1", "1e", "e", "1Ee5", "1i", "1ki", "1Ki5", "8KiGi", "1e99999999999999999999"})
        CHECK_MESSAGE(parse_quantity_checked(bad).error == quantity_error::suffix, bad);
}

TEST_CASE("apimachinery's leniencies are read as Karmada reads them")
{
    // A sign, a point or a suffix with no digits is zero; so is a run of zeros.
    for (auto zero : {"+", "-", ".", "+.", "Mi", "e3", "k", "E", "0Mi", "-0", "000"}) {
        auto q = parse_quantity(zero);
        REQUIRE_MESSAGE(q, zero);
        CHECK_MESSAGE(q->is_zero(), zero);
    }
    CHECK(units("1.G") == 1'000'000'000);
    CHECK(units("1E5") == 100'000);
    CHECK(units("1e+3") == 1000);
    CHECK(millis("1e-3") == 1);
    CHECK(units("1e4294967296") == 1); // int32(4294967296) == 0
    CHECK(units("1e4294967299") == 1000);
    CHECK(units("00000000000000000000000000000000000000001") == 1);
    CHECK(millis("0.00000000000000000000000000000000000000001") == 1);
    CHECK(units("0.5Ki") == 512);
    CHECK(units("9Ei") == 9'223'372'036'854'775'807); // binary amounts are capped at MaxInt64
}

TEST_CASE("amounts Karmada reads but lint does not compute with are refused as such")
{
    using kpw::model::parse_quantity_checked;
    using kpw::model::quantity_error;
    for (auto huge : {"1e1000", "123456789012345678901234567890123", "1234567890123456789012345678901234567e-20"})
        CHECK_MESSAGE(parse_quantity_checked(huge).error == quantity_error::beyond_range, huge);
}

TEST_CASE("to_string renders whole units, millis and fractions")
{
    CHECK(to_string(*parse_quantity("2Ki")) == "2048");
    CHECK(to_string(*parse_quantity("1500m")) == "1500m");
    CHECK(to_string(*parse_quantity("1n")) == "0.000000001");
    CHECK(to_string(*parse_quantity("-2")) == "-2");
}
