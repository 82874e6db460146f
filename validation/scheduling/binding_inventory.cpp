// SPDX-License-Identifier: Apache-2.0
// The binding inventory: Lists expanded, decode errors positioned, one binding per workload.
#include "scheduling/binding_inventory.hpp"

#include <algorithm>
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

std::string where_text(position p) { return std::to_string(p.line) + ":" + std::to_string(p.column); }

std::string workload_text(const model::binding& b)
{
    const auto& r = b.resource;
    return r.api_version + " " + r.kind + " " + (r.namespace_.empty() ? r.name : r.namespace_ + "/" + r.name);
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

void binding_inventory::seal(std::vector<inventory_issue>& issues)
{
    std::stable_sort(bindings_.begin(), bindings_.end(), [](const model::binding& a, const model::binding& b) {
        return workload_key(a) < workload_key(b);
    });
    std::vector<model::binding> unique;
    unique.reserve(bindings_.size());
    for (auto& b : bindings_) {
        if (!unique.empty() && workload_key(unique.back()) == workload_key(b)) {
            const std::string what = "two bindings for workload " + workload_text(b) + ": ";
            issues.push_back({unique.back().where, what + label(unique.back()) + " here and " + label(b) + " at " +
                                                       where_text(b.where) + "; the later one is used"});
            issues.push_back({b.where, what + label(b) + " here and " + label(unique.back()) + " at " +
                                           where_text(unique.back().where)});
            unique.back() = std::move(b);
            continue;
        }
        unique.push_back(std::move(b));
    }
    bindings_ = std::move(unique);
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
