// SPDX-License-Identifier: Apache-2.0
// YAML text -> doc::value documents through yaml-cpp's event parser (yaml-cpp stays in this file).
// Events rather than YAML::Node: they give a mark for every key and value, let us resolve repeated
// keys as go-yaml does, and let us bound alias expansion before a copy is made.
#include "doc/load.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <istream>
#include <optional>
#include <map>
#include <streambuf>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/exceptions.h>
#include <yaml-cpp/parser.h>

#include "base/base64.hpp"
#include "base/utf8.hpp"
#include "doc/stream_lines.hpp"
#include "doc/yaml_errors.hpp"
#include "doc/yaml_scalars.hpp"
#include "doc/yaml_tabs.hpp"

namespace kpw::doc {
namespace {

// Lines before the text yaml-cpp reads: 0, or where load_yaml starts it again after a piece kubectl
// does not read to its end (see load_yaml).
thread_local int line_offset = 0;

position to_position(const YAML::Mark& m)
{
    if (m.line < 0 || m.column < 0)
        return {};
    return {m.line + 1 + line_offset, m.column + 1}; // yaml-cpp marks are 0-based
}

// position_of in the text yaml-cpp reads, as a position in the whole text.
position part_position(std::string_view part, std::size_t offset)
{
    position at = position_of(part, offset);
    at.line += line_offset;
    return at;
}

struct load_error {
    std::string message;
    position where;
};

std::size_t count_nodes(const value& v)
{
    std::size_t n = 1;
    for (const auto& item : v.items())
        n += count_nodes(item);
    for (const auto& [k, item] : v.members())
        n += count_nodes(item);
    return n;
}

// Bytes as Go's JSON encoder writes a string of them: each byte of invalid UTF-8 becomes U+FFFD.
std::string valid_utf8(std::string_view bytes)
{
    std::string out;
    for (std::size_t i = 0; i < bytes.size();) {
        const std::size_t len = utf8_sequence_length(bytes, i);
        if (len == 0) {
            out.append("\xEF\xBF\xBD");
            ++i;
            continue;
        }
        out.append(bytes.substr(i, len));
        i += len;
    }
    return out;
}

// yaml-cpp 0.7 ends a quoted scalar that is never closed at the end of the text and reports no error
// (`name: "web` and a newline reads as "web "); go-yaml, and so kubectl, fails with "found unexpected
// end of stream". `at` is the scalar's offset in the text: when the opening quote is there, true when
// its closing quote is missing. (A scalar after a tag or anchor starts elsewhere and is not checked.)
bool quote_left_open(std::string_view text, std::size_t at)
{
    if (at >= text.size() || (text[at] != '"' && text[at] != '\''))
        return false;
    const char quote = text[at];
    for (std::size_t i = at + 1; i < text.size(); ++i) {
        if (quote == '"' && text[i] == '\\') {
            ++i; // an escape: the next byte is never the closing quote
        } else if (text[i] == quote) {
            if (quote == '\'' && i + 1 < text.size() && text[i + 1] == '\'') {
                ++i; // '' is a quote inside a single-quoted scalar
                continue;
            }
            return false;
        }
    }
    return true;
}

// The first character go-yaml v2's reader refuses ("control characters are not allowed": anything but
// tab, LF, CR, printable ASCII, NEL and the printable Unicode ranges; reader.go yaml_parser_update_buffer),
// as its byte offset and code point. A JSON object (kubectl decodes a stream as JSON when it starts with
// '{') is refused by Go's JSON decoder only for a C0 control; JSON that Go's decoder refuses goes to
// go-yaml next (apimachinery YAMLOrJSONDecoder), which refuses them all. `text` is valid UTF-8.
std::optional<std::pair<std::size_t, std::uint32_t>> control_character_go_refuses(std::string_view text)
{
    const auto* s = reinterpret_cast<const unsigned char*>(text.data());
    const auto first = text.find_first_not_of(" \t\r\n");
    const bool json = first != std::string_view::npos && text[first] == '{' && parse_json(text).ok();
    for (std::size_t i = 0; i < text.size();) {
        const unsigned char c = s[i];
        if (c < 0x80) {
            if ((c < 0x20 && c != '\t' && c != '\n' && c != '\r') || (c == 0x7F && !json))
                return std::pair{i, std::uint32_t{c}};
            ++i;
            continue;
        }
        const std::size_t len = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : 2;
        std::uint32_t cp = c & (len == 2 ? 0x1F : len == 3 ? 0x0F : 0x07);
        for (std::size_t k = 1; k < len && i + k < text.size(); ++k)
            cp = (cp << 6) | (s[i + k] & 0x3F);
        const bool printable = cp == 0x85 || (cp >= 0xA0 && cp <= 0xD7FF) || (cp >= 0xE000 && cp <= 0xFFFD) ||
                               (cp >= 0x10000 && cp <= 0x10FFFF);
        if (!printable && !json)
            return std::pair{i, cp};
        i += len;
    }
    return std::nullopt;
}

// go-yaml v2 scans an anchor (&name) or alias (*name) name as letters, digits, '_' and '-' only, ended
// by a blank, a line break, the end of the text or one of ?:,]}%@` (scannerc.go yaml_parser_scan_anchor);
// anything else right after the name fails the file with "did not find expected alphabetic or numeric
// character". yaml-cpp 0.7 takes every character but blanks and []{}, into the name (`&3"`, `&&a`,
// `*@x`). `at` is the offset of the '&' or '*': the offset of the first bad byte, or npos.
std::size_t bad_anchor_name(std::string_view text, std::size_t at)
{
    std::size_t i = at + 1;
    auto alnum = [](char c) {
        return (c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_' || c == '-';
    };
    while (i < text.size() && alnum(text[i]))
        ++i;
    if (i == at + 1)
        return i;
    if (i == text.size() || std::string_view(" \t\r\n?:,]}%@`").find(text[i]) != std::string_view::npos)
        return std::string_view::npos;
    return i;
}

// A directive line (`%NAME ...` at column 0) before a document. kubectl's reader cuts the stream at
// every line starting with "---" and hands each piece without that line to go-yaml v2 (apimachinery
// YAMLReader), so a directive is never followed by its "---" there: go-yaml refuses every piece that
// starts with one (parserc.go: did not find expected <document start>), or a malformed one earlier
// (scannerc.go yaml_parser_scan_directive). yaml-cpp 0.7 reads %YAML 1.x and %TAG and skips an unknown or
// empty directive. Only the lines before a piece's first content are directive lines (blank and comment
// lines may come first). Returns the offset and go-yaml's words, or nullopt.
std::optional<std::pair<std::size_t, const char*>> directive_go_yaml_refuses(std::string_view text)
{
    bool prologue = true;
    for (std::size_t start = 0; start < text.size();) {
        std::size_t end = text.find('\n', start);
        if (end == std::string_view::npos)
            end = text.size();
        const std::string_view line = text.substr(start, end - start);
        const std::size_t here = start;
        start = end + 1;
        if (line.starts_with("---")) {
            prologue = true;
            continue;
        }
        if (!prologue)
            continue;
        const std::size_t first = line.find_first_not_of(" \t\r");
        if (first == std::string_view::npos || line[first] == '#')
            continue; // blank or comment lines do not end the prologue
        if (line[0] != '%') {
            prologue = false;
            continue;
        }
        std::size_t i = 1;
        while (i < line.size() && ((line[i] >= '0' && line[i] <= '9') || (line[i] >= 'A' && line[i] <= 'Z') ||
                                   (line[i] >= 'a' && line[i] <= 'z') || line[i] == '_' || line[i] == '-'))
            ++i;
        if (i == 1)
            return std::pair{here + i, "could not find expected directive name"};
        if (i < line.size() && line[i] != ' ' && line[i] != '\t' && line[i] != '\r')
            return std::pair{here + i, "found unexpected non-alphabetical character"};
        const std::string_view name = line.substr(1, i - 1);
        if (name != "YAML" && name != "TAG")
            return std::pair{here + 1, "found unknown directive name"};
        return std::pair{here, "did not find expected <document start>"};
    }
    return std::nullopt;
}

// An istream's buffer over the text as it is: yaml-cpp reads it without a copy.
class view_buffer final : public std::streambuf {
public:
    explicit view_buffer(std::string_view text)
    {
        char* p = const_cast<char*>(text.data()); // read only: no put area, no putback into it
        setg(p, p, p + text.size());
    }
};

class tree_builder final : public YAML::EventHandler {
public:
    tree_builder(std::string_view text, const load_limits& limits, std::size_t max_nodes)
        : text_(text), limits_(limits), max_nodes_(max_nodes)
    {
    }

    void OnDocumentStart(const YAML::Mark& mark) override
    {
        start_ = to_position(mark);
        start_offset_ = mark.pos < 0 ? 0 : static_cast<std::size_t>(mark.pos);
        anchors_.clear();
        has_root_ = false;
        repeated_.clear();
    }
    void OnDocumentEnd() override {}

    void OnNull(const YAML::Mark& mark, YAML::anchor_t anchor) override
    {
        // yaml-cpp reports an empty scalar with a tag (`!`, `!!str`, `!!sr`) as null and drops the tag;
        // go-yaml v2 resolves only untagged and !!null empty scalars to null, the others to the string ""
        // (resolve.go resolvableTag), so kubectl reads such a document as a string, no object.
        // yaml-cpp 0.7 reads an empty entry of a flow collection (`[1,,2]`, `{,a: 1}`) as a null; go-yaml
        // refuses the file ("did not find expected node content"). A null value after a flow key is fine.
        if (!stack_.empty() && !stack_.back().block && mark.pos >= 0 &&
            static_cast<std::size_t>(mark.pos) < text_.size() && text_[static_cast<std::size_t>(mark.pos)] == ',' &&
            (!stack_.back().node.is_mapping() || stack_.back().expecting_key))
            throw load_error{"an empty entry in a flow collection (a ',' where a value belongs): kubectl's go-yaml "
                             "refuses the file here (did not find expected node content)",
                             to_position(mark)};
        check_anchor(mark, anchor);
        if (tagged_not_null(mark)) {
            emit(value::string("", to_position(mark)), anchor, mark);
            return;
        }
        emit(value::null_value(to_position(mark)), anchor, mark);
    }

    void OnAlias(const YAML::Mark& mark, YAML::anchor_t anchor) override
    {
        if (mark.pos >= 0 && static_cast<std::size_t>(mark.pos) < text_.size() &&
            text_[static_cast<std::size_t>(mark.pos)] == '*')
            refuse_bad_name(static_cast<std::size_t>(mark.pos), "an alias (*name)");
        auto it = anchors_.find(anchor);
        if (it == anchors_.end())
            throw load_error{"unknown alias", to_position(mark)};
        expanded_alias_ = true;
        spend(it->second.second, mark);
        value copy = it->second.first;
        copy.set_pos(to_position(mark));
        emit(std::move(copy), 0, mark);
    }

    void OnScalar(const YAML::Mark& mark, const std::string& tag, YAML::anchor_t anchor,
                  const std::string& text) override
    {
        check_anchor(mark, anchor);
        const position at = to_position(mark);
        // "?" = plain (resolve like YAML 1.1), "!" = quoted, or an explicit tag such as !!str. go-yaml v2
        // resolves untagged scalars and those tagged !!bool, !!int, !!float, !!timestamp (and !!null here);
        // any other tag (!custom, !!sr, !!binary) keeps the text a string (resolve.go resolvableTag).
        const bool resolvable = tag == "?" || tag == "tag:yaml.org,2002:bool" || tag == "tag:yaml.org,2002:int" ||
                                tag == "tag:yaml.org,2002:float" || tag == "tag:yaml.org,2002:timestamp" ||
                                tag == "tag:yaml.org,2002:null";
        const bool as_string = !resolvable;
        if (tag == "!" && mark.pos >= 0 && quote_left_open(text_, static_cast<std::size_t>(mark.pos)))
            throw load_error{std::string("unterminated quoted string: the closing ") + text_[mark.pos] +
                                 " is missing (go-yaml: found unexpected end of stream while scanning a quoted scalar)",
                             at};
        const auto repaired = escapes_as_utf8(text);
        const std::string& utf8 = repaired ? *repaired : text;
        if (tag == "tag:yaml.org,2002:binary") { // go-yaml v2 decodes it (decode.go scalar): the bytes, as a string
            std::string bytes;
            std::size_t bad_at = 0;
            if (!base64_decode(utf8, bytes, bad_at))
                throw load_error{"!!binary value contains invalid base64 data (go-yaml)", at};
            emit(value::string(valid_utf8(bytes), at), anchor, mark);
            return;
        }
        emit(as_string ? value::string(utf8, at) : resolve_plain(utf8, at), anchor, mark);
    }

    void OnSequenceStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t anchor,
                         YAML::EmitterStyle::value style) override
    {
        check_anchor(mark, anchor);
        open(value::sequence(to_position(mark)), anchor, mark);
        stack_.back().block = style != YAML::EmitterStyle::Flow;
    }
    void OnSequenceEnd() override { close(); }

    void OnMapStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t anchor,
                    YAML::EmitterStyle::value style) override
    {
        check_anchor(mark, anchor);
        open(value::mapping(to_position(mark)), anchor, mark);
        stack_.back().block = style != YAML::EmitterStyle::Flow;
    }
    void OnMapEnd() override { close(); }

    bool has_root() const { return has_root_; }

    value take_root()
    {
        has_root_ = false;
        return std::move(root_);
    }
    position start() const { return start_; }
    std::size_t start_offset() const { return start_offset_; }

    // The current document's repeated keys, in text order.
    std::vector<repeated_key> take_repeated()
    {
        std::sort(repeated_.begin(), repeated_.end(), [](const repeated_key& a, const repeated_key& b) {
            return a.again.line != b.again.line ? a.again.line < b.again.line : a.again.column < b.again.column;
        });
        return std::exchange(repeated_, {});
    }

private:
    // A node with an anchor starts at its properties (`&name`, `!tag &name`, `&name !tag`): the anchor's
    // name is held to go-yaml's rule (bad_anchor_name). Only anchored nodes pay for the look.
    void check_anchor(const YAML::Mark& mark, YAML::anchor_t anchor) const
    {
        if (!anchor || mark.pos < 0)
            return;
        std::size_t i = static_cast<std::size_t>(mark.pos);
        for (int property = 0; property < 2 && i < text_.size(); ++property) {
            if (text_[i] == '&') {
                refuse_bad_name(i, "an anchor (&name)");
                return;
            }
            if (text_[i] != '!')
                return;
            i = text_.find_first_of(" \t\r\n", i);
            if (i == std::string_view::npos)
                return;
            i = text_.find_first_not_of(" \t\r\n", i);
            if (i == std::string_view::npos)
                return;
        }
    }

    void refuse_bad_name(std::size_t at, const char* what) const
    {
        const std::size_t bad = bad_anchor_name(text_, at);
        if (bad == std::string_view::npos) {
            // `&name: x`: go-yaml ends the name at the ':' and reads an anchored empty key, which kubectl's
            // sigs.k8s.io/yaml refuses; yaml-cpp 0.7 read an anchor named "name:" on a null.
            std::size_t end = at + 1;
            while (end < text_.size() && std::string_view(" \t\r\n?:,]}%@`").find(text_[end]) == std::string_view::npos)
                ++end;
            if (text_[at] == '&' && end < text_.size() && text_[end] == ':' &&
                (end + 1 == text_.size() || std::string_view(" \t\r\n").find(text_[end + 1]) != std::string_view::npos))
                throw load_error{"an anchor name ends at ':' for kubectl's go-yaml, which then reads an empty (null) "
                                 "mapping key here: kubectl refuses the file (unsupported map key of type: <nil>)",
                                 part_position(text_, end)};
            return;
        }
        throw load_error{std::string("the name of ") + what +
                             " may hold only letters, digits, '_' and '-', and ends at a space, a line break or one "
                             "of ?:,]}%@` (kubectl's go-yaml refuses the file here: did not find expected "
                             "alphabetic or numeric character)",
                         part_position(text_, bad)};
    }

    // Whether the node at `mark` carries a tag other than !!null (after an anchor, if any).
    bool tagged_not_null(const YAML::Mark& mark) const
    {
        if (mark.pos < 0 || static_cast<std::size_t>(mark.pos) >= text_.size())
            return false;
        std::string_view rest = text_.substr(static_cast<std::size_t>(mark.pos));
        auto token = [&rest] {
            const auto end = rest.find_first_of(" \t\r\n");
            std::string_view t = rest.substr(0, end);
            rest = end == std::string_view::npos ? std::string_view() : rest.substr(end);
            rest.remove_prefix(std::min(rest.find_first_not_of(" \t"), rest.size()));
            return t;
        };
        if (rest.starts_with('&'))
            token();
        if (!rest.starts_with('!'))
            return false;
        const std::string_view tag = token();
        return tag != "!!null" && tag != "!<tag:yaml.org,2002:null>";
    }

    struct frame {
        value node;
        YAML::anchor_t anchor = 0;
        bool expecting_key = true;
        std::string key;
        position key_pos;
        bool block = false; // a block collection (entries on their own lines), not a flow one ({a: 1}, [1])
        // Once a merge key (<<) has set members, a member already there may come from the merged mapping
        // rather than from a key written here: from then on the keys written here, each at its first place.
        bool merged = false;
        std::vector<std::pair<std::string, position>> written;
    };

    // Whether the key at `mark` of a mapping is no key at all: yaml-cpp 0.7 marks a missing key at the ':'
    // (`: x`, `a: 1` then `: 2`, `{a, : b}`) and reads a null key, and reads `:x` in { } as a plain key;
    // go-yaml v2 takes a ':' in { } as the value indicator, and refuses the file at a key that is missing
    // ("did not find expected key", in { } "did not find expected node content"). An explicit key ("? "
    // on the line) may be empty. Called for null keys and for the keys of { } mappings only.
    bool empty_key(const YAML::Mark& mark) const
    {
        if (mark.pos < 0 || static_cast<std::size_t>(mark.pos) >= text_.size())
            return false;
        const auto start = static_cast<std::size_t>(mark.pos);
        if (text_[start] != ':')
            return false;
        const auto line_start = text_.rfind('\n', start == 0 ? 0 : start - 1);
        const std::size_t from = line_start == std::string_view::npos || start == 0 ? 0 : line_start + 1;
        return text_.substr(from, start - from).find('?') == std::string_view::npos;
    }

    // Whether the implicit key starting at `mark` of a block mapping has no ':' after it on its line.
    // yaml-cpp 0.7 takes such a line (`  clu` as the last line of a mapping) as a key with a null value;
    // go-yaml refuses the file ("could not find expected ':'"): a simple key is one line and needs its ':'.
    bool key_without_colon(const YAML::Mark& mark) const
    {
        if (mark.pos < 0 || static_cast<std::size_t>(mark.pos) >= text_.size())
            return false;
        const auto start = static_cast<std::size_t>(mark.pos);
        const auto line_start = text_.rfind('\n', start == 0 ? 0 : start - 1);
        const std::string_view before =
            text_.substr(line_start == std::string_view::npos ? 0 : line_start + 1,
                         start - (line_start == std::string_view::npos ? 0 : line_start + 1));
        if (before.find('?') != std::string_view::npos)
            return false; // an explicit key ("? key"): its ':' may come on a later line
        std::size_t i = start;
        if (text_[i] == '"' || text_[i] == '\'') {
            const char quote = text_[i];
            for (++i; i < text_.size() && text_[i] != '\n'; ++i) {
                if (quote == '"' && text_[i] == '\\') {
                    ++i;
                } else if (text_[i] == quote) {
                    if (quote == '\'' && i + 1 < text_.size() && text_[i + 1] == '\'') {
                        ++i;
                        continue;
                    }
                    break;
                }
            }
            if (i >= text_.size() || text_[i] == '\n')
                return false; // a quoted key over several lines: not judged here
        }
        for (; i < text_.size() && text_[i] != '\n' && text_[i] != '\r'; ++i)
            if (text_[i] == ':' && (i + 1 == text_.size() || std::string_view(" \t\r\n").find(text_[i + 1]) !=
                                                                 std::string_view::npos))
                return false;
            else if (text_[i] == '#' && i > 0 && (text_[i - 1] == ' ' || text_[i - 1] == '\t'))
                break; // a comment ends the line's content
        return true;
    }

    void spend(std::size_t nodes, const YAML::Mark& mark)
    {
        built_ += nodes;
        if (built_ <= max_nodes_)
            return;
        // Without aliases a text cannot hold more nodes than the default budget (4 per byte): yaml-cpp
        // 0.7 is looping without progress, which it does on a stray ',' outside a flow collection.
        if (!expanded_alias_ && limits_.max_nodes == 0)
            throw load_error{"not valid YAML: the parser makes no progress here (a ',' outside [ ] or { }, "
                             "such as \"a\", \"b\" at the top level?)",
                             to_position(mark)};
        throw load_error{"document expands to more than " + std::to_string(max_nodes_) +
                             " nodes (alias bomb?); refusing to expand it",
                         to_position(mark)};
    }

    void open(value v, YAML::anchor_t anchor, const YAML::Mark& mark)
    {
        if (!stack_.empty() && stack_.back().node.is_mapping() && stack_.back().expecting_key)
            throw load_error{"mapping keys must be scalars", to_position(mark)};
        if (static_cast<int>(stack_.size()) >= limits_.max_depth)
            throw load_error{"document nested deeper than " + std::to_string(limits_.max_depth) + " levels",
                             to_position(mark)};
        spend(1, mark);
        stack_.push_back({std::move(v), anchor, true, {}, {}, false, false, {}});
    }

    void close()
    {
        frame done = std::move(stack_.back());
        stack_.pop_back();
        if (done.anchor)
            anchors_[done.anchor] = {done.node, count_nodes(done.node)};
        attach(std::move(done.node));
    }

    void emit(value v, YAML::anchor_t anchor, const YAML::Mark& mark)
    {
        spend(1, mark);
        if (anchor)
            anchors_[anchor] = {v, count_nodes(v)};
        if (!stack_.empty() && stack_.back().node.is_mapping() && stack_.back().expecting_key) {
            take_key(v, mark);
            return;
        }
        // kubectl turns the YAML into JSON before anything reads it, and Go's encoder has no NaN or
        // infinity: .nan / .inf as a value fails the whole document (a key is formatted as text instead).
        if (v.is_number() && !v.is_int() && !std::isfinite(v.as_double()))
            throw load_error{std::string("json: unsupported value: ") +
                                 (std::isnan(v.as_double()) ? "NaN" : v.as_double() > 0 ? "+Inf" : "-Inf") +
                                 " (kubectl: error converting YAML to JSON): " + v.text() +
                                 " is no JSON number; quote it for a string",
                             to_position(mark)};
        attach(std::move(v));
    }

    void take_key(const value& k, const YAML::Mark& mark)
    {
        frame& top = stack_.back();
        if (k.is_sequence() || k.is_mapping())
            throw load_error{"mapping keys must be scalars", to_position(mark)};
        if ((k.is_null() || !top.block) && empty_key(mark))
            throw load_error{top.block ? "a ':' with no key before it: a line in a mapping needs \"key: value\" "
                                         "(kubectl's go-yaml refuses the file here: did not find expected key)"
                                       : "a ':' with no key before it in a { } mapping (kubectl's go-yaml refuses "
                                         "the file here: did not find expected node content)",
                             to_position(mark)};
        if (top.block && key_without_colon(mark))
            throw load_error{"could not find expected ':' after this key: a line in a mapping needs \"key: value\" "
                             "(kubectl's go-yaml refuses the file here)",
                             to_position(mark)};
        top.key = k.is_null() ? "null" : k.is_bool() ? (k.as_bool() ? "true" : "false") : k.text();
        top.key_pos = to_position(mark);
        top.expecting_key = false;
    }

    void attach(value v)
    {
        if (stack_.empty()) {
            root_ = std::move(v);
            has_root_ = true;
            return;
        }
        frame& top = stack_.back();
        if (!top.node.is_mapping()) {
            top.node.push_back(std::move(v));
            return;
        }
        top.expecting_key = true;
        if (top.key == "<<") {
            if (!top.merged) {
                top.merged = true;
                for (const auto& [k, member] : top.node.members())
                    top.written.emplace_back(k, first_of(k, member.key_pos()));
            }
            merge(top, std::move(v));
            return;
        }
        v.set_key_pos(top.key_pos);
        const position previous = assign(top.node, std::move(top.key), std::move(v));
        if (previous.known() || top.merged)
            note_repeat(top, previous);
    }

    // go-yaml v2 (sigs.k8s.io/yaml.Unmarshal, which kubectl's reader calls; non-strict) stores each
    // key of a mapping in turn into one Go map: a repeated key keeps its last value, and so does a key
    // that a merge key sets again (decode.go mapping, setMapIndex). It goes last, where it was set.
    // Returns where the key it replaces was (unknown when the key is new). One scan, as erase's was.
    static position assign(value& mapping, std::string key, value v)
    {
        position previous;
        auto& members = mapping.members();
        for (auto it = members.begin(); it != members.end(); ++it) {
            if (it->first == key) {
                previous = it->second.key_pos();
                members.erase(it);
                break;
            }
        }
        mapping.add(std::move(key), std::move(v));
        return previous;
    }

    // The key just stored last in the top mapping (at top.key_pos) replaced the member at `previous`
    // (unknown: it is new). A repeat of a key written here is recorded for lint's duplicate-key warning
    // (every YAML linter warns; kubectl says nothing and reads the last value); a key set before by a
    // merge key is no repeat: overriding a merged value is what merge keys are for.
    void note_repeat(frame& top, position previous)
    {
        const std::string& key = top.node.members().back().first;
        if (!top.merged) {
            record_repeat(key, first_of(key, previous), top.key_pos);
            return;
        }
        for (const auto& [k, first] : top.written) {
            if (k == key) {
                record_repeat(key, first, top.key_pos);
                return;
            }
        }
        top.written.emplace_back(key, top.key_pos);
    }

    // The first occurrence of a key whose latest occurrence is at `latest` (a key written three times
    // replaced its second occurrence, which was recorded as a repeat of the first).
    position first_of(const std::string& key, position latest) const
    {
        for (auto r = repeated_.rbegin(); r != repeated_.rend(); ++r)
            if (r->again == latest && r->key == key)
                return r->first;
        return latest;
    }

    void record_repeat(const std::string& key, position first, position again)
    {
        // The member's field path: each open collection's pending key or next index, then the key.
        std::string path;
        for (std::size_t i = 0; i + 1 < stack_.size(); ++i) {
            if (stack_[i].node.is_mapping())
                append_key(path, stack_[i].key);
            else
                append_index(path, stack_[i].node.items().size());
        }
        append_key(path, key);
        repeated_.push_back({std::move(path), key, first, again});
    }

    // YAML merge keys, as go-yaml v2 merges (decode.go merge): the merged mapping's members are stored
    // like the mapping's own at the merge key's place, so they replace the keys set before it and the
    // keys after it replace them; of a list of mappings, the earlier ones win (stored last).
    void merge(frame& top, value source)
    {
        if (source.is_sequence()) {
            for (auto item = source.items().rbegin(); item != source.items().rend(); ++item)
                if (!item->is_mapping())
                    throw load_error{"a merge key (<<) needs a mapping or a list of mappings", top.key_pos};
            for (auto item = source.items().rbegin(); item != source.items().rend(); ++item)
                merge(top, std::move(*item));
            return;
        }
        if (!source.is_mapping())
            throw load_error{"a merge key (<<) needs a mapping or a list of mappings", top.key_pos};
        for (auto& [k, item] : source.members())
            assign(top.node, k, std::move(item));
    }

    std::string_view text_; // what the parser reads: marks are offsets into it
    const load_limits& limits_;
    std::size_t max_nodes_;
    std::size_t built_ = 0;
    bool expanded_alias_ = false;
    std::vector<frame> stack_;
    std::map<YAML::anchor_t, std::pair<value, std::size_t>> anchors_;
    std::vector<repeated_key> repeated_;
    value root_;
    bool has_root_ = false;
    position start_;
    std::size_t start_offset_ = 0;
};

// kubectl's reader (apimachinery YAMLReader) cuts the stream into pieces at each line starting with
// "---" and sigs.k8s.io/yaml.Unmarshal reads only the first document of a piece: what follows its root
// in the same piece (a stray '}' after a JSON object, a document after "...") is never parsed. The
// offsets where pieces start after the first: each "---" line.
std::vector<std::size_t> piece_starts(std::string_view text)
{
    std::vector<std::size_t> out;
    if (text.starts_with("---"))
        out.push_back(0);
    for (std::size_t at = text.find("\n---"); at != std::string_view::npos; at = text.find("\n---", at + 1))
        out.push_back(at + 1);
    return out;
}

// The piece of the text that `offset` is in (0: before the first "---" line).
std::size_t piece_of(const std::vector<std::size_t>& starts, std::size_t offset)
{
    return static_cast<std::size_t>(std::upper_bound(starts.begin(), starts.end(), offset) - starts.begin());
}

// The document index lint reports for each piece's document: yaml-cpp's count of documents
// (Parser::HandleNextDocument) at the piece's first content line, as its lines give it: each "---" starts a
// document, content outside a document starts one, "..." ends one (a "..." before any document is an
// empty document of its own). For a well-formed stream this is the count yaml-cpp reaches; in a malformed
// piece yaml-cpp may recover into a second document the lines do not show, and the pieces after it keep
// the index their lines give (the conformance oracle numbers documents by the same lines:
// tests/conformance/internal/inputs/index.go). -1 for a piece without content.
std::vector<int> piece_indexes(std::string_view text, const std::vector<std::size_t>& starts)
{
    std::vector<int> out(starts.size() + 1, -1);
    int index = -1;
    bool open = false;
    for (std::size_t at = 0; at < text.size();) {
        std::size_t end = text.find('\n', at);
        if (end == std::string_view::npos)
            end = text.size();
        switch (classify_line(text.substr(at, end - at))) {
        case line_kind::separator:
            ++index;
            open = true;
            break;
        case line_kind::document_end:
            if (!open && index < 0)
                ++index;
            open = false;
            break;
        case line_kind::other:
            if (!open) {
                ++index;
                open = true;
            }
            if (int& first = out[piece_of(starts, at)]; first < 0)
                first = index;
            break;
        case line_kind::blank:
        case line_kind::directive:
            break;
        }
        at = end + 1;
    }
    return out;
}

// Whether the piece starting at `from` (after its "---", blank and comment lines) starts with '{' or '['.
bool flow_root(std::string_view text, std::size_t from)
{
    std::size_t i = text.substr(from).starts_with("---") ? from + 3 : from;
    for (;;) {
        i = text.find_first_not_of(" \t\r\n", i);
        if (i == std::string_view::npos)
            return false;
        if (text[i] != '#')
            return text[i] == '{' || text[i] == '[';
        i = text.find('\n', i);
        if (i == std::string_view::npos)
            return false;
    }
}

// Whether the text up to `at` is a JSON object that starts the stream: kubectl's YAMLOrJSONDecoder then
// reads it with Go's JSON decoder and decodes the rest as a YAML stream of its own, which fails at the
// stray '}' or ']' (and kubectl reports the JSON error).
bool json_before(std::string_view text, std::size_t piece, std::size_t at)
{
    const std::size_t first = text.find_first_not_of(" \t\r\n");
    return piece == 0 && first != std::string_view::npos && text[first] == '{' && parse_json(text.substr(0, at)).ok();
}

// The byte offset of a 1-based position (the end of the text when past it).
std::size_t offset_of(std::string_view text, position at)
{
    std::size_t offset = 0;
    for (int line = 1; line < at.line; ++line) {
        offset = text.find('\n', offset);
        if (offset == std::string_view::npos)
            return text.size();
        ++offset;
    }
    return std::min(text.size(), offset + static_cast<std::size_t>(at.column > 0 ? at.column - 1 : 0));
}

} // namespace

result<std::vector<document>> load_yaml_stream(std::string_view text, const load_limits& limits)
{
    if (text.size() >= 3 && text.substr(0, 3) == "\xEF\xBB\xBF")
        text.remove_prefix(3); // a UTF-8 byte order mark is allowed and ignored
    std::size_t bad = 0;
    if (!is_clean_utf8(text, bad))
        return failure{text[bad] == '\0' ? "NUL byte: this is not a YAML or JSON text file"
                                         : "invalid UTF-8 (YAML and JSON must be UTF-8)",
                       position_of(text, bad)};

    // go-yaml takes a lone CR as a line break (a "\r" in a quoted scalar folds to a space, a line after
    // it is a new line); yaml-cpp 0.7 does not. A CR not before an LF becomes an LF, one byte for one, so
    // offsets and marks hold; only a text that has one is copied.
    std::string breaks;
    for (std::size_t cr = text.find('\r'); cr != std::string_view::npos; cr = text.find('\r', cr + 1)) {
        if (cr + 1 < text.size() && text[cr + 1] == '\n')
            continue;
        if (breaks.empty()) {
            breaks.assign(text);
            text = breaks;
        }
        breaks[cr] = '\n';
    }

    if (auto control = control_character_go_refuses(text)) {
        char code[16];
        std::snprintf(code, sizeof code, "U+%04X", static_cast<unsigned>(control->second));
        return failure{std::string("a control character (") + code +
                           ") is not allowed in YAML (kubectl's go-yaml refuses the file: control characters are "
                           "not allowed)",
                       position_of(text, control->first)};
    }

    // yaml-cpp 0.7 reads past a tab in the indentation; kubectl's go-yaml refuses the file there.
    if (auto tab = tab_go_yaml_refuses(text))
        return failure{"a tab in the indentation: YAML indents with spaces only (kubectl's go-yaml refuses the "
                       "file here: found character that cannot start any token)",
                       position_of(text, *tab)};

    if (auto directive = directive_go_yaml_refuses(text))
        return failure{std::string("a directive line (%YAML, %TAG) before a document: kubectl cuts the stream at "
                                   "each --- line and its go-yaml then refuses the directive (") +
                           directive->second + ")",
                       position_of(text, directive->first)};

    const std::size_t max_nodes = limits.max_nodes ? limits.max_nodes : 4 * text.size() + 1024;
    const std::vector<std::size_t> pieces = piece_starts(text);
    const std::vector<int> numbered = piece_indexes(text, pieces);
    std::vector<document> docs;
    std::size_t read_piece = std::string_view::npos; // the last piece whose first document was read
    std::size_t base = 0;                              // where yaml-cpp starts reading
    int index = 0;
    line_offset = 0;
    struct reset_offset {
        ~reset_offset() { line_offset = 0; }
    } reset;
    std::size_t limit = text.size(); // where yaml-cpp stops reading (see below)
    position first_failed;
    std::string first_why;
    for (;;) {
        const std::string_view part = text.substr(base, limit - base);
        view_buffer buffer(part);
        std::istream in(&buffer);
        tree_builder builder(part, limits, max_nodes);
        auto take = [&] {
            if (!builder.has_root())
                return;
            value root = builder.take_root();
            const std::size_t piece = piece_of(pieces, base + builder.start_offset());
            if (piece == read_piece)
                return; // after the piece's first document: kubectl never reads it
            if (root.is_null())
                return; // an empty document ("---" alone) is skipped, as kubectl skips it
            read_piece = piece;
            docs.push_back({numbered[piece] >= 0 ? numbered[piece] : index, builder.start(), std::move(root),
                            builder.take_repeated()});
        };
        std::optional<position> failed;
        std::string why;
        try {
            YAML::Parser parser(in);
            for (; parser.HandleNextDocument(builder); ++index)
                take();
            if (limit == text.size())
                return docs;
            // Read up to a stray '}' or ']' (below): go on at the next piece after it, if any.
            const std::size_t next = piece_of(pieces, limit);
            if (next >= pieces.size())
                return docs;
            line_offset += static_cast<int>(std::count(text.begin() + static_cast<std::ptrdiff_t>(base),
                                                       text.begin() + static_cast<std::ptrdiff_t>(pieces[next]), '\n'));
            base = pieces[next];
            limit = text.size(); // (the loop above counted the document read)
            continue;
        } catch (const load_error& e) {
            failed = e.where;
            why = e.message;
        } catch (const YAML::Exception& e) {
            failed = to_position(e.mark);
            why = e.msg;
        } catch (const std::exception& e) {
            return failure{e.what(), {}};
        }
        // yaml-cpp may fail on what follows a complete root while it looks for the document's end.
        take();
        if (limit != text.size()) // the text up to a stray '}' or ']' is no document either
            return explain_yaml_error(text, first_why, first_failed);
        // An error after the first document of its piece is one kubectl never sees: go on at the next
        // piece, if any. Any other is the file's error.
        if (!failed->known() || failed->line <= line_offset)
            return explain_yaml_error(text, why, *failed);
        const std::size_t at = base + offset_of(part, {failed->line - line_offset, failed->column});
        const std::size_t piece = piece_of(pieces, at);
        // yaml-cpp looks past a { } or [ ] root (it could be a key) before it reports the root: a stray
        // '}' or ']' after it fails the parse before any event. go-yaml reads the root and stops: so
        // does lint, by reading the text up to the stray one again.
        if (piece != read_piece && why == YAML::ErrorMsg::FLOW_END && limit == text.size() && at > base &&
            piece_of(pieces, base) == piece && flow_root(text, piece == 0 ? 0 : pieces[piece - 1]) &&
            !json_before(text, piece, at)) {
            limit = at;
            first_failed = *failed;
            first_why = why;
            continue;
        }
        if (piece != read_piece || json_before(text, piece, at))
            return explain_yaml_error(text, why, *failed);
        if (piece >= pieces.size())
            return docs;
        line_offset += static_cast<int>(std::count(text.begin() + static_cast<std::ptrdiff_t>(base),
                                                   text.begin() + static_cast<std::ptrdiff_t>(pieces[piece]), '\n'));
        base = pieces[piece];
        ++index;
    }
}

} // namespace kpw::doc
