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
    // Both within max_nanos (parsed, or saturated here before): the sum fits; it saturates again.
    now = std::clamp(now + amount, model::quantity{}, model::quantity::from_nanos(model::max_nanos));
    if (it == list.end())
        list.emplace(std::string(name), now);
    else
        it->second = now;
}

// cpu is held in millicores, everything else in whole units (model::replica_request). The product of
// an int64 request and a replica count passes int64 for absurd inputs: it is taken in 128 bits and
// saturated at model::max_nanos (the cluster is full either way).
model::quantity amount_of(std::string_view resource, std::int64_t per_replica, std::int64_t count)
{
    const model::nano_int unit = resource == "cpu" ? 1'000'000 : 1'000'000'000;
    const model::nano_int units = std::clamp(model::nano_int(per_replica) * count, -model::max_nanos / unit,
                                             model::max_nanos / unit);
    return model::quantity::from_nanos(units * unit);
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
