// SPDX-License-Identifier: Apache-2.0
// How messages name an object: "Deployment shop/web", "ClusterPropagationPolicy spread" (no namespace).
#pragma once

#include <string>
#include <string_view>

namespace kpw::model {

inline std::string object_label(std::string_view kind, std::string_view ns, std::string_view name)
{
    std::string out(kind);
    out += ' ';
    if (!ns.empty())
        out.append(ns).append(1, '/');
    return out.append(name);
}

} // namespace kpw::model
