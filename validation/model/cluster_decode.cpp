// SPDX-License-Identifier: Apache-2.0
// Cluster decoding: metadata, spec placement fields, API enablements, conditions and resource summary.
#include "model/cluster_decode.hpp"

#include <cmath>

#include "field/error.hpp"
#include "model/karmada_types.hpp"

namespace kpw::model {

namespace {

const std::vector<doc::value> no_items;

std::string render(const doc::value& v)
{
    return v.is_string() ? field::go_quote(v.text()) : doc::to_json(v);
}

bool present(const doc::value* node) { return node != nullptr && !node->is_null(); }

// An object whose members all read the same way (labels, resource lists): each value through
// `read_one` at its key's path. Not an object is a type error and reads as empty.
template <typename Map, typename ReadOne>
Map members(const doc::value* node, const field::path& at, field::error_list& errors, ReadOne read_one)
{
    Map out;
    if (!present(node))
        return out;
    if (!node->is_mapping()) {
        errors.push_back(field::type_invalid(at, render(*node), "expected object"));
        return out;
    }
    for (const auto& [k, v] : node->members())
        out.emplace(k, read_one(&v, at.key(k), errors));
    return out;
}

std::vector<taint> decode_taints(const doc::value* node, const field::path& at, field::error_list& errors)
{
    return read::struct_list<taint>(node, at, errors, [&](const doc::value& item, const field::path& p) {
        return taint{read::string(item.find("key"), p.child("key"), errors),
                     read::string(item.find("value"), p.child("value"), errors),
                     read::string(item.find("effect"), p.child("effect"), errors),
                     read::time(item.find("timeAdded"), p.child("timeAdded"), errors)};
    });
}

quantity decode_quantity(const doc::value* node, const field::path& at, field::error_list& errors)
{
    if (!present(node))
        return {};
    auto parsed = node->is_string() || node->is_number() ? parse_quantity_checked(node->text())
                                                         : quantity_parse{std::nullopt, quantity_error::format};
    if (parsed.value)
        return *parsed.value;
    errors.push_back(field::invalid(at, render(*node), std::string(to_string(parsed.error))));
    return {};
}

std::vector<resource_model> decode_models(const doc::value* node, const field::path& at,
                                          field::error_list& errors)
{
    return read::struct_list<resource_model>(node, at, errors, [&](const doc::value& item, const field::path& p) {
        resource_model m;
        m.grade = read::integer(item.find("grade"), p.child("grade"), errors, 0);
        read::structs(item.find("ranges"), p.child("ranges"), errors, [&](const doc::value& range, const field::path& r) {
            m.ranges.push_back({read::string(range.find("name"), r.child("name"), errors),
                                decode_quantity(range.find("min"), r.child("min"), errors),
                                decode_quantity(range.find("max"), r.child("max"), errors)});
        });
        return m;
    });
}

std::vector<api_enablement> decode_enablements(const doc::value* node, const field::path& at,
                                               field::error_list& errors)
{
    return read::struct_list<api_enablement>(node, at, errors, [&](const doc::value& item, const field::path& p) {
        api_enablement e;
        e.group_version = read::string(item.find("groupVersion"), p.child("groupVersion"), errors);
        e.kinds = read::struct_list<std::string>(item.find("resources"), p.child("resources"), errors,
                                          [&](const doc::value& resource, const field::path& r) {
                                              // The resource's name is not read, but Go's converter types it.
                                              read::string(resource.find("name"), r.child("name"), errors);
                                              return read::string(resource.find("kind"), r.child("kind"), errors);
                                          });
        return e;
    });
}

void decode_conditions(const doc::value* node, const field::path& at, field::error_list& errors, cluster& c)
{
    read::structs(node, at, errors, [&](const doc::value& item, const field::path& p) {
        read::time(item.find("lastTransitionTime"), p.child("lastTransitionTime"), errors);
        set_condition(c, {read::string(item.find("type"), p.child("type"), errors),
                          read::string(item.find("status"), p.child("status"), errors),
                          read::string(item.find("reason"), p.child("reason"), errors),
                          read::string(item.find("message"), p.child("message"), errors)});
    });
}

resource_summary decode_summary(const doc::value& node, const field::path& at, field::error_list& errors)
{
    resource_summary s;
    s.allocatable = read::resources(node.find("allocatable"), at.child("allocatable"), errors);
    s.allocated = read::resources(node.find("allocated"), at.child("allocated"), errors);
    s.allocating = read::resources(node.find("allocating"), at.child("allocating"), errors);
    read::structs(node.find("allocatableModelings"), at.child("allocatableModelings"), errors,
               [&](const doc::value& item, const field::path& p) {
                   s.allocatable_modelings.push_back({read::integer(item.find("grade"), p.child("grade"), errors, 0),
                                                      read::integer(item.find("count"), p.child("count"), errors, 0)});
               });
    return s;
}

void decode_spec(const doc::value* spec, field::error_list& errors, cluster& c)
{
    if (!present(spec))
        return;
    auto at = field::path::root("spec");
    c.provider = read::string(spec->find("provider"), at.child("provider"), errors);
    c.region = read::string(spec->find("region"), at.child("region"), errors);
    c.zones = read::list<std::string>(spec->find("zones"), at.child("zones"), errors,
                                      [&](const doc::value& z, const field::path& p) { return read::string(&z, p, errors); });
    // The API server migrates the deprecated single zone when zones is empty.
    auto zone = read::string(spec->find("zone"), at.child("zone"), errors);
    if (c.zones.empty() && !zone.empty())
        c.zones.push_back(zone);
    c.taints = decode_taints(spec->find("taints"), at.child("taints"), errors);
    c.resource_models = decode_models(spec->find("resourceModels"), at.child("resourceModels"), errors);
}

} // namespace

namespace read {

std::string string(const doc::value* node, const field::path& at, field::error_list& errors)
{
    if (!present(node))
        return {};
    if (!node->is_string()) {
        errors.push_back(field::type_invalid(at, render(*node), "expected string"));
        return {};
    }
    return node->text();
}

std::int64_t integer(const doc::value* node, const field::path& at, field::error_list& errors, std::int64_t def)
{
    if (!present(node))
        return def;
    // A whole number written as a float (`09`, `1e3`, `3.0`): go-yaml v2 resolves it to a float64, which
    // kubectl's reader writes as the JSON number 9, and Go decodes that into an integer field.
    if (node->is_number() && !node->is_int()) {
        const double d = node->as_double();
        if (d == std::trunc(d) && d >= -9.2233720368547758e18 && d < 9.2233720368547758e18)
            return static_cast<std::int64_t>(d);
    }
    if (!node->is_int()) {
        errors.push_back(field::type_invalid(at, render(*node), "expected integer"));
        return def;
    }
    return node->as_int();
}

label_map string_map(const doc::value* node, const field::path& at, field::error_list& errors)
{
    return members<label_map>(node, at, errors, string);
}

resource_list resources(const doc::value* node, const field::path& at, field::error_list& errors)
{
    return members<resource_list>(node, at, errors, decode_quantity);
}

std::optional<timestamp> time(const doc::value* node, const field::path& at, field::error_list& errors)
{
    auto text = string(node, at, errors);
    if (text.empty())
        return std::nullopt;
    auto t = parse_rfc3339(text);
    if (!t)
        errors.push_back(
            field::invalid(at, field::go_quote(text), "must be an RFC3339 time such as \"2026-08-20T09:00:01Z\""));
    return t;
}

const std::vector<doc::value>& items(const doc::value* node, const field::path& at, field::error_list& errors)
{
    if (!present(node))
        return no_items;
    if (!node->is_sequence()) {
        errors.push_back(field::type_invalid(at, render(*node), "expected array"));
        return no_items;
    }
    return node->items();
}

std::vector<taint> taints(const doc::value* node, const field::path& at, field::error_list& errors)
{
    return decode_taints(node, at, errors);
}

bool struct_item(const doc::value& item, const field::path& at, field::error_list& errors)
{
    if (item.is_mapping() || item.is_null())
        return true;
    errors.push_back(field::type_invalid(at, render(item), "expected object"));
    return false;
}

} // namespace read

bool is_cluster_object(const doc::value& object)
{
    auto api_version = object.string_at("apiVersion");
    return object.string_at("kind") == "Cluster" && api_version.starts_with("cluster.karmada.io/");
}

cluster_decoding decode_cluster(const doc::value& object)
{
    cluster_decoding out;
    auto& c = out.value;
    auto& errors = out.errors;
    c.where = object.pos();
    auto meta = field::path::root("metadata");
    const doc::value* metadata = object.find("metadata");
    if (present(metadata)) {
        c.name = read::string(metadata->find("name"), meta.child("name"), errors);
        c.labels = read::string_map(metadata->find("labels"), meta.child("labels"), errors);
        // metav1.Time: a text that is no RFC3339 time fails the Go client's decoding of the whole object.
        read::time(metadata->find("creationTimestamp"), meta.child("creationTimestamp"), errors);
        c.deleting = present(metadata->find("deletionTimestamp"));
        read::time(metadata->find("deletionTimestamp"), meta.child("deletionTimestamp"), errors);
        read::structs(metadata->find("ownerReferences"), meta.child("ownerReferences"), errors,
                      [](const doc::value&, const field::path&) {});
    }
    if (c.name.empty())
        errors.push_back(field::required(meta.child("name"), "name or generateName is required"));
    decode_spec(object.find("spec"), errors, c);
    if (const doc::value* status = object.find("status"); present(status)) {
        auto st = field::path::root("status");
        c.api_enablements = decode_enablements(status->find("apiEnablements"), st.child("apiEnablements"), errors);
        decode_conditions(status->find("conditions"), st.child("conditions"), errors, c);
        if (const doc::value* summary = status->find("resourceSummary"); present(summary))
            c.resource_summary = decode_summary(*summary, st.child("resourceSummary"), errors);
    }
    if (errors.empty()) // what lint reads says more; the rest only has to decode
        check_karmada_type(object, "v1alpha1.Cluster", "Cluster", errors);
    return out;
}

} // namespace kpw::model
