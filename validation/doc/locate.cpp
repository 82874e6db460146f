// SPDX-License-Identifier: Apache-2.0
#include "doc/locate.hpp"

#include <charconv>

namespace kpw::doc {
namespace {

position position_for(const value& v)
{
    return (v.is_mapping() || v.is_sequence()) ? v.key_pos() : v.pos();
}

// Steps into `[sub]`: an index into a sequence, or a key of a mapping (metadata.labels[app]).
const value* step_bracket(const value& v, std::string_view sub)
{
    if (v.is_sequence()) {
        std::size_t i = 0;
        auto [end, ec] = std::from_chars(sub.data(), sub.data() + sub.size(), i);
        if (ec != std::errc() || end != sub.data() + sub.size() || i >= v.items().size())
            return nullptr;
        return &v.items()[i];
    }
    return v.find(sub);
}

// The node the path leads to, or its nearest present ancestor.
const value& find_node(const value& root, std::string_view field_path)
{
    const value* current = &root;
    std::size_t i = 0;
    while (i < field_path.size()) {
        const value* next = nullptr;
        if (field_path[i] == '[') {
            const std::size_t close = field_path.find(']', i);
            if (close == std::string_view::npos)
                break;
            next = step_bracket(*current, field_path.substr(i + 1, close - i - 1));
            i = close + 1;
        } else {
            if (field_path[i] == '.')
                ++i;
            const std::size_t end = field_path.find_first_of(".[", i);
            const std::size_t stop = end == std::string_view::npos ? field_path.size() : end;
            next = current->find(field_path.substr(i, stop - i));
            i = stop;
        }
        if (!next)
            break;
        current = next;
    }
    return *current;
}

} // namespace

position locate(const value& root, std::string_view field_path) { return position_for(find_node(root, field_path)); }

position locate_key(const value& root, std::string_view field_path) { return find_node(root, field_path).key_pos(); }

} // namespace kpw::doc
