// SPDX-License-Identifier: Apache-2.0
// UTF-8 decoding by Go's rules, shared by the loaders' checks, the JSON encoder and Go-style quoting.
#pragma once

#include <cstddef>
#include <string_view>

namespace kpw {

// The length (1-4) of the valid UTF-8 sequence starting at text[i], with its code point in `rune`; 0
// when the byte there does not start one (stray continuation, overlong form, surrogate, beyond
// U+10FFFF, truncated), as Go's utf8.DecodeRuneInString decides. Inline: the loaders call it per byte.
inline std::size_t utf8_decode(std::string_view text, std::size_t i, char32_t& rune)
{
    const auto* s = reinterpret_cast<const unsigned char*>(text.data());
    const unsigned char c = s[i];
    if (c < 0x80) {
        rune = c;
        return 1;
    }
    const std::size_t len = (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xe ? 3 : (c >> 3) == 0x1e ? 4 : 0;
    if (len == 0 || i + len > text.size())
        return 0;
    char32_t cp = c & (0xff >> (len + 1));
    for (std::size_t k = 1; k < len; ++k) {
        if ((s[i + k] & 0xc0) != 0x80)
            return 0;
        cp = (cp << 6) | (s[i + k] & 0x3f);
    }
    static constexpr char32_t min_cp[] = {0, 0, 0x80, 0x800, 0x10000};
    if (cp < min_cp[len] || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
        return 0;
    rune = cp;
    return len;
}

// utf8_decode without the code point.
inline std::size_t utf8_sequence_length(std::string_view text, std::size_t i)
{
    char32_t ignored;
    return utf8_decode(text, i, ignored);
}

} // namespace kpw
