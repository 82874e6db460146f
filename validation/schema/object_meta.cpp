// SPDX-License-Identifier: Apache-2.0
#include "schema/object_meta.hpp"

#include <algorithm>
#include <string_view>
#include <vector>

namespace kpw::schema {
namespace {

enum class go_type { string, int64, string_map, string_list };

// ObjectMeta's fields of those Go types (apimachinery pkg/apis/meta/v1/types.go). Timestamps, owner
// references and managed fields decode through their own types and are not checked here.
struct meta_field {
    std::string_view name;
    go_type type;
};
constexpr meta_field meta_fields[] = {
    {"annotations", go_type::string_map}, {"deletionGracePeriodSeconds", go_type::int64},
    {"finalizers", go_type::string_list}, {"generateName", go_type::string},
    {"generation", go_type::int64},       {"labels", go_type::string_map},
    {"name", go_type::string},            {"namespace", go_type::string},
    {"resourceVersion", go_type::string}, {"selfLink", go_type::string},
    {"uid", go_type::string},
};

std::string_view go_type_name(go_type t)
{
    switch (t) {
    case go_type::string: return "string";
    case go_type::int64: return "int64";
    case go_type::string_map: return "map[string]string";
    case go_type::string_list: return "[]string";
    }
    return "";
}

// encoding/json's UnmarshalTypeError.Value for a JSON value that does not fit: its JSON type, and for a
// number that an integer cannot hold, the number itself ("number 1.5").
std::string json_value_word(const doc::value& v, bool into_integer)
{
    if (v.is_string())
        return "string";
    if (v.is_bool())
        return "bool";
    if (v.is_sequence())
        return "array";
    if (v.is_mapping())
        return "object";
    if (into_integer && v.is_number() && !v.is_int())
        return "number " + v.text();
    return "number";
}

// Whether `v` decodes into a Go value of type `t` (null decodes into anything).
bool fits(const doc::value& v, go_type t)
{
    if (v.is_null())
        return true;
    switch (t) {
    case go_type::string: return v.is_string();
    case go_type::int64: return v.is_int();
    case go_type::string_map: return v.is_mapping();
    case go_type::string_list: return v.is_sequence();
    }
    return false;
}

object_meta_type_error type_error(const field::path& at, const doc::value& v, std::string_view field, go_type t)
{
    return {at, "json: cannot unmarshal " + json_value_word(v, t == go_type::int64) +
                    " into Go struct field ObjectMeta." + std::string(field) + " of type " +
                    std::string(go_type_name(t))};
}

// The first element of a string map or list that is not a string (Go reports it with the field's name
// and the element's type, string). Map entries are read in sorted key order, as re-encoded.
std::optional<object_meta_type_error> element_error(const doc::value& v, const field::path& at, std::string_view field,
                                                    go_type t)
{
    if (t == go_type::string_list) {
        for (std::size_t i = 0; i < v.items().size(); ++i)
            if (!fits(v.items()[i], go_type::string))
                return type_error(at.index(i), v.items()[i], field, go_type::string);
        return std::nullopt;
    }
    std::vector<const doc::value::member*> entries;
    for (const auto& m : v.members())
        entries.push_back(&m);
    std::sort(entries.begin(), entries.end(), [](const auto* a, const auto* b) { return a->first < b->first; });
    for (const auto* m : entries)
        if (!fits(m->second, go_type::string))
            return type_error(at.key(m->first), m->second, field, go_type::string);
    return std::nullopt;
}

} // namespace

std::optional<object_meta_type_error> object_meta_type_check(const doc::value& metadata)
{
    const field::path root = field::path::root("metadata");
    if (metadata.is_null())
        return std::nullopt;
    // The API server reads metadata on its own (unstructured's ObjectMeta accessor json-decodes it):
    // anything but an object fails there, before the schema is consulted.
    if (!metadata.is_mapping())
        return object_meta_type_error{root, "json: cannot unmarshal " + json_value_word(metadata, false) +
                                                " into Go value of type v1.ObjectMeta"};
    // meta_fields is in sorted key order, the order the re-encoded metadata is decoded in.
    for (const auto& f : meta_fields) {
        const doc::value* v = metadata.find(f.name);
        if (!v)
            continue;
        const field::path at = root.child(f.name);
        if (!fits(*v, f.type))
            return type_error(at, *v, f.name, f.type);
        if (f.type == go_type::string_map || f.type == go_type::string_list)
            if (auto e = element_error(*v, at, f.name, f.type))
                return e;
    }
    return std::nullopt;
}

} // namespace kpw::schema
