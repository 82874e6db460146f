// SPDX-License-Identifier: Apache-2.0
// The binding inventory: Lists expanded, decode errors positioned, one binding per object.
#include "scheduling/binding_inventory.hpp"

#include <algorithm>
#include <map>
#include <tuple>

#include "doc/locate.hpp"
#include "model/binding_decode.hpp"

namespace kpw::scheduling {

namespace {

auto workload_key(const model::binding& b)
{
    const auto& r = b.resource;
    return std::tie(r.api_version, r.kind, r.namespace_, r.name);
}

std::string label(const model::binding& b)
{
    const std::string name = b.name.empty() ? "<unnamed>" : b.name;
    return "binding " + (b.namespace_.empty() ? name : b.namespace_ + "/" + name);
}

void add_object(const doc::value& object, std::vector<model::binding>& out, std::size_t& ignored,
                std::vector<inventory_issue>& issues)
{
    if (!model::is_binding_object(object)) {
        ++ignored;
        return;
    }
    auto decoded = model::decode_binding(object);
    bool keep = !decoded.value.name.empty();
    for (const auto& e : decoded.errors) {
        issues.push_back({doc::locate(object, e.field), label(decoded.value) + ": " + e.str()});
        keep = keep && e.field != "apiVersion";
    }
    if (keep)
        out.push_back(std::move(decoded.value));
}

} // namespace

void binding_inventory::add(const doc::value& document, std::vector<inventory_issue>& issues)
{
    if (const doc::value* items = doc::list_items(document)) {
        for (const auto& item : items->items())
            add_object(item, bindings_, ignored_, issues);
        return;
    }
    add_object(document, bindings_, ignored_, issues);
}

void binding_inventory::seal(std::vector<inventory_issue>&)
{
    // One object per identity: a later document of the same kind, namespace and name replaces the
    // earlier one, as a second kubectl apply updates it. Two bindings may refer to one workload: they are
    // two objects to Karmada (the detector updates the one named after the workload, names.go
    // GenerateBindingName; the scheduler schedules each).
    std::map<std::tuple<std::string, std::string, std::string>, std::size_t> seen;
    std::vector<model::binding> unique;
    unique.reserve(bindings_.size());
    for (auto& b : bindings_) {
        auto [at, fresh] = seen.try_emplace(std::tuple(b.kind, b.namespace_, b.name), unique.size());
        if (fresh)
            unique.push_back(std::move(b));
        else
            unique[at->second] = std::move(b);
    }
    bindings_ = std::move(unique);
    records_changed();
}

void binding_inventory::records_changed()
{
    // find_for's order: by workload, input order kept among the bindings of one workload.
    std::stable_sort(bindings_.begin(), bindings_.end(), [](const model::binding& a, const model::binding& b) {
        return workload_key(a) < workload_key(b);
    });
}

const model::binding* binding_inventory::find_for(std::string_view api_version, std::string_view kind,
                                                  std::string_view namespace_, std::string_view name) const
{
    const auto key = std::make_tuple(api_version, kind, namespace_, name);
    auto it = std::lower_bound(bindings_.begin(), bindings_.end(), key, [](const model::binding& b, const auto& k) {
        const auto& r = b.resource;
        return std::make_tuple(std::string_view(r.api_version), std::string_view(r.kind),
                               std::string_view(r.namespace_), std::string_view(r.name)) < k;
    });
    if (it == bindings_.end())
        return nullptr;
    const auto& r = it->resource;
    return r.api_version == api_version && r.kind == kind && r.namespace_ == namespace_ && r.name == name ? &*it
                                                                                                          : nullptr;
}

} // namespace kpw::scheduling
