// SPDX-License-Identifier: Apache-2.0
// model::timestamp and RFC 3339 text as the API server stores metav1.Time ("2026-08-20T09:00:01Z").
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "base/result.hpp"

namespace kpw::model {

// Seconds since the Unix epoch; Kubernetes stores times at one-second RFC3339 precision.
using timestamp = std::int64_t;

// Go time.Parse(time.RFC3339, s) as metav1.Time.UnmarshalJSON uses it, truncated to whole seconds:
// "YYYY-MM-DDTHH:MM:SS", an optional fraction (",5" or ".5"), then "Z" or "+HH:MM" / "-HH:MM".
// Field ranges are checked (month 1-12, day within the month, leap years, hour < 24, minute and
// second < 60). nullopt for anything else. Pure string arithmetic: no clock, no time zone database.
std::optional<timestamp> parse_rfc3339(std::string_view text);

// metav1.Time.MarshalJSON: UTC with a "Z" suffix and no fraction.
std::string format_rfc3339(timestamp t);

// Go time.ParseDuration: a signed sequence of decimal numbers with units ns, us, µs, ms, s, m, h
// ("300s", "1h30m", "1.5h", "0"), in nanoseconds. Failures carry Go's texts: `time: invalid duration "x"`,
// `time: missing unit in duration "10"`, `time: unknown unit "d" in duration "1d"`.
result<std::int64_t> parse_go_duration(std::string_view text);

// Go time.Duration.String() of whole seconds: "10m0s", "30s", "1h0m0s", "0s".
std::string format_go_duration(std::int64_t seconds);

} // namespace kpw::model
