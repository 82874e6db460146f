// SPDX-License-Identifier: Apache-2.0
// JSON text -> doc::value through RapidJSON's SAX reader (RapidJSON stays in this file).
#include "doc/load.hpp"

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <cstdlib>
#include <iterator>
#include <optional>
#include <span>
#include <string>
#include <tuple>
#include <unordered_set>
#include <utility>
#include <vector>

// RapidJSON scans strings 16 bytes at a time when told the CPU has SSE2 (every x86-64 does).
#if defined(__SSE2__) && !defined(RAPIDJSON_SSE2)
#define RAPIDJSON_SSE2
#endif
#include <rapidjson/error/en.h>
#include <rapidjson/reader.h>

namespace kpw::doc {
namespace {

// Parses a JSON number's text: int64 when it is an integer literal in range, else a double.
value number_from_text(std::string_view text)
{
    std::int64_t i = 0;
    const char* end = text.data() + text.size();
    if (text.find_first_of(".eE") == std::string_view::npos) {
        const auto [stop, ec] = std::from_chars(text.data(), end, i);
        if (ec == std::errc() && stop == end)
            return value::integer(i);
    }
    std::string s(text);
    return value::number(std::strtod(s.c_str(), nullptr), std::move(s));
}

// A \u escape of a lone UTF-16 surrogate: Go's encoding/json (decode.go unquoteBytes) decodes it as
// U+FFFD, RapidJSON 1.1 writes the surrogate itself (ED A0..BF xx, not UTF-8). The text was clean
// UTF-8, so such bytes come only from escapes; each becomes U+FFFD (EF BF BD) in `fixed`, so a
// review's uid is echoed as kube-apiserver decoded it. (A lone high surrogate RapidJSON rejects.)
std::string_view go_unescaped(const char* s, rapidjson::SizeType n, std::string& fixed)
{
    const std::string_view in(s, n);
    std::size_t at = in.find('\xed');
    while (at != std::string_view::npos && (at + 1 >= n || static_cast<unsigned char>(in[at + 1]) < 0xa0))
        at = in.find('\xed', at + 1);
    if (at == std::string_view::npos)
        return in;
    fixed.assign(in);
    for (; at + 2 < n; ++at)
        if (fixed[at] == '\xed' && static_cast<unsigned char>(fixed[at + 1]) >= 0xa0)
            fixed.replace(at, 3, "\xef\xbf\xbd");
    return fixed;
}

// Whether the JSON text may have a \u escape of a UTF-16 surrogate (\uD800-\uDFFF), the only source of
// the bytes go_unescaped replaces (an escaped backslash before "u" counts too: that only costs time).
// One scan of the text spares a search in each of its strings and keys (memchr was 9 % of an admission
// review's perf samples; the review is 2-3 % faster without them, BENCHMARKS.md).
bool may_have_surrogate_escape(std::string_view text)
{
    for (std::size_t at = text.find("\\u"); at != std::string_view::npos; at = text.find("\\u", at + 2))
        if (at + 3 < text.size() && (text[at + 2] == 'd' || text[at + 2] == 'D') &&
            std::string_view("89abcdefABCDEF").find(text[at + 3]) != std::string_view::npos)
            return true;
    return false;
}

// Go's encoding/json (what karmada-webhook decodes with) lets the last of repeated keys win for
// scalars and arrays; keeping only that one makes find() see what Karmada sees. For repeated
// *objects* Go merges the members into one struct or map instead, which this does not do: such JSON
// never comes from kube-apiserver, which re-encodes every object. Small objects: quadratic scan.
// (kubectl decodes into unstructured's map[string]interface{}, where the last wins whole, objects too.)
// Each later occurrence of a key goes to `repeats` when given (lint's duplicate-key warning), the mapping
// at `path` (computed only then). Returns whether a key repeated.
template <class Path>
bool keep_last_duplicate(value& mapping, std::vector<repeated_key>* repeats, Path&& path)
{
    auto& members = mapping.members();
    if (members.size() < 2)
        return false;
    // Fast path without allocating: almost every object has no repeated key.
    bool any = false;
    if (members.size() <= 32) {
        for (std::size_t i = 0; i < members.size() && !any; ++i)
            for (std::size_t j = i + 1; j < members.size() && !any; ++j)
                any = members[i].first == members[j].first;
        if (!any)
            return false;
    }
    std::vector<bool> shadowed(members.size(), false);
    std::unordered_set<std::string_view> later;
    for (std::size_t i = members.size(); i-- > 0;) {
        shadowed[i] = !later.insert(members[i].first).second;
        any = any || shadowed[i];
    }
    if (!any)
        return false;
    if (repeats) {
        const std::string at = path();
        for (std::size_t i = 1; i < members.size(); ++i)
            for (std::size_t j = 0; j < i; ++j)
                if (members[j].first == members[i].first) {
                    std::string member_path = at;
                    append_key(member_path, members[i].first);
                    repeats->push_back({std::move(member_path), members[i].first, members[j].second.key_pos(),
                                        members[i].second.key_pos()});
                    break;
                }
    }
    std::vector<value::member> kept;
    for (std::size_t i = 0; i < members.size(); ++i)
        if (!shadowed[i])
            kept.push_back(std::move(members[i]));
    members = std::move(kept);
    return true;
}

// Builds the tree in place. The children of every open container wait in one shared scratch stack and
// are moved once, into an exactly sized vector, when the container closes: no value is moved through
// handler arguments, and no container regrows (each regrowth moved all its members and cost a malloc).
class tree_builder : public rapidjson::BaseReaderHandler<rapidjson::UTF8<>, tree_builder> {
public:
    // surrogate_escapes: whether the text may hold strings go_unescaped changes (may_have_surrogate_escape).
    tree_builder(int max_depth, std::span<const json_prune> prune, bool surrogate_escapes)
        : max_depth_(max_depth), root_prune_(prune), surrogate_escapes_(surrogate_escapes)
    {
        scratch_.reserve(64);
    }

    // Positions every node (lint's reading of a JSON stream; an admission body needs none): the value
    // being parsed starts at byte `base` of `text`.
    void track(std::string_view text, std::size_t base)
    {
        where_.emplace(text);
        cursor_ = base;
    }

    bool Null()
    {
        if (!dropping())
            placed(slot()); // already null
        return true;
    }
    bool Bool(bool b) { return dropping() || set(value::boolean(b)); }
    bool RawNumber(const char* s, rapidjson::SizeType n, bool) { return dropping() || set(number_from_text({s, n})); }
    bool String(const char* s, rapidjson::SizeType n, bool)
    {
        if (!dropping()) {
            value& v = slot();
            v.assign_string(unescaped(s, n));
            placed(v);
        } else {
            skip_token();
        }
        return true;
    }
    bool Key(const char* raw, rapidjson::SizeType raw_n, bool)
    {
        if (where_)
            key_at_ = skip_token();
        if (skip_depth_ > 0)
            return true;
        const std::string_view key = unescaped(raw, raw_n);
        const char* s = key.data();
        const auto n = static_cast<rapidjson::SizeType>(key.size());
        below_ = {};
        for (const json_prune& p : open_.back().prune) {
            if (p.key != std::string_view(s, n))
                continue;
            if (p.below.empty()) {
                drop_next_ = true;
                return true;
            }
            below_ = p.below;
        }
        // The member is created with its key and a null; the next value event fills it (see slot()).
        scratch_.emplace_back(std::piecewise_construct, std::forward_as_tuple(s, n), std::forward_as_tuple());
        return true;
    }
    bool StartObject() { return open(value::mapping(), true); }
    bool EndObject(rapidjson::SizeType)
    {
        skip_token();
        return close();
    }
    bool StartArray() { return open(value::sequence(), false); }
    bool EndArray(rapidjson::SizeType)
    {
        skip_token();
        return close();
    }

    bool too_deep() const { return too_deep_; }
    value take() { return std::move(scratch_.front().second); }
    bool had_repeated_keys() const { return had_repeated_keys_; }
    // The repeated keys of the value read (tracked reads only), in text order.
    std::vector<repeated_key> take_repeated()
    {
        std::sort(repeated_.begin(), repeated_.end(), [](const repeated_key& a, const repeated_key& b) {
            return a.again.line != b.again.line ? a.again.line < b.again.line : a.again.column < b.again.column;
        });
        return std::exchange(repeated_, {});
    }

private:
    // RapidJSON's stream is a local copy while it calls the handler, so positions come from a cursor of
    // our own that follows the events through the text (valid JSON: the reader has checked every token).
    // skip_token: the position of the token the current event is about, and the cursor past it.
    position skip_token()
    {
        if (!where_)
            return {};
        const std::string_view t = where_->text();
        auto at = [&](std::size_t i) { return i < t.size() ? t[i] : '\0'; };
        std::size_t i = cursor_;
        while (std::string_view(" \t\r\n,:").find(at(i)) != std::string_view::npos && i < t.size())
            ++i;
        const std::size_t start = i;
        const char c = at(i);
        if (c == '"') {
            for (++i; i < t.size() && t[i] != '"'; ++i)
                i += t[i] == '\\' ? 1 : 0;
            ++i;
        } else if (c == 'n' || c == 't') {
            i += 4;
        } else if (c == 'f') {
            i += 5;
        } else if (c == '-' || (c >= '0' && c <= '9')) {
            while (std::string_view("+-.eE0123456789").find(at(i)) != std::string_view::npos && i < t.size())
                ++i;
        } else {
            ++i; // { } [ ]
        }
        cursor_ = i;
        return where_->at(start);
    }
    void placed(value& v)
    {
        if (!where_)
            return;
        v.set_pos(skip_token());
        if (key_at_.known())
            v.set_key_pos(std::exchange(key_at_, {}));
    }

    std::string_view unescaped(const char* s, rapidjson::SizeType n)
    {
        return surrogate_escapes_ ? go_unescaped(s, n, fixed_) : std::string_view(s, n);
    }

    std::optional<position_counter> where_;
    std::vector<repeated_key> repeated_;
    bool had_repeated_keys_ = false;
    std::size_t cursor_ = 0;
    position key_at_;
    std::string fixed_; // go_unescaped's copy, when a string needs one
    struct frame {
        std::size_t first; // the container's first child in scratch_; the container itself is just before
        bool mapping;
        std::span<const json_prune> prune; // what to drop among this mapping's members
    };

    // The field path of the container whose frame `closing` was just popped: each level's key in its
    // parent mapping (the member's key in scratch_), or its index in its parent sequence.
    std::string path_of(const frame& closing) const
    {
        std::string path;
        for (std::size_t k = 1; k <= open_.size(); ++k) {
            const std::size_t slot = (k < open_.size() ? open_[k].first : closing.first) - 1;
            const frame& parent = open_[k - 1];
            if (parent.mapping)
                append_key(path, scratch_[slot].first);
            else
                append_index(path, slot - parent.first);
        }
        return path;
    }

    // Whether the current value event is not stored: inside a dropped subtree, or a dropped member's
    // scalar value (which ends the drop).
    bool dropping() { return skip_depth_ > 0 || std::exchange(drop_next_, false); }

    // The null the next value event overwrites: a mapping's pending member (made by Key), or a new
    // item / the root. Assigning over a null has no storage to free, so it is the cheap path.
    value& slot()
    {
        if (open_.empty() || !open_.back().mapping)
            scratch_.emplace_back();
        return scratch_.back().second;
    }

    bool set(value v)
    {
        value& at = slot();
        at = std::move(v);
        placed(at);
        return true;
    }

    bool open(value v, bool mapping)
    {
        if (static_cast<int>(open_.size()) + skip_depth_ >= max_depth_) {
            too_deep_ = true;
            return false;
        }
        if (dropping()) {
            ++skip_depth_;
            return true;
        }
        value& at = slot();
        at = std::move(v);
        placed(at);
        const auto prune = open_.empty() ? root_prune_ : std::exchange(below_, {});
        open_.push_back({scratch_.size(), mapping, mapping ? prune : std::span<const json_prune>()});
        return true;
    }

    bool close()
    {
        below_ = {};
        if (skip_depth_ > 0) {
            --skip_depth_;
            return true;
        }
        const frame f = open_.back();
        open_.pop_back();
        const auto first = scratch_.begin() + static_cast<std::ptrdiff_t>(f.first);
        value& node = scratch_[f.first - 1].second;
        if (f.mapping) {
            node.members().assign(std::make_move_iterator(first), std::make_move_iterator(scratch_.end()));
            if (keep_last_duplicate(node, where_ ? &repeated_ : nullptr, [&] { return path_of(f); }))
                had_repeated_keys_ = true;
        } else {
            auto& items = node.items();
            items.reserve(static_cast<std::size_t>(scratch_.end() - first));
            for (auto it = first; it != scratch_.end(); ++it)
                items.push_back(std::move(it->second));
        }
        scratch_.erase(first, scratch_.end());
        return true;
    }

    int max_depth_;
    bool too_deep_ = false;
    std::span<const json_prune> root_prune_;
    bool surrogate_escapes_;
    std::span<const json_prune> below_; // the prune list for the container value of the current member
    bool drop_next_ = false;            // the current member's value is not stored
    int skip_depth_ = 0;                // containers open inside a dropped value
    std::vector<value::member> scratch_;
    std::vector<frame> open_;
};

// The error the iterative reader (which the messages were first written against) gives: it calls a
// document starting with ] } , or : "empty" where the recursive one says "invalid value".
rapidjson::ParseErrorCode error_code(std::string_view text, const rapidjson::ParseResult& r)
{
    const std::size_t at = r.Offset();
    if (r.Code() == rapidjson::kParseErrorValueInvalid && at < text.size() &&
        at == text.find_first_not_of(" \t\r\n") && std::string_view("]},:").find(text[at]) != std::string_view::npos)
        return rapidjson::kParseErrorDocumentEmpty;
    return r.Code();
}

} // namespace

// Go's JSON scanner refuses a byte below 0x20 inside a string ("invalid character '\x1a' in string
// literal"); RapidJSON 1.1 lets it through. The offset of the first, if any, in one JSON value's text.
std::optional<std::size_t> control_in_json_string(std::string_view json)
{
    bool in_string = false;
    for (std::size_t i = 0; i < json.size(); ++i) {
        const auto c = static_cast<unsigned char>(json[i]);
        if (!in_string) {
            in_string = c == '"';
        } else if (c == '\\') {
            ++i;
        } else if (c == '"') {
            in_string = false;
        } else if (c < 0x20) {
            return i;
        }
    }
    return std::nullopt;
}


result<value> parse_json(std::string_view text, const load_limits& limits, std::span<const json_prune> prune,
                         bool* repeated_keys)
{
    std::size_t bad = 0;
    if (!is_clean_utf8(text, bad))
        return failure{text[bad] == '\0' ? "NUL byte in JSON text" : "invalid UTF-8 in JSON text",
                       position_of(text, bad)};

    tree_builder builder(limits.max_depth, prune, may_have_surrogate_escape(text));
    // In-situ parsing of a private, NUL-terminated copy: RapidJSON decodes strings in place and uses
    // its SIMD scanner only for (in-situ) string streams, not for MemoryStream. The copy is cheap
    // next to the parse, and is_clean_utf8 above guarantees there is no NUL inside the text.
    // RapidJSON's SSE2 scanner loads whole aligned 16-byte blocks, so it may read up to 15 bytes past
    // the terminating NUL (within its block, harmless, but outside the allocation): make them ours.
    std::string buffer;
    buffer.reserve(text.size() + 15);
    buffer.assign(text);
    rapidjson::InsituStringStream ms(buffer.data());
    rapidjson::Reader reader;
    // No kParseValidateEncodingFlag: is_clean_utf8 has checked every byte already, and RapidJSON's
    // per-character re-validation was the single largest cost of an admission request.
    // Recursive, not kParseIterativeFlag (that was 6 % of a review): the builder refuses to open a
    // container max_depth levels deep, so the native recursion stays bounded.
    constexpr unsigned flags =
        rapidjson::kParseNumbersAsStringsFlag | rapidjson::kParseStopWhenDoneFlag | rapidjson::kParseInsituFlag;
    rapidjson::ParseResult ok = reader.Parse<flags>(ms, builder);
    if (ok) // RFC 8259 and Go's scanner refuse a raw control byte in a string; RapidJSON 1.1 does not always
        if (auto control = control_in_json_string(text.substr(0, ms.Tell())))
            ok.Set(rapidjson::kParseErrorStringInvalidEncoding, *control);
    if (!ok) {
        if (builder.too_deep()) // the recursive reader reports the byte after the refused bracket
            return failure{"JSON nested deeper than " + std::to_string(limits.max_depth) + " levels",
                           position_of(text, ok.Offset() - 1)};
        return failure{std::string("invalid JSON: ") + rapidjson::GetParseError_En(error_code(text, ok)),
                       position_of(text, ok.Offset())};
    }
    // kParseStopWhenDoneFlag lets us reject trailing garbage ourselves with a precise message.
    std::size_t rest = ms.Tell();
    while (rest < text.size() && (text[rest] == ' ' || text[rest] == '\n' || text[rest] == '\r' || text[rest] == '\t'))
        ++rest;
    if (rest != text.size())
        return failure{"invalid JSON: unexpected data after the top-level value", position_of(text, rest)};
    if (repeated_keys)
        *repeated_keys = builder.had_repeated_keys();
    return builder.take();
}

result<json_stream> read_json_stream(std::string_view text, const load_limits& limits)
{
    std::size_t bad = 0;
    if (!is_clean_utf8(text, bad))
        return failure{text[bad] == '\0' ? "NUL byte: this is not a YAML or JSON text file"
                                         : "invalid UTF-8 (YAML and JSON must be UTF-8)",
                       position_of(text, bad)};
    const bool surrogate_escapes = may_have_surrogate_escape(text);
    std::string buffer; // one in-situ copy for every value (see parse_json)
    buffer.reserve(text.size() + 15);
    buffer.assign(text);
    json_stream out;
    std::size_t last_end = 0; // where the last value ended: the YAML decoder would start there
    int values = 0;
    for (std::size_t at = 0;;) {
        while (at < text.size() && std::string_view(" \t\r\n").find(text[at]) != std::string_view::npos)
            ++at;
        if (at == text.size()) {
            out.values_end = last_end;
            return out;
        }
        rapidjson::InsituStringStream ms(buffer.data() + at);
        tree_builder builder(limits.max_depth, {}, surrogate_escapes);
        builder.track(text, at);
        rapidjson::Reader reader;
        constexpr unsigned flags =
            rapidjson::kParseNumbersAsStringsFlag | rapidjson::kParseStopWhenDoneFlag | rapidjson::kParseInsituFlag;
        rapidjson::ParseResult ok = reader.Parse<flags>(ms, builder);
        if (ok) {
            if (auto control = control_in_json_string(text.substr(at, ms.Tell())))
                ok.Set(rapidjson::kParseErrorStringInvalidEncoding, *control);
        }
        if (ok) {
            value root = builder.take();
            if (!root.is_null()) // RawExtension keeps no bytes for null: kubectl skips it
                out.documents.push_back({values, root.pos(), std::move(root), builder.take_repeated()});
            ++values;
            at += ms.Tell();
            last_end = at;
            continue;
        }
        const position where = position_of(text, at + ok.Offset());
        if (builder.too_deep())
            return failure{"JSON nested deeper than " + std::to_string(limits.max_depth) + " levels", where};
        out.values_end = last_end;
        if (values > 1) {
            out.error = failure{std::string("invalid JSON after ") + std::to_string(values) +
                                    " JSON values: kubectl reads a file that starts with '{' as a stream of JSON "
                                    "values and refuses it here (" +
                                    rapidjson::GetParseError_En(error_code(text.substr(at), ok)) + ")",
                                where};
            return out;
        }
        out.yaml_from = last_end;
        return out;
    }
}

} // namespace kpw::doc
