// SPDX-License-Identifier: Apache-2.0
#include "base/base64.hpp"

#include <cstdint>
#include <vector>

namespace kpw {

namespace {

int base64_value(char c)
{
    if (c >= 'A' && c <= 'Z')
        return c - 'A';
    if (c >= 'a' && c <= 'z')
        return c - 'a' + 26;
    if (c >= '0' && c <= '9')
        return c - '0' + 52;
    return c == '+' ? 62 : c == '/' ? 63 : -1;
}

} // namespace

bool base64_decode(std::string_view in, std::string& out, std::size_t& bad_at)
{
    std::vector<std::size_t> at; // indices of the significant characters
    for (std::size_t i = 0; i < in.size(); ++i)
        if (in[i] != '\r' && in[i] != '\n')
            at.push_back(i);
    for (std::size_t q = 0; q < at.size(); q += 4) {
        if (q + 4 > at.size()) {
            bad_at = q < at.size() ? at[q] : in.size();
            return false;
        }
        const bool last = q + 4 == at.size();
        std::uint32_t acc = 0;
        int pad = 0;
        for (std::size_t k = 0; k < 4; ++k) {
            const char c = in[at[q + k]];
            const int v = base64_value(c);
            const bool pad_shape = c == '=' && k >= 2 && (k == 3 || in[at[q + 3]] == '=');
            if (v < 0 && !pad_shape) {
                bad_at = at[q + k];
                return false;
            }
            if (pad_shape && !last) { // Go: data after the padding
                bad_at = at[q + 4];
                return false;
            }
            pad += c == '=' ? 1 : 0;
            acc = (acc << 6) | static_cast<std::uint32_t>(v < 0 ? 0 : v);
        }
        out += static_cast<char>((acc >> 16) & 0xff);
        if (pad < 2)
            out += static_cast<char>((acc >> 8) & 0xff);
        if (pad < 1)
            out += static_cast<char>(acc & 0xff);
    }
    return true;
}

} // namespace kpw
