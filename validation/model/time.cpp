// SPDX-License-Identifier: Apache-2.0
// RFC 3339 parsing and formatting over a proleptic Gregorian calendar (Howard Hinnant's day algorithms).
#include "model/time.hpp"

#include <array>
#include <cstdio>
#include <string>

namespace kpw::model {

namespace {

constexpr std::int64_t seconds_per_day = 86400;

// Days since 1970-01-01 of a civil date (http://howardhinnant.github.io/date_algorithms.html).
std::int64_t days_from_civil(std::int64_t y, unsigned m, unsigned d)
{
    y -= m <= 2;
    const std::int64_t era = (y >= 0 ? y : y - 399) / 400;
    const auto yoe = static_cast<unsigned>(y - era * 400);
    const unsigned doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
    const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + static_cast<std::int64_t>(doe) - 719468;
}

struct civil {
    std::int64_t year;
    unsigned month;
    unsigned day;
};

civil civil_from_days(std::int64_t z)
{
    z += 719468;
    const std::int64_t era = (z >= 0 ? z : z - 146096) / 146097;
    const auto doe = static_cast<unsigned>(z - era * 146097);
    const unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    const unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    const unsigned mp = (5 * doy + 2) / 153;
    const unsigned d = doy - (153 * mp + 2) / 5 + 1;
    const unsigned m = mp < 10 ? mp + 3 : mp - 9;
    return {static_cast<std::int64_t>(yoe) + era * 400 + (m <= 2), m, d};
}

unsigned days_in_month(std::int64_t y, unsigned m)
{
    static constexpr std::array<unsigned, 12> days{31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    const bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    return m == 2 && leap ? 29 : days[m - 1];
}

// `n` decimal digits at `at`; false when any is not a digit.
bool digits(std::string_view s, std::size_t at, std::size_t n, unsigned& out)
{
    if (at + n > s.size())
        return false;
    out = 0;
    for (std::size_t i = at; i < at + n; ++i) {
        if (s[i] < '0' || s[i] > '9')
            return false;
        out = out * 10 + static_cast<unsigned>(s[i] - '0');
    }
    return true;
}

bool separator(std::string_view s, std::size_t at, char c) { return at < s.size() && s[at] == c; }

// The zone suffix at `at`: "Z" or "±HH:MM" ending the text; the offset east of UTC in seconds.
std::optional<std::int64_t> zone_offset(std::string_view s, std::size_t at)
{
    if (at + 1 == s.size() && s[at] == 'Z')
        return 0;
    unsigned hh = 0, mm = 0;
    if (at + 6 != s.size() || (s[at] != '+' && s[at] != '-') || !digits(s, at + 1, 2, hh) ||
        !separator(s, at + 3, ':') || !digits(s, at + 4, 2, mm) || hh > 23 || mm > 59)
        return std::nullopt;
    const std::int64_t offset = hh * 3600 + mm * 60;
    return s[at] == '-' ? -offset : offset;
}

// Nanoseconds per unit of a Go duration suffix; 0 for an unknown one.
std::int64_t unit_nanos(std::string_view u)
{
    if (u == "ns")
        return 1;
    if (u == "us" || u == "\u00b5s" || u == "\u03bcs")
        return 1'000;
    if (u == "ms")
        return 1'000'000;
    if (u == "s")
        return 1'000'000'000;
    if (u == "m")
        return 60'000'000'000;
    if (u == "h")
        return 3'600'000'000'000;
    return 0;
}

bool is_digit(char c) { return c >= '0' && c <= '9'; }

} // namespace

result<std::int64_t> parse_go_duration(std::string_view text)
{
    std::string quoted(1, '"');
    quoted.append(text).push_back('"');
    const failure invalid{"time: invalid duration " + quoted, {}};
    std::string_view s = text;
    const bool negative = !s.empty() && s.front() == '-';
    if (!s.empty() && (s.front() == '-' || s.front() == '+'))
        s.remove_prefix(1);
    if (s == "0")
        return std::int64_t{0};
    if (s.empty())
        return invalid;
    long double total = 0;
    while (!s.empty()) {
        std::size_t i = 0;
        while (i < s.size() && is_digit(s[i]))
            ++i;
        std::size_t j = i;
        if (j < s.size() && s[j] == '.')
            for (++j; j < s.size() && is_digit(s[j]);)
                ++j;
        const std::string number(s.substr(0, j));
        if (number.empty() || number == ".")
            return invalid;
        std::size_t k = j;
        while (k < s.size() && !is_digit(s[k]) && s[k] != '.')
            ++k;
        const std::string_view unit = s.substr(j, k - j);
        if (unit.empty())
            return failure{"time: missing unit in duration " + quoted, {}};
        const std::int64_t per = unit_nanos(unit);
        if (per == 0)
            return failure{"time: unknown unit \"" + std::string(unit) + "\" in duration " + quoted, {}};
        total += std::stold(number) * static_cast<long double>(per);
        if (total > 9.2e18L)
            return invalid;
        s.remove_prefix(k);
    }
    const auto nanos = static_cast<std::int64_t>(total);
    return negative ? -nanos : nanos;
}

std::string format_go_duration(std::int64_t seconds)
{
    if (seconds == 0)
        return "0s";
    std::string out;
    if (seconds < 0)
        out.push_back('-');
    const std::int64_t v = seconds < 0 ? -seconds : seconds;
    if (v >= 3600)
        out.append(std::to_string(v / 3600)).push_back('h');
    if (v >= 60)
        out.append(std::to_string(v / 60 % 60)).push_back('m');
    out.append(std::to_string(v % 60)).push_back('s');
    return out;
}

std::optional<timestamp> parse_rfc3339(std::string_view s)
{
    unsigned year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0;
    if (!digits(s, 0, 4, year) || !separator(s, 4, '-') || !digits(s, 5, 2, month) || !separator(s, 7, '-') ||
        !digits(s, 8, 2, day) || !separator(s, 10, 'T') || !digits(s, 11, 2, hour) || !separator(s, 13, ':') ||
        !digits(s, 14, 2, minute) || !separator(s, 16, ':') || !digits(s, 17, 2, second))
        return std::nullopt;
    if (month < 1 || month > 12 || day < 1 || day > days_in_month(year, month) || hour > 23 || minute > 59 ||
        second > 59)
        return std::nullopt;
    std::size_t at = 19;
    if (separator(s, at, '.') || separator(s, at, ',')) {
        std::size_t end = at + 1;
        while (end < s.size() && s[end] >= '0' && s[end] <= '9')
            ++end;
        if (end == at + 1)
            return std::nullopt;
        at = end; // metav1.Time keeps whole seconds
    }
    auto offset = zone_offset(s, at);
    if (!offset)
        return std::nullopt;
    return days_from_civil(year, month, day) * seconds_per_day + hour * 3600 + minute * 60 + second - *offset;
}

std::string format_rfc3339(timestamp t)
{
    std::int64_t days = t / seconds_per_day;
    std::int64_t rest = t % seconds_per_day;
    if (rest < 0) {
        rest += seconds_per_day;
        --days;
    }
    const civil c = civil_from_days(days);
    std::array<char, 40> buf{};
    std::snprintf(buf.data(), buf.size(), "%04lld-%02u-%02uT%02lld:%02lld:%02lldZ", static_cast<long long>(c.year),
                  c.month, c.day, static_cast<long long>(rest / 3600), static_cast<long long>(rest / 60 % 60),
                  static_cast<long long>(rest % 60));
    return buf.data();
}

} // namespace kpw::model
