// SPDX-License-Identifier: Apache-2.0
#include "scheduling/moves.hpp"

#include <map>
#include <optional>
#include <string_view>

namespace kpw::scheduling {

std::vector<replica_move> moves_between(std::span<const model::target_cluster> before,
                                        std::span<const model::target_cluster> after)
{
    // Per cluster name: replicas before and after; nullopt = absent on that side.
    std::map<std::string_view, std::pair<std::optional<std::int64_t>, std::optional<std::int64_t>>> sides;
    for (const auto& c : before)
        sides[c.name].first = sides[c.name].first.value_or(0) + c.replicas;
    for (const auto& c : after)
        sides[c.name].second = sides[c.name].second.value_or(0) + c.replicas;
    std::vector<replica_move> out;
    for (const auto& [name, pair] : sides) {
        const auto& [from, to] = pair;
        if (from.has_value() != to.has_value() || from != to)
            out.push_back({std::string(name), from.value_or(0), to.value_or(0)});
    }
    return out;
}

} // namespace kpw::scheduling
