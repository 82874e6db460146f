// SPDX-License-Identifier: Apache-2.0
// Scalars as kubectl reads them: YAML 1.1 plain-scalar resolution (go-yaml v2) and yaml-cpp 0.7's escapes.
#pragma once

#include <optional>
#include <string>

#include "doc/value.hpp"

namespace kpw::doc {

// yaml-cpp 0.7 (Debian 12) turns the double-quoted escapes \N and \_ into the single bytes 0x85 and
// 0xA0 instead of the UTF-8 of U+0085 and U+00A0: the scalar with those bytes as UTF-8, or nullopt when
// it is already UTF-8 (every scalar but these), so nothing is copied. See yaml_scalars.cpp.
std::optional<std::string> escapes_as_utf8(const std::string& text);

// A plain (unquoted) scalar resolved as go-yaml v2 (YAML 1.1) does, which is what kubectl applies:
// null, booleans (yes/no/on/off too), integers (0x, 0o, leading-0 octal, '_'), floats, else a string.
value resolve_plain(const std::string& s, position at);

} // namespace kpw::doc
