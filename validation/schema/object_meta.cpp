// SPDX-License-Identifier: Apache-2.0
#include "schema/object_meta.hpp"

#include <algorithm>
#include <span>
#include <string_view>
#include <vector>

namespace kpw::schema {
namespace {

enum class go_type { string, int64, boolean, string_map, string_list, time, owner_references, managed_fields, raw };

struct meta_field {
    std::string_view name;
    go_type type;
};

// The structs kubectl's check decodes (apimachinery pkg/apis/meta/v1/types.go), each in sorted key
// order: the order of the YAML-to-JSON conversion, so the order Go meets (and first reports) errors in.
constexpr meta_field object_meta_fields[] = {
    {"annotations", go_type::string_map},
    {"creationTimestamp", go_type::time},
    {"deletionGracePeriodSeconds", go_type::int64},
    {"deletionTimestamp", go_type::time},
    {"finalizers", go_type::string_list},
    {"generateName", go_type::string},
    {"generation", go_type::int64},
    {"labels", go_type::string_map},
    {"managedFields", go_type::managed_fields},
    {"name", go_type::string},
    {"namespace", go_type::string},
    {"ownerReferences", go_type::owner_references},
    {"resourceVersion", go_type::string},
    {"selfLink", go_type::string},
    {"uid", go_type::string},
};
constexpr meta_field owner_reference_fields[] = {
    {"apiVersion", go_type::string}, {"blockOwnerDeletion", go_type::boolean}, {"controller", go_type::boolean},
    {"kind", go_type::string},       {"name", go_type::string},                {"uid", go_type::string},
};
constexpr meta_field managed_fields_entry_fields[] = {
    {"apiVersion", go_type::string}, {"fieldsType", go_type::string}, {"fieldsV1", go_type::raw},
    {"manager", go_type::string},    {"operation", go_type::string},  {"subresource", go_type::string},
    {"time", go_type::time},
};

// encoding/json's name of the Go type; a timestamp is metav1.Time, whose UnmarshalJSON decodes a string.
std::string_view go_type_name(go_type t)
{
    switch (t) {
    case go_type::string:
    case go_type::time: return "string";
    case go_type::int64: return "int64";
    case go_type::boolean: return "bool";
    case go_type::string_map: return "map[string]string";
    case go_type::string_list: return "[]string";
    case go_type::owner_references: return "[]v1.OwnerReference";
    case go_type::managed_fields: return "[]v1.ManagedFieldsEntry";
    case go_type::raw: return "";
    }
    return "";
}

// Whether `v`'s JSON type decodes into a Go value of type `t` (null decodes into anything).
bool fits(const doc::value& v, go_type t)
{
    if (v.is_null())
        return true;
    switch (t) {
    case go_type::string:
    case go_type::time: return v.is_string();
    case go_type::int64: return doc::json_int64(v).has_value();
    case go_type::boolean: return v.is_bool();
    case go_type::string_map: return v.is_mapping();
    case go_type::string_list:
    case go_type::owner_references:
    case go_type::managed_fields: return v.is_sequence();
    case go_type::raw: return true; // metav1.FieldsV1 keeps any JSON as it is
    }
    return false;
}

bool is_digits(std::string_view s) { return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; }); }

int number(std::string_view digits)
{
    int n = 0;
    for (char c : digits)
        n = n * 10 + (c - '0');
    return n;
}

int days_in(int month, int year)
{
    constexpr int days[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    const bool leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
    return month == 2 && leap ? 29 : days[month - 1];
}


struct walker {
    meta_reader reader;
    std::optional<object_meta_type_error> found;

    void type_error(const field::path& at, const doc::value& v, std::string_view go_struct, std::string_view json_path,
                    std::string_view type)
    {
        found = object_meta_type_error{at, "json: cannot unmarshal " + json_value_word(v, type == "int64") +
                                               " into Go struct field " + std::string(go_struct) + "." +
                                               std::string(json_path) + " of type " + std::string(type)};
    }

    // One member of Go struct `go_struct`, reached at JSON path `json_path` (dotted, no indices).
    void member(const doc::value& v, const field::path& at, std::string_view go_struct, const std::string& json_path,
                go_type t)
    {
        if (found || v.is_null())
            return;
        // The API server's check left these to their own types (session 14 compared it as such).
        if (reader == meta_reader::api_server &&
            (t == go_type::time || t == go_type::owner_references || t == go_type::managed_fields))
            return;
        if (!fits(v, t)) {
            type_error(at, v, go_struct, json_path, go_type_name(t));
            return;
        }
        switch (t) {
        case go_type::time:
            if (auto e = rfc3339_error(v.text()); !e.empty())
                found = object_meta_type_error{at, std::move(e)};
            return;
        case go_type::string_list:
            for (std::size_t i = 0; i < v.items().size() && !found; ++i)
                member(v.items()[i], at.index(i), go_struct, json_path, go_type::string);
            return;
        case go_type::string_map: {
            std::vector<const doc::value::member*> entries;
            for (const auto& m : v.members())
                entries.push_back(&m);
            std::sort(entries.begin(), entries.end(), [](const auto* a, const auto* b) { return a->first < b->first; });
            for (const auto* m : entries)
                member(m->second, at.key(m->first), go_struct, json_path, go_type::string);
            return;
        }
        case go_type::owner_references:
            structs(v, at, go_struct, json_path, "OwnerReference", owner_reference_fields);
            return;
        case go_type::managed_fields:
            structs(v, at, go_struct, json_path, "ManagedFieldsEntry", managed_fields_entry_fields);
            return;
        default: return;
        }
    }

    // A list of Go structs named `element`: each item an object, its members checked in sorted order.
    void structs(const doc::value& list, const field::path& at, std::string_view go_struct, const std::string& json_path,
                 std::string_view element, std::span<const meta_field> fields)
    {
        for (std::size_t i = 0; i < list.items().size() && !found; ++i) {
            const doc::value& item = list.items()[i];
            if (item.is_null())
                continue;
            if (!item.is_mapping()) {
                type_error(at.index(i), item, go_struct, json_path, "v1." + std::string(element));
                return;
            }
            object(item, at.index(i), element, json_path, fields);
        }
    }

    void object(const doc::value& v, const field::path& at, std::string_view go_struct, const std::string& json_path,
                std::span<const meta_field> fields)
    {
        for (const auto& f : fields)
            if (const doc::value* child = v.find(f.name); child && !found)
                member(*child, at.child(f.name), go_struct,
                       json_path.empty() ? std::string(f.name) : json_path + "." + std::string(f.name), f.type);
    }
};

} // namespace

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
    return into_integer && v.is_number() ? "number " + v.text() : "number";
}

// time.Parse(time.RFC3339, s)'s error in Go's words, or "" when s parses: the layout walked element by
// element ("cannot parse \"x\" as \"2006\""), then the ranges ("month out of range").
std::string rfc3339_error(std::string_view s)
{
    constexpr std::string_view layout = "2006-01-02T15:04:05Z07:00";
    std::string quoted = "\"";
    quoted.append(s).append("\""); // appended: GCC 12 warns falsely (-Wrestrict) on "\"" + std::string(s)
    std::string_view rest = s;
    auto bad = [&](std::string_view element) {
        return "parsing time " + quoted + " as \"" + std::string(layout) + "\": cannot parse \"" + std::string(rest) +
               "\" as \"" + std::string(element) + "\"";
    };
    struct step {
        std::string_view element;
        std::size_t digits; // 0: a literal
    };
    constexpr step steps[] = {{"2006", 4}, {"-", 0}, {"01", 2}, {"-", 0}, {"02", 2}, {"T", 0},
                              {"15", 2},   {":", 0}, {"04", 2}, {":", 0}, {"05", 2}};
    for (const step& st : steps) {
        const std::size_t size = st.digits == 0 ? st.element.size() : st.digits;
        const bool ok = st.digits == 0 ? rest.starts_with(st.element) : rest.size() >= size && is_digits(rest.substr(0, size));
        if (!ok)
            return bad(st.element);
        rest.remove_prefix(size);
    }
    // Go takes a fraction after the seconds though the layout has none.
    if (rest.size() > 1 && (rest[0] == '.' || rest[0] == ',') && is_digits(rest.substr(1, 1))) {
        rest.remove_prefix(1);
        while (!rest.empty() && is_digits(rest.substr(0, 1)))
            rest.remove_prefix(1);
    }
    if (rest.starts_with("Z"))
        rest.remove_prefix(1);
    else if (rest.size() >= 6 && (rest[0] == '+' || rest[0] == '-') && is_digits(rest.substr(1, 2)) && rest[3] == ':' &&
             is_digits(rest.substr(4, 2)))
        rest.remove_prefix(6);
    else
        return bad("Z07:00");
    if (!rest.empty())
        return "parsing time " + quoted + ": extra text: \"" + std::string(rest) + "\"";
    // The shape held, so every number sits at its layout offset.
    const int year = number(s.substr(0, 4)), month = number(s.substr(5, 2)), day = number(s.substr(8, 2));
    const char* out_of_range = month < 1 || month > 12               ? "month"
                               : day < 1 || day > days_in(month, year) ? "day"
                               : number(s.substr(11, 2)) >= 24         ? "hour"
                               : number(s.substr(14, 2)) >= 60         ? "minute"
                               : number(s.substr(17, 2)) >= 60         ? "second"
                                                                       : nullptr;
    return out_of_range ? "parsing time " + quoted + ": " + out_of_range + " out of range" : "";
}

std::optional<object_meta_type_error> object_meta_type_check(const doc::value& metadata, meta_reader reader)
{
    const bool kubectl = reader == meta_reader::kubectl;
    const field::path root = field::path::root("metadata");
    if (metadata.is_null())
        return std::nullopt;
    if (!metadata.is_mapping())
        return object_meta_type_error{root, "json: cannot unmarshal " + json_value_word(metadata, false) + " into Go " +
                                                (kubectl ? "struct field metadataOnlyObject.metadata" : "value") +
                                                " of type v1.ObjectMeta"};
    walker w{reader, std::nullopt};
    // kubectl decodes the whole document, so Go's field path starts at its metadata key.
    w.object(metadata, root, "ObjectMeta", kubectl ? "metadata" : "", object_meta_fields);
    return w.found;
}

} // namespace kpw::schema
