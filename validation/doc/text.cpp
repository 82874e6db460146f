// SPDX-License-Identifier: Apache-2.0
// Byte-level checks shared by both loaders.
#include "doc/load.hpp"

namespace kpw::doc {

std::size_t utf8_sequence_length(std::string_view text, std::size_t i)
{
    const auto* s = reinterpret_cast<const unsigned char*>(text.data());
    const unsigned char c = s[i];
    if (c < 0x80)
        return 1;
    const std::size_t len = (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xe ? 3 : (c >> 3) == 0x1e ? 4 : 0;
    if (len == 0 || i + len > text.size())
        return 0;
    unsigned cp = c & (0xff >> (len + 1));
    for (std::size_t k = 1; k < len; ++k) {
        if ((s[i + k] & 0xc0) != 0x80)
            return 0;
        cp = (cp << 6) | (s[i + k] & 0x3f);
    }
    static constexpr unsigned min_cp[] = {0, 0, 0x80, 0x800, 0x10000};
    if (cp < min_cp[len] || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
        return 0;
    return len;
}

bool is_clean_utf8(std::string_view text, std::size_t& where)
{
    for (std::size_t i = 0; i < text.size();) {
        const std::size_t len = text[i] == '\0' ? 0 : utf8_sequence_length(text, i);
        if (len == 0) {
            where = i;
            return false;
        }
        i += len;
    }
    return true;
}

position position_of(std::string_view text, std::size_t offset)
{
    position p{1, 1};
    const std::size_t end = offset < text.size() ? offset : text.size();
    for (std::size_t i = 0; i < end; ++i) {
        if (text[i] == '\n') {
            ++p.line;
            p.column = 1;
        } else if ((static_cast<unsigned char>(text[i]) & 0xc0) != 0x80) {
            ++p.column; // count characters, not UTF-8 continuation bytes
        }
    }
    return p;
}

} // namespace kpw::doc
