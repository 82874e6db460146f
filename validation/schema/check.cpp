// SPDX-License-Identifier: Apache-2.0
// Checks a document against the compiled CRD schema, with kube-apiserver's messages (rules §4.1).
#include "schema/schema.hpp"

#include <algorithm>
#include <array>
#include <string>

namespace kpw::schema {
namespace {

bool has_type(const doc::value& v, std::string_view type)
{
    if (type.empty())
        return true;
    if (type == "object")
        return v.is_mapping();
    if (type == "array")
        return v.is_sequence();
    if (type == "string")
        return v.is_string();
    if (type == "integer")
        return v.is_int();
    if (type == "boolean")
        return v.is_bool();
    if (type == "number")
        return v.is_number();
    return true;
}

// kube-openapi counts characters (runes), not bytes, for minLength/maxLength.
std::int64_t rune_count(std::string_view s)
{
    std::int64_t n = 0;
    for (unsigned char c : s)
        if ((c & 0xc0) != 0x80)
            ++n;
    return n;
}

struct checker {
    field::error_list& errors;
    field::warning_list& warnings;

    void value(const node& s, const doc::value& v, const field::path& at);
    void object(const node& s, const doc::value& v, const field::path& at);
    void array(const node& s, const doc::value& v, const field::path& at);
    void scalar(const node& s, const doc::value& v, const field::path& at);
};

void checker::value(const node& s, const doc::value& v, const field::path& at)
{
    if (!has_type(v, s.type)) {
        const std::string actual(doc::type_name(v.kind()));
        errors.push_back(field::type_invalid(at, field::go_quote(actual),
                                             at.str() + " in body must be of type " + s.type + ": " +
                                                 field::go_quote(actual)));
        return;
    }
    if (v.is_mapping())
        object(s, v, at);
    else if (v.is_sequence())
        array(s, v, at);
    else
        scalar(s, v, at);
}

void checker::object(const node& s, const doc::value& v, const field::path& at)
{
    if (s.opaque())
        return;
    for (const auto& name : s.required) {
        const doc::value* m = v.find(name);
        if (!m || m->is_null())
            errors.push_back(field::required(at.child(name)));
    }
    for (const auto& [key, child] : v.members()) {
        if (const node* sub = s.property(key)) {
            value(*sub, child, at.child(key));
        } else if (!s.additional.empty()) {
            value(s.additional.front(), child, at.key(key));
        } else {
            warnings.push_back({"unknown-field", at.child(key).str(),
                                "unknown field " + field::go_quote(key) +
                                    ": kubectl apply rejects it (strict field validation), otherwise the API "
                                    "server drops it"});
        }
    }
}

void checker::array(const node& s, const doc::value& v, const field::path& at)
{
    const auto n = static_cast<std::int64_t>(v.items().size());
    if (s.min_items && n < *s.min_items)
        errors.push_back(field::invalid(at, field::go_int(n),
                                        at.str() + " in body should have at least " + field::go_int(*s.min_items) +
                                            " items"));
    if (s.items.empty())
        return;
    for (std::size_t i = 0; i < v.items().size(); ++i)
        value(s.items.front(), v.items()[i], at.index(i));
}

void checker::scalar(const node& s, const doc::value& v, const field::path& at)
{
    if (v.is_string()) {
        const std::string& text = v.text();
        if (s.max_length && rune_count(text) > *s.max_length)
            errors.push_back(field::too_long(at, static_cast<std::size_t>(*s.max_length)));
        if (s.min_length && rune_count(text) < *s.min_length)
            errors.push_back(field::invalid(at, field::go_quote(text),
                                            at.str() + " in body should be at least " + field::go_int(*s.min_length) +
                                                " chars long"));
        if (!s.enumeration.empty() && std::find(s.enumeration.begin(), s.enumeration.end(), text) == s.enumeration.end())
            errors.push_back(field::not_supported(at, field::go_quote(text), s.enumeration));
    }
    if (v.is_int() && s.minimum && v.as_int() < *s.minimum)
        errors.push_back(field::invalid(at, field::go_int(v.as_int()),
                                        at.str() + " in body should be greater than or equal to " +
                                            field::go_int(*s.minimum)));
}

// The API server's pruning with unknown-field tracking (apiextensions-apiserver
// pkg/apiserver/schema/pruning/algorithm.go prune): every member of a mapping that the schema does
// not define is unknown, also where the schema wants a scalar or a list; no descent below it.
struct pruner {
    std::vector<unknown_field>& found;

    void value(const node* s, const doc::value& v, const field::path& at, const std::string& api);
};

void pruner::value(const node* s, const doc::value& v, const field::path& at, const std::string& api)
{
    if (v.is_sequence()) {
        const node* item = s && !s->items.empty() ? &s->items.front() : nullptr;
        for (std::size_t i = 0; i < v.items().size(); ++i)
            value(item, v.items()[i], at.index(i), api + "[" + std::to_string(i) + "]");
        return;
    }
    for (const auto& [key, child] : v.members()) {
        if (child.is_null())
            continue; // kubectl apply prunes nulls before it sends the object
        const std::string child_api = api.empty() ? key : api + "." + key;
        if (const node* sub = s ? s->property(key) : nullptr)
            value(sub, child, at.child(key), child_api);
        else if (s && !s->additional.empty())
            value(&s->additional.front(), child, at.key(key), child_api);
        else
            found.push_back({at.child(key), child_api});
    }
}

// ObjectMeta's JSON fields (apimachinery pkg/apis/meta/v1/types.go; clusterName is a tombstone).
constexpr std::array<std::string_view, 15> object_meta_fields{
    "annotations", "creationTimestamp", "deletionGracePeriodSeconds", "deletionTimestamp", "finalizers",
    "generateName", "generation", "labels", "managedFields", "name", "namespace", "ownerReferences",
    "resourceVersion", "selfLink", "uid"};
constexpr std::array<std::string_view, 6> owner_reference_fields{"apiVersion", "blockOwnerDeletion", "controller",
                                                                 "kind", "name", "uid"};
constexpr std::array<std::string_view, 7> managed_fields_entry_fields{
    "apiVersion", "fieldsType", "fieldsV1", "manager", "operation", "subresource", "time"};

template <std::size_t N>
bool known(const std::array<std::string_view, N>& names, std::string_view key)
{
    return std::find(names.begin(), names.end(), key) != names.end();
}

// Members of a mapping in the order Go's encoding/json writes a map: keys sorted bytewise, nulls gone.
std::vector<const doc::value::member*> sorted_members(const doc::value& v)
{
    std::vector<const doc::value::member*> out;
    for (const auto& m : v.members())
        if (!m.second.is_null())
            out.push_back(&m);
    std::sort(out.begin(), out.end(), [](const auto* a, const auto* b) { return a->first < b->first; });
    return out;
}

// The unknown fields of a list of structs inside metadata (ownerReferences, managedFields).
template <std::size_t N>
void struct_list(const doc::value& list, const std::array<std::string_view, N>& names, const field::path& at,
                 const std::string& api, std::vector<unknown_field>& found)
{
    for (std::size_t i = 0; i < list.items().size(); ++i)
        for (const auto* m : sorted_members(list.items()[i]))
            if (!known(names, m->first))
                found.push_back({at.index(i).child(m->first), api + "[" + std::to_string(i) + "]." + m->first});
}

// metadata as schemaobjectmeta.GetObjectMetaWithOptions reads it: re-encoded (sorted keys), then
// decoded strictly into ObjectMeta, which reports at most 100 strict errors.
std::vector<unknown_field> metadata_unknown_fields(const doc::value& metadata)
{
    std::vector<unknown_field> found;
    const field::path at = field::path::root("metadata");
    for (const auto* m : sorted_members(metadata)) {
        const std::string api = "metadata." + m->first;
        if (!known(object_meta_fields, m->first))
            found.push_back({at.child(m->first), api});
        else if (m->first == "ownerReferences")
            struct_list(m->second, owner_reference_fields, at.child(m->first), api, found);
        else if (m->first == "managedFields")
            struct_list(m->second, managed_fields_entry_fields, at.child(m->first), api, found);
    }
    if (found.size() > 100)
        found.resize(100);
    return found;
}

} // namespace

std::optional<field_validation> parse_field_validation(std::string_view name)
{
    // kubectl's --validate also takes true (strict) and false (ignore), its older boolean form.
    if (name == "strict" || name == "true")
        return field_validation::strict;
    if (name == "warn")
        return field_validation::warn;
    if (name == "ignore" || name == "false")
        return field_validation::ignore;
    return std::nullopt;
}

// karmada: none; apiextensions-apiserver pkg/apiserver/customresource_handler.go
// schemaCoercingDecoder.Decode and unstructuredSchemaCoercer.apply
std::vector<unknown_field> unknown_fields(const node& schema, const doc::value& object)
{
    std::vector<unknown_field> found;
    if (const doc::value* metadata = object.find("metadata"); metadata && metadata->is_mapping())
        found = metadata_unknown_fields(*metadata);
    // The root is an embedded resource: apiVersion, kind and metadata are not pruned.
    std::vector<unknown_field> pruned;
    pruner p{pruned};
    for (const auto& [key, child] : object.members()) {
        if (key == "apiVersion" || key == "kind" || key == "metadata" || child.is_null())
            continue;
        if (const node* sub = schema.property(key))
            p.value(sub, child, field::path::root(key), key);
        else
            pruned.push_back({field::path::root(key), key});
    }
    std::sort(pruned.begin(), pruned.end(), [](const auto& a, const auto& b) { return a.api_path < b.api_path; });
    found.insert(found.end(), pruned.begin(), pruned.end());
    return found;
}

namespace {

// pruner's counterpart that removes what it would report.
void prune_value(const node* s, doc::value& v)
{
    if (v.is_sequence()) {
        for (auto& item : v.items())
            prune_value(s && !s->items.empty() ? &s->items.front() : nullptr, item);
        return;
    }
    if (!v.is_mapping())
        return;
    std::erase_if(v.members(), [s](doc::value::member& m) {
        if (m.second.is_null())
            return false;
        if (const node* sub = s ? s->property(m.first) : nullptr)
            prune_value(sub, m.second);
        else if (s && !s->additional.empty())
            prune_value(&s->additional.front(), m.second);
        else
            return true;
        return false;
    });
}

} // namespace

// apiextensions-apiserver pkg/apiserver/schema/pruning/algorithm.go Prune, below the embedded resource's
// apiVersion, kind and metadata (ObjectMeta's own decoding drops metadata's unknown fields).
void prune_unknown_fields(const node& schema, doc::value& object)
{
    if (!object.is_mapping())
        return;
    std::erase_if(object.members(), [&schema](doc::value::member& m) {
        if (m.first == "apiVersion" || m.first == "kind" || m.first == "metadata" || m.second.is_null())
            return false;
        const node* sub = schema.property(m.first);
        if (sub)
            prune_value(sub, m.second);
        return sub == nullptr;
    });
}

std::string strict_decoding_message(std::string_view kind, std::string_view version,
                                    const std::vector<unknown_field>& fields)
{
    std::string cause = "strict decoding error: ";
    for (std::size_t i = 0; i < fields.size(); ++i)
        cause.append(i ? ", " : "").append("unknown field \"").append(fields[i].api_path).append("\"");
    return decode_error_message(kind, version, cause);
}

std::string decode_error_message(std::string_view kind, std::string_view version, std::string_view cause)
{
    return std::string(kind) + " in version " + field::go_quote(version) + " cannot be handled as a " +
           std::string(kind) + ": " + std::string(cause);
}

void check(const node& schema, const doc::value& v, const field::path& at, field::error_list& errors,
           field::warning_list& warnings)
{
    checker c{errors, warnings};
    c.value(schema, v, at);
}

} // namespace kpw::schema
