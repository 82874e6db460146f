// SPDX-License-Identifier: Apache-2.0
// The lines of a YAML stream as the readers see them before any parsing: apimachinery's YAMLReader
// (kubectl) ends a document at a "---" line, and yaml-cpp's document count follows "---" and "..." lines.
#pragma once

#include <string_view>

namespace kpw::doc {

enum class line_kind {
    other,        // content
    blank,        // empty, spaces or a comment
    separator,    // "---" followed by nothing but spaces or a comment
    document_end, // "..." followed by nothing but spaces or a comment
    directive,    // "%YAML", "%TAG", ...
};

// One line (its line break, "\n" or "\r\n", may be included).
line_kind classify_line(std::string_view line);

} // namespace kpw::doc
