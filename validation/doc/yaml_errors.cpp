// SPDX-License-Identifier: Apache-2.0
// YAML parse errors in words: what was found at the position and what YAML expects there.
#include "doc/yaml_errors.hpp"

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

namespace kpw::doc {
namespace {

// The text's lines without their line breaks, 0-based (line n of a position is lines[n - 1]).
std::vector<std::string_view> split_lines(std::string_view text)
{
    std::vector<std::string_view> out;
    for (std::size_t start = 0; start <= text.size();) {
        std::size_t end = text.find('\n', start);
        if (end == std::string_view::npos)
            end = text.size();
        std::string_view line = text.substr(start, end - start);
        if (!line.empty() && line.back() == '\r')
            line.remove_suffix(1);
        out.push_back(line);
        start = end + 1;
    }
    return out;
}

std::size_t indent_of(std::string_view line)
{
    std::size_t n = 0;
    while (n < line.size() && (line[n] == ' ' || line[n] == '\t'))
        ++n;
    return n;
}

bool significant(std::string_view line)
{
    const std::size_t i = indent_of(line);
    return i < line.size() && line[i] != '#';
}

// The closest line above `index` (0-based) with content, or nullopt.
std::optional<std::size_t> line_above(const std::vector<std::string_view>& lines, std::size_t index)
{
    for (std::size_t i = index; i-- > 0;)
        if (significant(lines[i]) && lines[i].substr(indent_of(lines[i])) != "---")
            return i;
    return std::nullopt;
}

// The last Go-template marker ({{ with a }} after it on the line) outside comment lines, on or
// before line `until` (1-based): the one closest to the error.
std::optional<position> template_marker(const std::vector<std::string_view>& lines, int until)
{
    std::optional<position> last;
    for (std::size_t i = 0; i < lines.size() && static_cast<int>(i) < until; ++i) {
        if (!significant(lines[i]))
            continue;
        const std::size_t open = lines[i].find("{{");
        if (open != std::string_view::npos && lines[i].find("}}", open + 2) != std::string_view::npos)
            last = position{static_cast<int>(i) + 1, static_cast<int>(open) + 1};
    }
    return last;
}

std::string quoted(std::string_view s)
{
    // Appended piece by piece: g++ 12 at -O3 reports a false -Wrestrict on "'" + std::string(s).
    std::string out;
    out.reserve(s.size() + 2);
    out += '\'';
    out += s;
    out += '\'';
    return out;
}

// Up to 24 bytes of the line from `column` (0-based), for "found ...".
std::string snippet(std::string_view line, std::size_t column)
{
    std::string_view rest = column < line.size() ? line.substr(column) : std::string_view();
    return rest.size() > 24 ? quoted(rest.substr(0, 24)) + "..." : quoted(rest);
}

std::string column_text(std::size_t zero_based)
{
    return "column " + std::to_string(zero_based + 1);
}

// Where a flow collection closed by `close` is opened before `offset` and never closed: its line.
int unclosed_opening(std::string_view text, std::size_t offset, char open, char close)
{
    int depth = 0;
    for (std::size_t i = std::min(offset, text.size()); i-- > 0;) {
        if (text[i] == close)
            ++depth;
        else if (text[i] == open && depth-- == 0)
            return static_cast<int>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(i), '\n')) + 1;
    }
    return 0;
}

struct at_error {
    std::string_view text;
    const std::vector<std::string_view>& lines;
    position where;
    std::size_t index;  // 0-based line
    std::size_t column; // 0-based byte in the line
    std::string_view line;
    std::size_t offset; // in text

    char found() const { return column < line.size() ? line[column] : '\0'; }
    bool at_line_start() const { return column <= indent_of(line); }
};

std::string unknown_token(const at_error& e)
{
    switch (e.found()) {
    case '`': return "a backquote (`) cannot start a YAML value: quote the value (\"`...`\")";
    case '@': return "'@' is reserved in YAML and cannot start a plain value: quote the value";
    case '%': return "'%' starts a directive only at the start of a line, never a value: quote the value";
    default: break;
    }
    return "found " + snippet(e.line, e.column) + ", which cannot start a YAML token here: quote the value";
}

std::string illegal_map_value(const at_error& e)
{
    const std::string_view before = e.line.substr(0, std::min(e.column, e.line.size()));
    const std::size_t colon = before.find(": ");
    if (colon != std::string_view::npos && colon >= indent_of(e.line))
        return "a second ': ' on this line: a plain value cannot contain ': ', quote the value";
    const auto above = line_above(e.lines, e.index);
    if (above && indent_of(e.line) > indent_of(e.lines[*above]))
        return "this line is indented deeper than the mapping above it: line " + std::to_string(*above + 1) +
               "'s key already has a value; line the key up with it (" + column_text(indent_of(e.lines[*above])) +
               ") or move it under a key that has no value";
    return "found ':' where no mapping value can start: expected a key at the start of a line, or quote the value";
}

std::string end_of_block(const at_error& e, std::string_view collection)
{
    const std::size_t indent = indent_of(e.line);
    const std::string_view content = e.line.substr(indent);
    if (e.at_line_start() && (content == "-" || content.starts_with("- ")) && collection == "mapping")
        return "a list item ('- ') where the mapping above expects a key: indent the list under a key "
               "('key:' then '  - item' on the next lines)";
    if (e.at_line_start()) {
        const auto above = line_above(e.lines, e.index);
        std::string s = "this line's indentation (" + column_text(indent) + ") lines up with no " +
                        std::string(collection) + " above it";
        if (above)
            s += ": line " + std::to_string(*above + 1) + " starts at " + column_text(indent_of(e.lines[*above]));
        return s + "; entries of one " + std::string(collection) + " start at the same column";
    }
    return "found " + snippet(e.line, e.column) + " after a complete value: expected the end of the line "
           "(a quoted value ends at its closing quote: quote the whole value)";
}

std::string unclosed_flow(const at_error& e, char open, char close, std::string_view what)
{
    const int line = unclosed_opening(e.text, e.offset, open, close);
    return std::string("the ") + open + " ... " + close + " " + std::string(what) +
           (line > 0 ? " opened on line " + std::to_string(line) : std::string()) + " is not closed: expected ',' or '" +
           close + "' before " + (e.column < e.line.size() ? snippet(e.line, e.column) : "the end of the line");
}

// The explanation of yaml-cpp's `message` at `e`, or "" when there is none.
std::string explain(const at_error& e, std::string_view message)
{
    if (message == "unknown token")
        return unknown_token(e);
    if (message == "illegal map value")
        return illegal_map_value(e);
    if (message == "end of map not found")
        return end_of_block(e, "mapping");
    if (message == "end of sequence not found")
        return end_of_block(e, "list");
    if (message == "end of map flow not found")
        return unclosed_flow(e, '{', '}', "mapping");
    if (message == "end of sequence flow not found")
        return unclosed_flow(e, '[', ']', "list");
    if (message == "illegal flow end")
        return "found " + quoted(e.column < e.line.size() ? e.line.substr(e.column, 1) : std::string_view()) +
               " with no '[' or '{' open to close: quote the value if it is text";
    if (message == "illegal block entry") {
        if (e.line.substr(0, indent_of(e.line)).find('\t') != std::string_view::npos)
            return "a tab in the indentation: YAML indents with spaces only";
        return "a list item ('- ') is not allowed here: expected a key ('key: value') at this indentation, "
               "or the list indented under a key";
    }
    if (message == "mapping keys must be scalars")
        return "found a { } or [ ] collection where a mapping key was expected: keys are plain scalars "
               "(quote a value that starts with '{' or '[')";
    if (message.starts_with("unknown escape character: "))
        return "unknown escape '\\" + std::string(message.substr(26)) +
               "' in a double-quoted string: write \\\\ for a backslash, or use single quotes";
    return {};
}

} // namespace

failure explain_yaml_error(std::string_view text, std::string_view message, position where)
{
    const auto lines = split_lines(text);
    if (where.known()) {
        if (auto marker = template_marker(lines, where.line))
            return failure{"this is a Go template (a Helm chart's template?), not YAML yet: it holds a '{{ ... }}' "
                           "marker here; render it first: helm template RELEASE CHART | karmada-policy-webhook lint - "
                           "(YAML error: " + std::string(message) + ")",
                           *marker};
    }
    if (!where.known() || static_cast<std::size_t>(where.line) > lines.size())
        return failure{std::string(message), where};
    const std::size_t index = static_cast<std::size_t>(where.line) - 1;
    std::size_t offset = 0;
    for (std::size_t i = 0; i < index; ++i)
        offset = text.find('\n', offset) + 1; // the line exists: there are `index` line breaks before it
    const std::size_t column = static_cast<std::size_t>(where.column > 0 ? where.column - 1 : 0);
    const at_error e{text, lines, where, index, column, lines[index], offset + column};
    std::string explained = explain(e, message);
    if (explained.empty())
        return failure{std::string(message), where};
    return failure{explained + " (yaml-cpp: " + std::string(message) + ")", where};
}

} // namespace kpw::doc
