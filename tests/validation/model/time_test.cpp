// SPDX-License-Identifier: Apache-2.0
// RFC3339 times and Go durations, as the API server and Go's time package read and print them.
#include <doctest/doctest.h>

#include "model/time.hpp"

using namespace kpw;

TEST_CASE("RFC3339 parses to Unix seconds and formats back in UTC")
{
    CHECK(model::parse_rfc3339("1970-01-01T00:00:00Z") == 0);
    CHECK(model::parse_rfc3339("2026-08-20T09:00:01Z") == 1787216401);
    CHECK(model::format_rfc3339(1787216401) == "2026-08-20T09:00:01Z");
    CHECK(model::parse_rfc3339("2026-08-20T11:00:01+02:00") == 1787216401);
    CHECK(model::parse_rfc3339("2026-08-20T09:00:01.999Z") == 1787216401);
    CHECK(model::parse_rfc3339("2024-02-29T00:00:00Z").has_value());
    CHECK(model::format_rfc3339(-1) == "1969-12-31T23:59:59Z");
    for (auto t : {model::timestamp{951782400}, model::timestamp{4102444799}})
        CHECK(model::parse_rfc3339(model::format_rfc3339(t)) == t);
}

TEST_CASE("text that is not RFC3339 or names no real instant does not parse")
{
    for (const char* bad : {"", "2026-08-20", "2026-08-20 09:00:01Z", "2026-08-20T09:00:01", "2025-02-29T00:00:00Z",
                            "2026-13-01T00:00:00Z", "2026-08-20T24:00:00Z", "2026-08-20T09:60:00Z",
                            "2026-08-20T09:00:01+2:00", "2026-08-20T09:00:01.Z", "2026-08-20T09:00:01Zjunk"})
        CHECK_MESSAGE(!model::parse_rfc3339(bad).has_value(), bad);
}

TEST_CASE("Go durations parse with Go's units and errors, and whole seconds print as Go prints them")
{
    CHECK(*model::parse_go_duration("300s") == 300'000'000'000);
    CHECK(*model::parse_go_duration("1h30m") == 5'400'000'000'000);
    CHECK(*model::parse_go_duration("1.5h") == 5'400'000'000'000);
    CHECK(*model::parse_go_duration("0") == 0);
    CHECK(*model::parse_go_duration("-5m") == -300'000'000'000);
    CHECK(model::parse_go_duration("10").error().message == "time: missing unit in duration \"10\"");
    CHECK(model::parse_go_duration("1d").error().message == "time: unknown unit \"d\" in duration \"1d\"");
    CHECK(model::parse_go_duration("abc").error().message == "time: invalid duration \"abc\"");
    CHECK(model::parse_go_duration("").error().message == "time: invalid duration \"\"");
    CHECK(model::format_go_duration(600) == "10m0s");
    CHECK(model::format_go_duration(30) == "30s");
    CHECK(model::format_go_duration(3600) == "1h0m0s");
    CHECK(model::format_go_duration(0) == "0s");
}
