// SPDX-License-Identifier: Apache-2.0
// Tabs that go-yaml (and so kubectl) refuses in YAML's indentation, where yaml-cpp 0.7 reads on.
#pragma once

#include <cstddef>
#include <optional>
#include <string_view>

namespace kpw::doc {

// The offset of the first tab that go-yaml v2 (sigs.k8s.io/yaml, kubectl's reader) refuses and yaml-cpp
// 0.7 accepts: a tab among a line's leading blanks in block context (a tab-indented comment line under
// `status:`, a line of only a tab, a tab-indented key), or right after a block indicator (`- \tx`,
// `? \tx`). Tabs inside quoted scalars, block scalars' content, flow collections (JSON) and comments, and
// after `key:`, are allowed, as go-yaml allows them. nullopt when there is none.
std::optional<std::size_t> tab_go_yaml_refuses(std::string_view text);

} // namespace kpw::doc
