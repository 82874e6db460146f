// SPDX-License-Identifier: Apache-2.0
// load_documents: the JSON fast path of lint's snapshot reader, in front of the YAML loader.
#include "doc/load.hpp"

namespace kpw::doc {

result<std::vector<document>> load_documents(std::string_view text, const load_limits& limits)
{
    const std::size_t first = text.find_first_not_of(" \t\r\n");
    if (first != std::string_view::npos && text[first] == '{' && !control_in_json_string(text)) {
        bool repeated_keys = false;
        auto root = parse_json(text, limits, {}, &repeated_keys);
        if (root && !repeated_keys) {
            std::vector<document> docs;
            docs.push_back({0, position_of(text, first), std::move(*root), {}});
            return docs;
        }
    }
    return load_yaml(text, limits);
}

} // namespace kpw::doc
