// SPDX-License-Identifier: Apache-2.0
#include "simulate/world.hpp"

#include <algorithm>

#include "scheduling/binding_pairing.hpp"

namespace kpw::simulate {

namespace {

template <class World>
auto find_cluster_in(World& w, std::string_view name) -> decltype(&w.clusters.front())
{
    auto it = std::lower_bound(w.clusters.begin(), w.clusters.end(), name,
                               [](const model::cluster& c, std::string_view n) { return std::string_view(c.name) < n; });
    return it != w.clusters.end() && it->name == name ? &*it : nullptr;
}

} // namespace

model::cluster* find_cluster(world& w, std::string_view name) { return find_cluster_in(w, name); }
const model::cluster* find_cluster(const world& w, std::string_view name) { return find_cluster_in(w, name); }

const model::workload* workload_of_binding(const world& w, const model::binding& b)
{
    for (const auto& wl : w.workloads)
        if (scheduling::is_detector_binding_of(b, wl))
            return &wl;
    return nullptr;
}

std::string workload_key(const model::object_reference& r)
{
    return r.kind + '/' + (r.namespace_.empty() ? "" : r.namespace_ + '/') + r.name;
}

std::string workload_key(const model::workload& w)
{
    return w.kind + '/' + (w.namespace_.empty() ? "" : w.namespace_ + '/') + w.name;
}

} // namespace kpw::simulate
