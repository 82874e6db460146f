// SPDX-License-Identifier: Apache-2.0
#include "doc/stream_lines.hpp"

namespace kpw::doc {

namespace {

// `line` starts with `marker` and holds nothing else but spaces and a comment.
bool marker_line(std::string_view line, std::string_view marker)
{
    if (!line.starts_with(marker))
        return false;
    const std::size_t rest = line.find_first_not_of(" \t", marker.size());
    return rest == std::string_view::npos || line[rest] == '#';
}

} // namespace

line_kind classify_line(std::string_view line)
{
    while (!line.empty() && (line.back() == '\r' || line.back() == '\n'))
        line.remove_suffix(1);
    const std::size_t first = line.find_first_not_of(" \t\r\n\v\f");
    if (first == std::string_view::npos || line[first] == '#')
        return line_kind::blank;
    if (marker_line(line, "---"))
        return line_kind::separator;
    if (marker_line(line, "..."))
        return line_kind::document_end;
    return line.starts_with('%') ? line_kind::directive : line_kind::other;
}

} // namespace kpw::doc
