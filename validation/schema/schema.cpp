// SPDX-License-Identifier: Apache-2.0
// Compiles the embedded CRD schema and applies its defaults (kube-apiserver structural defaulting).
#include "schema/schema.hpp"

#include <map>
#include <vector>

#include "doc/load.hpp"

namespace kpw::schema {
namespace {

std::optional<std::int64_t> int_at(const doc::value& v, std::string_view key)
{
    const doc::value* x = v.find(key);
    if (x && x->is_int())
        return x->as_int();
    return std::nullopt;
}

std::vector<std::string> strings_at(const doc::value& v, std::string_view key)
{
    std::vector<std::string> out;
    if (const doc::value* x = v.find(key); x && x->is_sequence())
        for (const auto& item : x->items())
            if (item.is_string())
                out.push_back(item.text());
    return out;
}

node compile(const doc::value& v)
{
    node n;
    n.type = std::string(v.string_at("type"));
    if (const doc::value* props = v.find("properties"); props && props->is_mapping())
        for (const auto& [name, sub] : props->members()) {
            n.property_names.push_back(name);
            n.property_schemas.push_back(compile(sub));
        }
    if (const doc::value* items = v.find("items"); items && items->is_mapping())
        n.items.push_back(compile(*items));
    if (const doc::value* add = v.find("additionalProperties"); add && add->is_mapping())
        n.additional.push_back(compile(*add));
    n.required = strings_at(v, "required");
    n.enumeration = strings_at(v, "enum");
    if (const doc::value* def = v.find("default"))
        n.default_value = *def;
    n.min_length = int_at(v, "minLength");
    n.max_length = int_at(v, "maxLength");
    n.min_items = int_at(v, "minItems");
    n.minimum = int_at(v, "minimum");
    return n;
}

// One CRD of the embedded data: the version it serves and its compiled schema.
struct crd {
    std::string api_version; // group/version
    node schema;
};

using release_crds = std::map<std::string, crd, std::less<>>;

// Every release's CRDs, indexed by settings::karmada_release.
std::vector<release_crds> compile_all()
{
    const auto releases = settings::supported_karmada_releases();
    std::vector<release_crds> out(releases.size());
    auto parsed = doc::parse_json(embedded_crd_schema());
    if (!parsed)
        return out; // cannot happen: embed_schema.py validated the JSON at build time
    for (std::size_t i = 0; i < releases.size(); ++i) {
        const doc::value* release = parsed->find(settings::release_name(releases[i]));
        if (!release || !release->is_mapping())
            continue; // a release without data: crd_schema_test fails the build's tests
        for (const auto& [kind, def] : release->members())
            if (const doc::value* s = def.find("schema"); s && s->is_mapping())
                out[i].emplace(kind, crd{std::string(def.string_at("group")) + "/" + std::string(def.string_at("version")),
                                         compile(*s)});
    }
    return out;
}

const crd* find_crd(std::string_view kind, settings::karmada_release release)
{
    // Compiled once per process; thread-safe initialisation, read-only afterwards.
    static const std::vector<release_crds> crds = compile_all();
    const auto index = static_cast<std::size_t>(release);
    if (index >= crds.size())
        return nullptr;
    auto it = crds[index].find(kind);
    return it == crds[index].end() ? nullptr : &it->second;
}

} // namespace

const node* node::property(std::string_view name) const
{
    for (std::size_t i = 0; i < property_names.size(); ++i)
        if (property_names[i] == name)
            return &property_schemas[i];
    return nullptr;
}

const node* crd_schema(std::string_view kind, settings::karmada_release release)
{
    const crd* c = find_crd(kind, release);
    return c ? &c->schema : nullptr;
}

std::string_view crd_api_version(std::string_view kind)
{
    const crd* c = find_crd(kind, settings::newest_karmada_release);
    return c ? std::string_view(c->api_version) : std::string_view();
}

void apply_defaults(const node& schema, doc::value& v)
{
    if (v.is_sequence()) {
        if (!schema.items.empty())
            for (auto& item : v.items())
                apply_defaults(schema.items.front(), item);
        return;
    }
    if (!v.is_mapping() || schema.opaque())
        return;
    auto& members = v.members();
    // Pruning of nulls: no field of these CRDs is nullable, so a null is as good as absent.
    std::erase_if(members, [&](const doc::value::member& m) {
        return m.second.is_null() && (schema.property(m.first) || !schema.additional.empty());
    });
    for (auto& [key, child] : members) {
        if (const node* sub = schema.property(key))
            apply_defaults(*sub, child);
        else if (!schema.additional.empty())
            apply_defaults(schema.additional.front(), child);
    }
    for (std::size_t i = 0; i < schema.property_names.size(); ++i) {
        const node& sub = schema.property_schemas[i];
        if (sub.default_value && !v.find(schema.property_names[i]))
            v.add(schema.property_names[i], *sub.default_value);
    }
}

} // namespace kpw::schema
