// SPDX-License-Identifier: Apache-2.0
// Reducing a previous result to the snapshot's name ranks.
#include "scheduling/previous_view.hpp"

#include <algorithm>

namespace kpw::scheduling {

previous_view view_of(const previous_result* previous, const snapshot& snap)
{
    previous_view v;
    if (previous == nullptr)
        return v;
    for (const auto& t : previous->clusters)
        if (auto r = snap.rank_of(t.name); r >= 0) {
            v.targets.push_back(static_cast<std::uint32_t>(r));
            v.current.emplace_back(static_cast<std::uint32_t>(r), t.replicas);
        }
    for (const auto& name : previous->evicting)
        if (auto r = snap.rank_of(name); r >= 0)
            v.evicting.push_back(static_cast<std::uint32_t>(r));
    std::sort(v.targets.begin(), v.targets.end());
    std::sort(v.evicting.begin(), v.evicting.end());
    std::stable_sort(v.current.begin(), v.current.end(), [](auto& a, auto& b) { return a.first < b.first; });
    return v;
}

std::int32_t current_of(const previous_view& v, std::uint32_t rank)
{
    auto it = std::lower_bound(v.current.begin(), v.current.end(), rank,
                               [](const auto& e, std::uint32_t r) { return e.first < r; });
    return it != v.current.end() && it->first == rank ? it->second : 0;
}

} // namespace kpw::scheduling
