// SPDX-License-Identifier: Apache-2.0
// Go's strconv.Quote, which apimachinery uses (%q) to render string values in field errors.
#include "field/error.hpp"

#include <cstdint>
#include <cstdio>

namespace kpw::field {
namespace {

// Decodes one UTF-8 rune at s[i]; returns its length, or 0 when the bytes are not valid UTF-8.
std::size_t decode_rune(std::string_view s, std::size_t i, char32_t& rune)
{
    const auto b0 = static_cast<unsigned char>(s[i]);
    std::size_t len = b0 < 0x80 ? 1 : (b0 >> 5) == 0x6 ? 2 : (b0 >> 4) == 0xe ? 3 : (b0 >> 3) == 0x1e ? 4 : 0;
    if (len == 0 || i + len > s.size())
        return 0;
    char32_t r = len == 1 ? b0 : len == 2 ? (b0 & 0x1f) : len == 3 ? (b0 & 0x0f) : (b0 & 0x07);
    for (std::size_t k = 1; k < len; ++k) {
        const auto b = static_cast<unsigned char>(s[i + k]);
        if ((b & 0xc0) != 0x80)
            return 0;
        r = (r << 6) | (b & 0x3f);
    }
    static constexpr char32_t min_for_len[] = {0, 0, 0x80, 0x800, 0x10000};
    if (r < min_for_len[len] || r > 0x10ffff || (r >= 0xd800 && r <= 0xdfff))
        return 0;
    rune = r;
    return len;
}

// Approximates unicode.IsPrint for the runes that matter in Kubernetes names: controls,
// C1 controls, and the format/separator characters that Go escapes.
bool is_go_printable(char32_t r)
{
    if (r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0))
        return false;
    return r != 0xad && r != 0x2028 && r != 0x2029 && r != 0xfeff && !(r >= 0x200b && r <= 0x200f);
}

void append_hex(std::string& out, const char* fmt, unsigned v)
{
    char buf[16];
    std::snprintf(buf, sizeof buf, fmt, v);
    out.append(buf);
}

} // namespace

std::string go_quote(std::string_view s)
{
    std::string out;
    out.reserve(s.size() + 2);
    out.push_back('"');
    for (std::size_t i = 0; i < s.size();) {
        char32_t r = 0;
        const std::size_t len = decode_rune(s, i, r);
        if (len == 0) {
            append_hex(out, "\\x%02x", static_cast<unsigned char>(s[i]));
            ++i;
            continue;
        }
        switch (r) {
        case '"': out.append("\\\""); break;
        case '\\': out.append("\\\\"); break;
        case '\a': out.append("\\a"); break;
        case '\b': out.append("\\b"); break;
        case '\f': out.append("\\f"); break;
        case '\n': out.append("\\n"); break;
        case '\r': out.append("\\r"); break;
        case '\t': out.append("\\t"); break;
        case '\v': out.append("\\v"); break;
        default:
            if (is_go_printable(r))
                out.append(s.substr(i, len));
            else if (r < 0x80)
                append_hex(out, "\\x%02x", static_cast<unsigned>(r));
            else if (r < 0x10000)
                append_hex(out, "\\u%04x", static_cast<unsigned>(r));
            else
                append_hex(out, "\\U%08x", static_cast<unsigned>(r));
        }
        i += len;
    }
    out.push_back('"');
    return out;
}

} // namespace kpw::field
