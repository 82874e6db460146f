// SPDX-License-Identifier: Apache-2.0
// Scalars as kubectl reads them: YAML 1.1 plain-scalar resolution (go-yaml v2) and yaml-cpp 0.7's escapes.
#include "doc/yaml_scalars.hpp"

#include <cctype>
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
        if (looks_like_float(s)) {
            std::string clean;
            for (char c : s)
                if (c != '_')
                    clean.push_back(c);
            const double d = std::strtod(clean.c_str(), nullptr);
            // go-yaml keeps a float strconv.ParseFloat refuses as out of range (1e400) a string.
            return std::isinf(d) ? value::string(s, at) : value::number(d, go_float_text(d), at);
        }
        if (one_of(s, {".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF", "-.inf", "-.Inf", "-.INF"}))
            return value::number(s.find('-') != std::string::npos ? -HUGE_VAL : HUGE_VAL, s, at);
        if (one_of(s, {".nan", ".NaN", ".NAN"}))
            return value::number(std::nan(""), s, at);
    }
    return value::string(s, at);
}

} // namespace kpw::doc
