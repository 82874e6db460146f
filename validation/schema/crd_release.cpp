// SPDX-License-Identifier: Apache-2.0
#include "schema/crd_release.hpp"

#include <algorithm>
#include <string_view>

#include "schema/schema.hpp"

namespace kpw::schema {
namespace {

// The schema node at `path` ("spec.placement.clusterAffinities[].overflowAffinities": "[]" steps into a
// list's items), or nullptr.
const doc::value* find_field(const doc::value& openapi, std::string_view path)
{
    const doc::value* at = &openapi;
    while (at && !path.empty()) {
        const auto dot = path.find('.');
        std::string_view name = path.substr(0, dot);
        const bool list = name.ends_with("[]");
        if (list)
            name.remove_suffix(2);
        const doc::value* props = at->find("properties");
        at = props ? props->find(name) : nullptr;
        if (at && list)
            at = at->find("items");
        path = dot == std::string_view::npos ? std::string_view() : path.substr(dot + 1);
    }
    return at;
}

// Whether the live schema defines a property that the newest embedded schema does not (a newer Karmada).
bool defines_more(const doc::value& live, const node& known)
{
    if (const doc::value* items = live.find("items"); items && !known.items.empty())
        return defines_more(*items, known.items.front());
    const doc::value* props = live.find("properties");
    if (!props || !props->is_mapping() || known.opaque())
        return false;
    for (const auto& [name, sub] : props->members()) {
        const node* k = known.property(name);
        if (!k || defines_more(sub, *k))
            return true;
    }
    return false;
}

} // namespace

crd_release release_of_crd(const doc::value& crd)
{
    crd_release out;
    const doc::value* openapi = nullptr;
    if (const doc::value* versions = crd.find_path({"spec", "versions"}); versions && versions->is_sequence())
        for (const auto& v : versions->items())
            if (const doc::value* served = v.find("served"); served && served->is_bool() && served->as_bool())
                if ((openapi = v.find_path({"schema", "openAPIV3Schema"})))
                    break;
    if (!openapi || !openapi->is_mapping()) {
        out.reason = "the PropagationPolicy CRD has no served version with a schema; answering as the newest release";
        return out;
    }
    out.release = settings::supported_karmada_releases().front();
    std::string defines, lacks;
    for (const settings::karmada_change* c : settings::changes::all()) {
        if (c->added_field.empty())
            continue;
        const std::string what = std::string(c->added_field) + " (Karmada " + std::string(c->introduced) + "+)";
        if (find_field(*openapi, c->added_field)) {
            out.release = std::max(out.release, c->since);
            defines += (defines.empty() ? "" : ", ") + what;
        } else {
            lacks += (lacks.empty() ? "" : ", ") + what;
        }
    }
    out.reason = "the PropagationPolicy CRD on the server defines " + (defines.empty() ? "none of " + lacks : defines);
    if (!defines.empty() && !lacks.empty())
        out.reason += " and not " + lacks;
    if (const node* newest = crd_schema("PropagationPolicy"); newest && defines_more(*openapi, *newest)) {
        out.newer_than_newest = out.release == settings::newest_karmada_release;
        if (out.newer_than_newest)
            out.reason += "; it also defines fields Karmada " +
                          std::string(settings::release_name(settings::newest_karmada_release)) +
                          " does not (a newer Karmada): answering as " +
                          std::string(settings::release_name(settings::newest_karmada_release));
    }
    return out;
}

} // namespace kpw::schema
