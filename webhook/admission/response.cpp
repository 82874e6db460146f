// SPDX-License-Identifier: Apache-2.0
// Named response constructors and warning sanitising.
#include "admission/response.hpp"

#include <algorithm>

namespace kpw::admission {
namespace {

// Replaces C0/C1 controls (what Go's unicode.IsControl rejects) with spaces and trims. A text longer than
// `max_chars` code points is cut after the last space that leaves room for "…" (hard, when the text has no
// space there), so that a reader sees it was cut. Input is valid UTF-8 (the JSON loader validated it).
std::string clean_warning(std::string_view in, std::size_t max_chars)
{
    static constexpr std::string_view ellipsis = "\xe2\x80\xa6"; // U+2026, one code point
    std::string out;
    out.reserve(std::min(in.size(), max_chars * 4));
    std::size_t chars = 0;
    std::size_t cut = std::string::npos; // bytes of `out` that fit before the ellipsis
    std::size_t last_space = std::string::npos;
    for (std::size_t i = 0; i < in.size(); ++chars) {
        if (chars == max_chars - 1)
            cut = out.size();
        if (chars == max_chars) { // one more character than fits: the text is cut
            // At a space, unless that would drop more than a quarter of the room (one long token).
            const bool at_space = last_space != std::string::npos && last_space >= cut - cut / 4;
            out.resize(at_space ? last_space : cut);
            const auto end = out.find_last_not_of(' ');
            out.resize(end == std::string::npos ? 0 : end + 1);
            out += ellipsis;
            break;
        }
        const auto c = static_cast<unsigned char>(in[i]);
        std::size_t len = c < 0x80 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
        len = std::min(len, in.size() - i);
        const bool c0 = c < 0x20 || c == 0x7F;
        const bool c1 = c == 0xC2 && i + 1 < in.size() && static_cast<unsigned char>(in[i + 1]) < 0xA0;
        if (c0 || c1 || c == ' ') {
            if (chars < max_chars - 1)
                last_space = out.size();
            out += ' ';
        } else {
            out.append(in.substr(i, len));
        }
        i += len;
    }
    const auto first = out.find_first_not_of(' ');
    const auto last = out.find_last_not_of(' ');
    return first == std::string::npos ? std::string() : out.substr(first, last - first + 1);
}

} // namespace

response allowed()
{
    return {};
}

response denied(std::string message)
{
    response r;
    r.allowed = false;
    r.code = 403;
    r.reason = "Forbidden";
    r.message = std::move(message);
    return r;
}

response errored(int code, std::string message)
{
    response r;
    r.allowed = false;
    r.code = code;
    r.message = std::move(message);
    return r;
}

response with_warnings(response r, const std::vector<std::string>& warnings)
{
    for (const auto& w : warnings) {
        if (r.warnings.size() >= max_warnings)
            break;
        std::string clean = clean_warning(w, max_warning_chars);
        if (!clean.empty() && std::find(r.warnings.begin(), r.warnings.end(), clean) == r.warnings.end())
            r.warnings.push_back(std::move(clean));
    }
    return r;
}

response complete(response r)
{
    if (r.code == 0)
        r.code = 200;
    return r;
}

} // namespace kpw::admission
