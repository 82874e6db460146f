// SPDX-License-Identifier: Apache-2.0
#include "field/path.hpp"

namespace kpw::field {

path path::root(std::string_view name) { return path(std::string(name)); }

path path::child(std::string_view name) const
{
    if (rendered_.empty())
        return path(std::string(name));
    std::string s;
    s.reserve(rendered_.size() + 1 + name.size());
    s.append(rendered_).append(1, '.').append(name);
    return path(std::move(s));
}

path path::index(std::size_t i) const
{
    return path(rendered_ + "[" + std::to_string(i) + "]");
}

path path::key(std::string_view k) const
{
    std::string s = rendered_;
    s.append(1, '[').append(k).append(1, ']');
    return path(std::move(s));
}

} // namespace kpw::field
