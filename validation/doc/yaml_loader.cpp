// SPDX-License-Identifier: Apache-2.0
// YAML text -> doc::value documents through yaml-cpp's event parser (yaml-cpp stays in this file).
// Events rather than YAML::Node: they give a mark for every key and value, let us resolve repeated
// keys as go-yaml does, and let us bound alias expansion before a copy is made.
#include "doc/load.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <map>
#include <sstream>
#include <string>
#include <utility>

#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/exceptions.h>
#include <yaml-cpp/parser.h>

#include "doc/yaml_errors.hpp"
#include "doc/yaml_scalars.hpp"
#include "doc/yaml_tabs.hpp"

namespace kpw::doc {
namespace {

position to_position(const YAML::Mark& m)
{
    if (m.line < 0 || m.column < 0)
        return {};
    return {m.line + 1, m.column + 1}; // yaml-cpp marks are 0-based
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

class tree_builder final : public YAML::EventHandler {
public:
    tree_builder(std::string_view text, const load_limits& limits, std::size_t max_nodes)
        : text_(text), limits_(limits), max_nodes_(max_nodes)
    {
    }

    void OnDocumentStart(const YAML::Mark& mark) override
    {
        start_ = to_position(mark);
        anchors_.clear();
        has_root_ = false;
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
        if (tagged_not_null(mark)) {
            emit(value::string("", to_position(mark)), anchor, mark);
            return;
        }
        emit(value::null_value(to_position(mark)), anchor, mark);
    }

    void OnAlias(const YAML::Mark& mark, YAML::anchor_t anchor) override
    {
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
        emit(as_string ? value::string(utf8, at) : resolve_plain(utf8, at), anchor, mark);
    }

    void OnSequenceStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t anchor,
                         YAML::EmitterStyle::value style) override
    {
        open(value::sequence(to_position(mark)), anchor, mark);
        stack_.back().block = style != YAML::EmitterStyle::Flow;
    }
    void OnSequenceEnd() override { close(); }

    void OnMapStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t anchor,
                    YAML::EmitterStyle::value style) override
    {
        open(value::mapping(to_position(mark)), anchor, mark);
        stack_.back().block = style != YAML::EmitterStyle::Flow;
    }
    void OnMapEnd() override { close(); }

    bool has_root() const { return has_root_; }
    value take_root() { return std::move(root_); }
    position start() const { return start_; }

private:
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
    };

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
        stack_.push_back({std::move(v), anchor, true, {}, {}});
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
        attach(std::move(v));
    }

    void take_key(const value& k, const YAML::Mark& mark)
    {
        frame& top = stack_.back();
        if (k.is_sequence() || k.is_mapping())
            throw load_error{"mapping keys must be scalars", to_position(mark)};
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
            merge(top, std::move(v));
            return;
        }
        v.set_key_pos(top.key_pos);
        assign(top.node, std::move(top.key), std::move(v));
    }

    // go-yaml v2 (sigs.k8s.io/yaml.Unmarshal, which kubectl's reader calls; non-strict) stores each
    // key of a mapping in turn into one Go map: a repeated key keeps its last value, and so does a key
    // that a merge key sets again (decode.go mapping, setMapIndex). It goes last, where it was set.
    static void assign(value& mapping, std::string key, value v)
    {
        mapping.erase(key);
        mapping.add(std::move(key), std::move(v));
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
    value root_;
    bool has_root_ = false;
    position start_;
};

} // namespace

result<std::vector<document>> load_yaml(std::string_view text, const load_limits& limits)
{
    if (text.size() >= 3 && text.substr(0, 3) == "\xEF\xBB\xBF")
        text.remove_prefix(3); // a UTF-8 byte order mark is allowed and ignored
    std::size_t bad = 0;
    if (!is_clean_utf8(text, bad))
        return failure{text[bad] == '\0' ? "NUL byte: this is not a YAML or JSON text file"
                                         : "invalid UTF-8 (YAML and JSON must be UTF-8)",
                       position_of(text, bad)};

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

    const std::size_t max_nodes = limits.max_nodes ? limits.max_nodes : 4 * text.size() + 1024;
    std::vector<document> docs;
    std::istringstream in{std::string(text)};
    try {
        YAML::Parser parser(in);
        tree_builder builder(text, limits, max_nodes);
        for (int index = 0; parser.HandleNextDocument(builder); ++index) {
            if (!builder.has_root())
                continue;
            value root = builder.take_root();
            if (root.is_null())
                continue; // an empty document ("---" alone), as kubectl skips it
            docs.push_back({index, builder.start(), std::move(root)});
        }
    } catch (const load_error& e) {
        return explain_yaml_error(text, e.message, e.where);
    } catch (const YAML::Exception& e) {
        return explain_yaml_error(text, e.msg, to_position(e.mark));
    } catch (const std::exception& e) {
        return failure{e.what(), {}};
    }
    return docs;
}

} // namespace kpw::doc
