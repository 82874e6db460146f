// SPDX-License-Identifier: Apache-2.0
#include "simulate/resources.hpp"

#include <algorithm>
#include <string_view>

namespace kpw::simulate {

namespace {

void add(model::resource_list& list, std::string_view name, model::quantity amount)
{
    auto it = list.find(name);
    model::quantity now = it == list.end() ? model::quantity{} : it->second;
    now = std::max(now + amount, model::quantity{});
    if (it == list.end())
        list.emplace(std::string(name), now);
    else
        it->second = now;
}

// cpu is held in millicores, everything else in whole units (model::replica_request).
model::quantity amount_of(std::string_view resource, std::int64_t per_replica, std::int64_t count)
{
    return resource == "cpu" ? model::quantity::from_millis(per_replica * count)
                             : model::quantity::from_int(per_replica * count);
}

void charge_request(model::resource_list& allocated, const model::replica_request& request, std::int64_t count)
{
    for (const auto& [name, per_replica] : request)
        add(allocated, name, amount_of(name, per_replica, count));
}

} // namespace

void charge(model::cluster& c, const model::workload& w, std::int32_t delta)
{
    if (!c.resource_summary || delta == 0)
        return;
    auto& allocated = c.resource_summary->allocated;
    if (w.components.empty()) {
        charge_request(allocated, w.request, delta);
        add(allocated, "pods", model::quantity::from_int(delta));
        return;
    }
    // A multi-component workload is placed as whole sets: `delta` sets of every component.
    for (const auto& comp : w.components) {
        charge_request(allocated, comp.request, std::int64_t(delta) * comp.replicas);
        add(allocated, "pods", model::quantity::from_int(std::int64_t(delta) * comp.replicas));
    }
}

} // namespace kpw::simulate
