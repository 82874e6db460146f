// SPDX-License-Identifier: Apache-2.0
// Named response constructors and warning sanitising.
#include "admission/response.hpp"

#include <algorithm>

namespace kpw::admission {
namespace {

// Replaces C0/C1 controls (what Go's unicode.IsControl rejects) with spaces, trims, cuts at
// `max_chars` code points. Input is valid UTF-8 (the JSON loader validated it).
std::string clean_warning(std::string_view in, std::size_t max_chars)
{
    std::string out;
    out.reserve(std::min(in.size(), max_chars * 4));
    std::size_t chars = 0;
    for (std::size_t i = 0; i < in.size() && chars < max_chars;) {
        const auto c = static_cast<unsigned char>(in[i]);
        std::size_t len = c < 0x80 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
        len = std::min(len, in.size() - i);
        const bool c0 = c < 0x20 || c == 0x7F;
        const bool c1 = c == 0xC2 && i + 1 < in.size() && static_cast<unsigned char>(in[i + 1]) < 0xA0;
        if (c0 || c1)
            out += ' ';
        else
            out.append(in.substr(i, len));
        i += len;
        ++chars;
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
