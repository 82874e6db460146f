// SPDX-License-Identifier: Apache-2.0
// yaml_readable_head: what kubectl apply still sends from a YAML stream that does not parse.
#include <vector>

#include "doc/load.hpp"
#include "doc/stream_lines.hpp"

namespace kpw::doc {
namespace {

// Where apimachinery's YAMLReader (pkg/util/yaml/decoder.go Read) ends one document: a line that starts
// with "---" followed by nothing but spaces or a comment. The offsets of those lines, in order.
std::vector<std::size_t> separator_lines(std::string_view text)
{
    std::vector<std::size_t> out;
    for (std::size_t at = 0; at < text.size();) {
        std::size_t end = text.find('\n', at);
        if (end == std::string_view::npos)
            end = text.size();
        if (classify_line(text.substr(at, end - at)) == line_kind::separator)
            out.push_back(at);
        at = end + 1;
    }
    return out;
}

} // namespace

std::size_t yaml_readable_head(std::string_view text, const load_limits& limits)
{
    // Chunk k ends at separator k. A head of whole chunks parses when every chunk in it does, so the
    // longest such head is found by bisection (a few parses of the head, not one per chunk).
    const std::vector<std::size_t> ends = separator_lines(text);
    std::size_t good = 0, lo = 0, hi = ends.size(); // heads ends[0..lo) known to parse, ends[hi..) not
    while (lo < hi) {
        const std::size_t mid = lo + (hi - lo) / 2;
        if (load_yaml_stream(text.substr(0, ends[mid]), limits)) {
            good = ends[mid];
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    return good;
}

} // namespace kpw::doc
