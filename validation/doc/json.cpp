// SPDX-License-Identifier: Apache-2.0
// JSON text -> doc::value through RapidJSON's iterative SAX reader (RapidJSON stays in this file).
#include "doc/load.hpp"

#include <cerrno>
#include <cstdlib>
#include <string>
#include <unordered_set>

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
    std::string s(text);
    const bool integral = s.find_first_of(".eE") == std::string::npos;
    if (integral) {
        errno = 0;
        char* end = nullptr;
        const long long i = std::strtoll(s.c_str(), &end, 10);
        if (errno == 0 && end && *end == '\0')
            return value::integer(i);
    }
    return value::number(std::strtod(s.c_str(), nullptr), std::move(s));
}

// Go's encoding/json (what karmada-webhook decodes with) lets the last of repeated keys win;
// keeping only that one makes find() see what Karmada sees. Small objects: quadratic scan.
void keep_last_duplicate(value& mapping)
{
    auto& members = mapping.members();
    if (members.size() < 2)
        return;
    // Fast path without allocating: almost every object has no repeated key.
    bool any = false;
    if (members.size() <= 32) {
        for (std::size_t i = 0; i < members.size() && !any; ++i)
            for (std::size_t j = i + 1; j < members.size() && !any; ++j)
                any = members[i].first == members[j].first;
        if (!any)
            return;
    }
    std::vector<bool> shadowed(members.size(), false);
    std::unordered_set<std::string_view> later;
    for (std::size_t i = members.size(); i-- > 0;) {
        shadowed[i] = !later.insert(members[i].first).second;
        any = any || shadowed[i];
    }
    if (!any)
        return;
    std::vector<value::member> kept;
    for (std::size_t i = 0; i < members.size(); ++i)
        if (!shadowed[i])
            kept.push_back(std::move(members[i]));
    members = std::move(kept);
}

class tree_builder : public rapidjson::BaseReaderHandler<rapidjson::UTF8<>, tree_builder> {
public:
    explicit tree_builder(int max_depth) : max_depth_(max_depth) {}

    bool Null() { return attach(value::null_value()); }
    bool Bool(bool b) { return attach(value::boolean(b)); }
    bool RawNumber(const char* s, rapidjson::SizeType n, bool) { return attach(number_from_text({s, n})); }
    bool String(const char* s, rapidjson::SizeType n, bool) { return attach(value::string(std::string(s, n))); }
    bool Key(const char* s, rapidjson::SizeType n, bool)
    {
        stack_.back().key.assign(s, n);
        return true;
    }
    bool StartObject() { return open(value::mapping()); }
    bool EndObject(rapidjson::SizeType) { return close(); }
    bool StartArray() { return open(value::sequence()); }
    bool EndArray(rapidjson::SizeType) { return close(); }

    bool too_deep() const { return too_deep_; }
    value take() { return std::move(root_); }

private:
    struct frame {
        value node;
        std::string key;
    };

    bool open(value v)
    {
        if (static_cast<int>(stack_.size()) >= max_depth_) {
            too_deep_ = true;
            return false;
        }
        stack_.push_back({std::move(v), {}});
        return true;
    }

    bool close()
    {
        value done = std::move(stack_.back().node);
        stack_.pop_back();
        if (done.is_mapping())
            keep_last_duplicate(done);
        return attach(std::move(done));
    }

    bool attach(value v)
    {
        if (stack_.empty()) {
            root_ = std::move(v);
            return true;
        }
        frame& top = stack_.back();
        if (top.node.is_mapping())
            top.node.add(std::move(top.key), std::move(v));
        else
            top.node.push_back(std::move(v));
        return true;
    }

    int max_depth_;
    bool too_deep_ = false;
    std::vector<frame> stack_;
    value root_;
};

} // namespace

result<value> parse_json(std::string_view text, const load_limits& limits)
{
    std::size_t bad = 0;
    if (!is_clean_utf8(text, bad))
        return failure{text[bad] == '\0' ? "NUL byte in JSON text" : "invalid UTF-8 in JSON text",
                       position_of(text, bad)};

    tree_builder builder(limits.max_depth);
    // In-situ parsing of a private, NUL-terminated copy: RapidJSON decodes strings in place and uses
    // its SIMD scanner only for (in-situ) string streams, not for MemoryStream. The copy is cheap
    // next to the parse, and is_clean_utf8 above guarantees there is no NUL inside the text.
    std::string buffer(text);
    rapidjson::InsituStringStream ms(buffer.data());
    rapidjson::Reader reader;
    // No kParseValidateEncodingFlag: is_clean_utf8 has checked every byte already, and RapidJSON's
    // per-character re-validation was the single largest cost of an admission request.
    constexpr unsigned flags = rapidjson::kParseIterativeFlag | rapidjson::kParseNumbersAsStringsFlag |
                               rapidjson::kParseStopWhenDoneFlag | rapidjson::kParseInsituFlag;
    const rapidjson::ParseResult ok = reader.Parse<flags>(ms, builder);
    if (!ok) {
        if (builder.too_deep())
            return failure{"JSON nested deeper than " + std::to_string(limits.max_depth) + " levels",
                           position_of(text, ok.Offset())};
        return failure{std::string("invalid JSON: ") + rapidjson::GetParseError_En(ok.Code()),
                       position_of(text, ok.Offset())};
    }
    // kParseStopWhenDoneFlag lets us reject trailing garbage ourselves with a precise message.
    std::size_t rest = ms.Tell();
    while (rest < text.size() && (text[rest] == ' ' || text[rest] == '\n' || text[rest] == '\r' || text[rest] == '\t'))
        ++rest;
    if (rest != text.size())
        return failure{"invalid JSON: unexpected data after the top-level value", position_of(text, rest)};
    return builder.take();
}

} // namespace kpw::doc
