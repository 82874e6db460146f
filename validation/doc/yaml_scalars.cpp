// SPDX-License-Identifier: Apache-2.0
// Scalars as kubectl reads them: YAML 1.1 plain-scalar resolution (go-yaml v2) and yaml-cpp 0.7's escapes.
#include "doc/yaml_scalars.hpp"

#include <cctype>
#include <charconv>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <initializer_list>
#include <string>
#include <string_view>

#include "base/utf8.hpp"

namespace kpw::doc {
namespace {

bool one_of(std::string_view s, std::initializer_list<std::string_view> options)
{
    for (auto o : options)
        if (s == o)
            return true;
    return false;
}

std::optional<std::int64_t> parse_int(std::string_view text)
{
    std::string s;
    for (char c : text)
        if (c != '_')
            s.push_back(c);
    if (s.empty())
        return std::nullopt;
    std::size_t i = (s[0] == '-' || s[0] == '+') ? 1 : 0;
    if (i == s.size())
        return std::nullopt;
    int base = 10;
    if (s.compare(i, 2, "0x") == 0)
        base = 16;
    else if (s.compare(i, 2, "0o") == 0 || (s.size() > i + 1 && s[i] == '0'))
        base = 8;
    const std::size_t digits = base == 10 ? i : (s[i + 1] == 'x' || s[i + 1] == 'o') ? i + 2 : i + 1;
    if (digits >= s.size())
        return base == 8 && digits == s.size() && s[s.size() - 1] == '0' ? std::optional<std::int64_t>(0) : std::nullopt;
    for (std::size_t k = digits; k < s.size(); ++k) {
        const char c = s[k];
        const bool ok = base == 16 ? std::isxdigit(static_cast<unsigned char>(c)) : (c >= '0' && c < '0' + base);
        if (!ok)
            return std::nullopt;
    }
    errno = 0;
    const long long v = std::strtoll(s.c_str() + digits, nullptr, base);
    if (errno == ERANGE)
        return std::nullopt;
    return s[0] == '-' ? -v : v;
}

// strconv.ParseUint(s, 0, 64), go-yaml v2's second try after ParseInt: an unsigned literal beyond int64
// (18446744073709551615) stays an integer. Its decimal text, or nothing.
std::optional<std::string> uint64_text(std::string_view text)
{
    std::string s;
    for (char c : text)
        if (c != '_')
            s.push_back(c);
    if (s.empty() || s[0] == '-' || s[0] == '+')
        return std::nullopt;
    int base = 10;
    std::size_t digits = 0;
    if (s.starts_with("0x"))
        base = 16, digits = 2;
    else if (s.starts_with("0o"))
        base = 8, digits = 2;
    else if (s.size() > 1 && s[0] == '0')
        base = 8, digits = 1;
    if (digits >= s.size())
        return std::nullopt;
    for (std::size_t k = digits; k < s.size(); ++k) {
        const char c = s[k];
        if (!(base == 16 ? std::isxdigit(static_cast<unsigned char>(c)) != 0 : (c >= '0' && c < '0' + base)))
            return std::nullopt;
    }
    errno = 0;
    const unsigned long long v = std::strtoull(s.c_str() + digits, nullptr, base);
    if (errno == ERANGE)
        return std::nullopt;
    return std::to_string(v);
}

// The JSON text encoding/json writes for a float64 (floatEncoder): the shortest digits that read back as
// `d`, in %f form for 1e-6 <= |d| < 1e21 and %e form (exponent without a leading zero) otherwise. This is
// the number sigs.k8s.io/yaml hands to the JSON decoder, so it is what Go's errors quote.
std::string go_json_float(double d)
{
    // The shortest round-trip digits come from to_chars' scientific form ("1.2345678901234567e+19");
    // Go writes them in %f form itself, padding with zeros (its fixed form is not the exact expansion).
    char buf[64];
    auto [end, ec] = std::to_chars(buf, buf + sizeof buf, d, std::chars_format::scientific);
    if (ec != std::errc())
        return std::to_string(d);
    std::string_view sci(buf, static_cast<std::size_t>(end - buf));
    const std::size_t e = sci.find('e');
    const bool negative = d < 0;
    std::string digits;
    for (char c : sci.substr(0, e))
        if (c >= '0' && c <= '9')
            digits.push_back(c);
    int exp = 0;
    std::from_chars(sci.data() + e + 1 + (sci[e + 1] == '+'), sci.data() + sci.size(), exp);
    const double a = std::fabs(d);
    std::string out(negative ? 1 : 0, '-'); // appended: GCC 12 warns falsely (-Wrestrict) on operator+
    if (a != 0 && (a < 1e-6 || a >= 1e21)) { // %e: mantissa, then e-7 / e+21 (no leading zero)
        out.push_back(digits[0]);
        if (digits.size() > 1)
            out.append(".").append(digits, 1);
        return out.append(exp < 0 ? "e-" : "e+").append(std::to_string(exp < 0 ? -exp : exp));
    }
    if (d == 0)
        return out.append("0");
    const int n = static_cast<int>(digits.size());
    if (exp >= n - 1)
        return out.append(digits).append(static_cast<std::size_t>(exp - (n - 1)), '0');
    if (exp >= 0)
        return out.append(digits, 0, static_cast<std::size_t>(exp + 1)).append(".").append(digits, static_cast<std::size_t>(exp + 1));
    return out.append("0.").append(static_cast<std::size_t>(-exp - 1), '0').append(digits);
}

bool looks_like_float(std::string_view s)
{
    std::size_t i = (!s.empty() && (s[0] == '-' || s[0] == '+')) ? 1 : 0;
    bool digits = false, dot = false, exp = false;
    for (; i < s.size(); ++i) {
        const char c = s[i];
        if ((c >= '0' && c <= '9') || c == '_') {
            digits = digits || c != '_';
        } else if (c == '.' && !dot && !exp) {
            dot = true;
        } else if ((c == 'e' || c == 'E') && digits && !exp) {
            exp = true;
            if (i + 1 < s.size() && (s[i + 1] == '-' || s[i + 1] == '+'))
                ++i;
            if (i + 1 >= s.size())
                return false;
        } else {
            return false;
        }
    }
    return digits;
}

} // namespace

// yaml-cpp 0.7 (Debian 12) turns the double-quoted escapes \N and \_ into the single bytes 0x85 and
// 0xA0 instead of the UTF-8 of U+0085 and U+00A0 (fixed upstream in 2026, jbeder/yaml-cpp 44d5454 and
// 8a666a0). The text was checked to be UTF-8 and every other escape is written as UTF-8, so such a byte
// where no valid sequence starts is one of those two: it becomes the character go-yaml (and so kubectl)
// reads. Without this the scalar held invalid UTF-8, which Go's JSON encoder writes as U+FFFD: the
// applied-placement annotation of a binding then never read back as its placement (finding 12).
// nullopt when the scalar is already UTF-8 (every scalar but these), so nothing is copied.
std::optional<std::string> escapes_as_utf8(const std::string& text)
{
    std::optional<std::string> out;
    for (std::size_t i = 0; i < text.size();) {
        const auto c = static_cast<unsigned char>(text[i]);
        std::size_t len = utf8_sequence_length(text, i);
        if (len == 0 && (c == 0x85 || c == 0xa0)) {
            if (!out)
                out = text.substr(0, i);
            out->push_back('\xc2'); // U+0080..U+00BF are C2 and the byte itself
            out->push_back(static_cast<char>(c));
            ++i;
            continue;
        }
        len = len == 0 ? 1 : len;
        if (out)
            out->append(text, i, len);
        i += len;
    }
    return out;
}

// Plain-scalar resolution as go-yaml v2 (YAML 1.1) does it, which is what kubectl applies.
value resolve_plain(const std::string& s, position at)
{
    if (one_of(s, {"", "~", "null", "Null", "NULL"}))
        return value::null_value(at);
    if (one_of(s, {"true", "True", "TRUE", "yes", "Yes", "YES", "y", "Y", "on", "On", "ON"}))
        return value::boolean(true, at);
    if (one_of(s, {"false", "False", "FALSE", "no", "No", "NO", "n", "N", "off", "Off", "OFF"}))
        return value::boolean(false, at);
    const char c0 = s[0];
    if ((c0 >= '0' && c0 <= '9') || c0 == '-' || c0 == '+' || c0 == '.') {
        if (auto i = parse_int(s))
            return value::integer(*i, at);
        if (auto u = uint64_text(s))
            return value::number(std::strtod(u->c_str(), nullptr), *u, at);
        if (looks_like_float(s)) {
            std::string clean;
            for (char c : s)
                if (c != '_')
                    clean.push_back(c);
            const double d = std::strtod(clean.c_str(), nullptr);
            // go-yaml keeps a float strconv.ParseFloat refuses as out of range (1e400) a string.
            return std::isinf(d) ? value::string(s, at) : value::number(d, go_json_float(d), at);
        }
        if (one_of(s, {".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF", "-.inf", "-.Inf", "-.INF"}))
            return value::number(s.find('-') != std::string::npos ? -HUGE_VAL : HUGE_VAL, s, at);
        if (one_of(s, {".nan", ".NaN", ".NAN"}))
            return value::number(std::nan(""), s, at);
    }
    return value::string(s, at);
}

} // namespace kpw::doc
