// SPDX-License-Identifier: Apache-2.0
// What a YAML syntax error means where it happened: yaml-cpp's terse texts explained, Helm templates named.
#pragma once

#include <string_view>

#include "base/result.hpp"

namespace kpw::doc {

// The failure load_yaml returns for the parse error `message` (yaml-cpp's text, or the loader's own
// such as "mapping keys must be scalars") at `where` in `text`: a sentence saying what was found there
// and what YAML expects, yaml-cpp's own words kept in parentheses, at the same position. A text whose
// error comes at or after a Go-template marker (`{{ ... }}`, a Helm chart's templates) is named as a
// template instead, at the marker closest before the error, with the command that renders it first.
// A message it knows nothing more about comes back unchanged.
failure explain_yaml_error(std::string_view text, std::string_view message, position where);

} // namespace kpw::doc
