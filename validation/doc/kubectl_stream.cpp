// SPDX-License-Identifier: Apache-2.0
// load_yaml: a file cut into documents as kubectl's reader cuts it (apimachinery pkg/util/yaml
// YAMLOrJSONDecoder): JSON values while Go's JSON decoder reads them, YAML after; and
// kubectl_readable_head, how much of such a file kubectl takes before the document it cannot decode.
#include <cstdint>
#include <optional>
#include <utility>

#include "doc/load.hpp"

namespace kpw::doc {
namespace {

// One UTF-8 sequence at `at` (the text is clean UTF-8): its code point and length.
std::pair<char32_t, std::size_t> rune_at(std::string_view s, std::size_t at)
{
    const auto b = static_cast<unsigned char>(s[at]);
    const std::size_t n = b < 0x80 ? 1 : b < 0xe0 ? 2 : b < 0xf0 ? 3 : 4;
    if (at + n > s.size())
        return {0xfffd, 1}; // cut short: Go's utf8.DecodeRune gives RuneError
    char32_t r = n == 1 ? b : b & (0xff >> (n + 1));
    for (std::size_t i = 1; i < n; ++i)
        r = (r << 6) | (static_cast<unsigned char>(s[at + i]) & 0x3f);
    return {r, n};
}

// Go's unicode.IsSpace.
bool is_space(char32_t r)
{
    switch (r) {
    case '\t': case '\n': case '\v': case '\f': case '\r': case ' ': case 0x85: case 0xa0: case 0x1680:
    case 0x2028: case 0x2029: case 0x202f: case 0x205f: case 0x3000: return true;
    default: return r >= 0x2000 && r <= 0x200a;
    }
}

// YAMLOrJSONDecoder.consumeWhitespace: the spaces after the JSON, up to and including the first line
// break; nullopt when the text ends first (kubectl then reports the JSON decoder's error).
std::optional<std::size_t> consume_whitespace(std::string_view text, std::size_t at)
{
    while (at < text.size()) {
        const auto [r, n] = rune_at(text, at);
        if (!is_space(r))
            return at;
        at += n;
        if (r == '\n')
            return at;
    }
    return std::nullopt;
}

// A position read in text.substr(from), as a position in text (which starts at `base`).
position shifted(position p, position base)
{
    if (!p.known())
        return p;
    return {p.line + base.line - 1, p.line == 1 ? p.column + base.column - 1 : p.column};
}

void shift(value& v, position base)
{
    v.set_key_pos(shifted(v.key_pos(), base));
    v.set_pos(shifted(v.pos(), base));
    if (v.is_mapping())
        for (auto& m : v.members())
            shift(m.second, base);
    else if (v.is_sequence())
        for (auto& item : v.items())
            shift(item, base);
}

} // namespace

bool kubectl_reads_json(std::string_view text)
{
    const std::string_view head = text.substr(0, 4096); // GuessJSONStream's peek
    for (std::size_t at = 0; at < head.size();) {
        const auto [r, n] = rune_at(head, at);
        if (!is_space(r))
            return r == '{';
        at += n;
    }
    return false;
}

result<std::vector<document>> load_yaml(std::string_view text, const load_limits& limits)
{
    if (!kubectl_reads_json(text))
        return load_yaml_stream(text, limits);
    auto json = read_json_stream(text, limits);
    if (!json)
        return json.error();
    if (json->error)
        return *json->error;
    std::vector<document> docs = std::move(json->documents);
    if (json->yaml_from != std::string_view::npos) {
        const auto from = consume_whitespace(text, json->yaml_from);
        if (!from)
            return failure{"invalid JSON: unexpected data after the top-level value", position_of(text, json->yaml_from)};
        const position base = position_of(text, *from);
        auto rest = load_yaml_stream(text.substr(*from), limits);
        if (!rest)
            return failure{rest.error().message, shifted(rest.error().where, base)};
        for (auto& d : *rest) {
            shift(d.root, base);
            d.start = shifted(d.start, base);
            docs.push_back(std::move(d));
        }
    }
    // Numbered in order: kubectl's JSON stream has no "---" to count.
    for (std::size_t i = 0; i < docs.size(); ++i)
        docs[i].index = static_cast<int>(i);
    return docs;
}

std::size_t kubectl_readable_head(std::string_view text, const load_limits& limits)
{
    if (!kubectl_reads_json(text))
        return yaml_readable_head(text, limits);
    // The shape of load_yaml: the JSON values, then YAML from where the JSON decoder gave up.
    auto json = read_json_stream(text, limits);
    if (!json)
        return 0;
    if (json->error || json->yaml_from == std::string_view::npos)
        return json->values_end;
    const auto from = consume_whitespace(text, json->yaml_from);
    if (!from)
        return json->values_end;
    const std::string_view rest = text.substr(*from);
    if (load_yaml_stream(rest, limits))
        return text.size();
    const std::size_t yaml_head = yaml_readable_head(rest, limits);
    return yaml_head == 0 ? json->values_end : *from + yaml_head;
}

std::vector<document> documents_before_failure(std::string_view text, const load_limits& limits)
{
    const std::size_t head = kubectl_readable_head(text, limits);
    if (head == 0)
        return {};
    auto docs = load_yaml(text.substr(0, head), limits);
    return docs ? std::move(*docs) : std::vector<document>{};
}

} // namespace kpw::doc
