// SPDX-License-Identifier: Apache-2.0
// A value as JSON text, byte for byte as Go's encoding/json writes it (the webhook's replies, lint -o json).
#include "doc/value.hpp"

#include <array>
#include <string>
#include <string_view>

#include "base/utf8.hpp"

namespace kpw::doc {

namespace {

void append_ascii_escaped(std::string& out, unsigned char c)
{
    static constexpr char hex[] = "0123456789abcdef";
    switch (c) {
    case '"': out.append("\\\""); break;
    case '\\': out.append("\\\\"); break;
    case '\n': out.append("\\n"); break;
    case '\r': out.append("\\r"); break;
    case '\t': out.append("\\t"); break;
    case '\b': out.append("\\b"); break; // Go 1.22+ (Karmada's toolchain); \u0008 before
    case '\f': out.append("\\f"); break;
    case '<': out.append("\\u003c"); break;
    case '>': out.append("\\u003e"); break;
    case '&': out.append("\\u0026"); break;
    default:
        if (c < 0x20) {
            out.append("\\u00");
            out.push_back(hex[c >> 4]);
            out.push_back(hex[c & 0xf]);
        } else {
            out.push_back(static_cast<char>(c));
        }
    }
}

// Printable ASCII that Go writes as itself (everything else goes through append_ascii_escaped or the
// UTF-8 path): runs of these are appended at once, which is most of any string. A table, not a chain of
// comparisons: this loop sees every byte lint and serve write.
constexpr std::array<bool, 256> json_plain_bytes = [] {
    std::array<bool, 256> t{};
    for (int c = 0x20; c < 0x80; ++c)
        t[static_cast<std::size_t>(c)] = c != '"' && c != '\\' && c != '<' && c != '>' && c != '&';
    return t;
}();

bool json_plain(unsigned char c)
{
    return json_plain_bytes[c];
}

} // namespace

void append_json_string(std::string& out, std::string_view s)
{
    // As Go's encoding/json: each byte of invalid UTF-8 becomes U+FFFD (the output is always valid
    // JSON, whatever bytes a client sent), and U+2028 / U+2029 are escaped.
    out.push_back('"');
    for (std::size_t i = 0; i < s.size();) {
        std::size_t run = i;
        while (run < s.size() && json_plain(static_cast<unsigned char>(s[run])))
            ++run;
        if (run > i) {
            out.append(s.substr(i, run - i));
            i = run;
            continue;
        }
        const auto c = static_cast<unsigned char>(s[i]);
        if (c < 0x80) {
            append_ascii_escaped(out, c);
            ++i;
            continue;
        }
        const std::size_t len = utf8_sequence_length(s, i);
        if (len == 0) {
            out.append("\\ufffd");
            ++i;
        } else if (len == 3 && c == 0xe2 && s[i + 1] == '\x80' && (s[i + 2] == '\xa8' || s[i + 2] == '\xa9')) {
            out.append(s[i + 2] == '\xa8' ? "\\u2028" : "\\u2029");
            i += 3;
        } else {
            out.append(s.substr(i, len));
            i += len;
        }
    }
    out.push_back('"');
}

void append_json(std::string& out, const value& v)
{
    switch (v.kind()) {
    case type::null: out.append("null"); return;
    case type::boolean: out.append(v.as_bool() ? "true" : "false"); return;
    case type::integer:
    case type::number: out.append(v.text()); return;
    case type::string: append_json_string(out, v.text()); return;
    case type::sequence: {
        out.push_back('[');
        bool first = true;
        for (const auto& item : v.items()) {
            if (!first)
                out.push_back(',');
            first = false;
            append_json(out, item);
        }
        out.push_back(']');
        return;
    }
    case type::mapping: {
        out.push_back('{');
        bool first = true;
        for (const auto& [k, item] : v.members()) {
            if (!first)
                out.push_back(',');
            first = false;
            append_json_string(out, k);
            out.push_back(':');
            append_json(out, item);
        }
        out.push_back('}');
        return;
    }
    }
}

std::string to_json(const value& v)
{
    std::string out;
    append_json(out, v);
    return out;
}

} // namespace kpw::doc
