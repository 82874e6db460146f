// SPDX-License-Identifier: Apache-2.0
// Go's strconv.Quote, which apimachinery uses (%q) to render string values in field errors.
#include "field/error.hpp"

#include <cstdint>
#include <cstdio>

#include "base/utf8.hpp"

namespace kpw::field {
namespace {

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
        const std::size_t len = utf8_decode(s, i, r);
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
