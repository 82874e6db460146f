// SPDX-License-Identifier: Apache-2.0
#include "schema/go_types.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <unordered_map>
#include <vector>

#include "doc/load.hpp"
#include "model/quantity.hpp"
#include "schema/object_meta.hpp"
#include "schema/schema.hpp"

namespace kpw::schema {
namespace {

// What encoding/json does with a JSON value for a Go type of this kind (see cmd/gotypes: the special
// kinds are the types with their own UnmarshalJSON).
enum class go_kind { string, boolean, integer, unsigned_integer, floating, any, bytes, slice, map, structure,
                     quantity, int_or_string, time, duration };

struct go_type {
    go_kind kind = go_kind::any;
    std::string name;        // reflect.Type.String(): "v1.PodSpec", "[]v1.Container", "int32"
    std::string struct_name; // a struct's Name(): "PodSpec"
    int bits = 0;            // an integer's size
    int element = -1;        // a slice's or map's element type
    std::vector<std::pair<std::string, int>> fields; // a struct's JSON fields, sorted by name
};

struct type_table {
    std::vector<go_type> types;
    std::unordered_map<std::string, int> kinds; // "apps/v1/Deployment" -> type
    std::unordered_map<std::string, int> names; // "v1.PodTemplateSpec" -> type (go_type_check)
};

go_kind kind_named(std::string_view k)
{
    static const std::pair<std::string_view, go_kind> names[] = {
        {"string", go_kind::string},      {"bool", go_kind::boolean},          {"int", go_kind::integer},
        {"uint", go_kind::unsigned_integer}, {"float", go_kind::floating},     {"any", go_kind::any},
        {"bytes", go_kind::bytes},        {"slice", go_kind::slice},           {"map", go_kind::map},
        {"struct", go_kind::structure},   {"quantity", go_kind::quantity},     {"intorstring", go_kind::int_or_string},
        {"time", go_kind::time},          {"microtime", go_kind::time},        {"duration", go_kind::duration},
    };
    for (const auto& [name, kind] : names)
        if (name == k)
            return kind;
    return go_kind::any;
}

// The embedded table, compiled on first use. A table that does not parse is a build defect (the file is
// generated and checked in CI); it reads as empty, so nothing is refused.
const type_table& table()
{
    static const type_table compiled = [] {
        type_table t;
        auto parsed = doc::parse_json(embedded_kubernetes_types());
        if (!parsed)
            return t;
        for (const auto& entry : parsed->find("types")->items()) {
            const auto& e = entry.items();
            go_type g;
            g.kind = kind_named(e.at(0).text());
            g.name = e.at(1).text();
            switch (g.kind) {
            case go_kind::integer:
            case go_kind::unsigned_integer:
            case go_kind::floating: g.bits = static_cast<int>(e.at(2).as_int()); break;
            case go_kind::slice:
            case go_kind::map: g.element = static_cast<int>(e.at(2).as_int()); break;
            case go_kind::structure:
                g.struct_name = e.at(2).text();
                for (const auto& f : e.at(3).items())
                    g.fields.emplace_back(f.items().at(0).text(), static_cast<int>(f.items().at(1).as_int()));
                std::sort(g.fields.begin(), g.fields.end());
                break;
            default: break;
            }
            t.names.emplace(g.name, static_cast<int>(t.types.size()));
            t.types.push_back(std::move(g));
        }
        for (const auto& [name, index] : parsed->find("kinds")->members())
            t.kinds.emplace(name, static_cast<int>(index.as_int()));
        return t;
    }();
    return compiled;
}

std::string kind_key(std::string_view api_version, std::string_view kind)
{
    std::string key(api_version);
    return key.append("/").append(kind);
}

// A JSON number as an integer field takes it: encoding/json parses the number's text (a YAML 9.0 is sent as
// 9: doc::go_float_text, doc::json_int64), within the field's range.
bool fits_integer(const doc::value& v, int bits, bool is_unsigned)
{
    __extension__ using wide = __int128;
    wide n = 0;
    if (auto i = doc::json_int64(v)) {
        n = *i;
    } else {
        const std::string& t = v.is_number() ? v.text() : std::string();
        if (t.empty() || t.size() > 20 || t.find_first_not_of("0123456789") != std::string::npos)
            return false;
        for (char c : t)
            n = n * 10 + (c - '0');
    }
    if (is_unsigned)
        return n >= 0 && (bits >= 64 || n < (wide(1) << bits));
    return n >= -(wide(1) << (bits - 1)) && n < (wide(1) << (bits - 1));
}

// base64.StdEncoding as encoding/json decodes a []byte: padded, newlines ignored; the offset of the first
// byte that is wrong, or -1.
long base64_error(std::string_view s)
{
    auto is_b64 = [](char c) {
        return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '+' || c == '/';
    };
    std::string kept;
    for (char c : s)
        if (c != '\r' && c != '\n')
            kept.push_back(c);
    std::size_t i = 0;
    for (; i < kept.size() && is_b64(kept[i]); ++i) {
    }
    std::size_t pad = 0;
    for (std::size_t j = i; j < kept.size(); ++j, ++pad)
        if (kept[j] != '=')
            return static_cast<long>(j);
    if (pad > 2 || (i + pad) % 4 != 0 || (pad > 0 && i % 4 < 2))
        return static_cast<long>(std::min(kept.size(), i - i % 4));
    return -1;
}

struct walker {
    const type_table& types;
    std::optional<go_decode_error> type_error; // encoding/json's saved first type mismatch
    std::optional<go_decode_error> fatal;      // an UnmarshalJSON error: decoding stops there

    bool done() const { return fatal.has_value(); }

    // UnmarshalTypeError.Error() with the struct field the decoder was in.
    static std::string unmarshal_text(const doc::value& v, bool into_integer, std::string_view go_struct,
                                      const std::string& json_path, std::string_view type)
    {
        return "json: cannot unmarshal " + json_value_word(v, into_integer) + " into Go struct field " +
               std::string(go_struct) + "." + json_path + " of type " + std::string(type);
    }

    void mismatch(const field::path& at, const doc::value& v, const go_type& t, std::string_view go_struct,
                  const std::string& json_path)
    {
        if (!type_error)
            type_error = go_decode_error{at, unmarshal_text(v, t.kind == go_kind::integer ||
                                                                   t.kind == go_kind::unsigned_integer,
                                                            go_struct, json_path, t.name)};
    }

    void fail(const field::path& at, std::string message)
    {
        if (!fatal)
            fatal = go_decode_error{at, std::move(message)};
    }

    // `v` decoded into type `index`, as member `json_path` (dotted, no indices) of Go struct `go_struct`.
    void value(const doc::value& v, int index, const field::path& at, std::string_view go_struct,
               const std::string& json_path)
    {
        if (done() || v.is_null())
            return;
        const go_type& t = types.types.at(static_cast<std::size_t>(index));
        switch (t.kind) {
        case go_kind::any: return;
        case go_kind::string:
        case go_kind::duration:
            if (!v.is_string())
                mismatch(at, v, t, go_struct, json_path);
            return;
        case go_kind::boolean:
            if (!v.is_bool())
                mismatch(at, v, t, go_struct, json_path);
            return;
        case go_kind::integer:
        case go_kind::unsigned_integer:
            if (!v.is_number() || !fits_integer(v, t.bits, t.kind == go_kind::unsigned_integer))
                mismatch(at, v, t, go_struct, json_path);
            return;
        case go_kind::floating:
            if (!v.is_number())
                mismatch(at, v, t, go_struct, json_path);
            return;
        case go_kind::bytes:
            if (!v.is_string())
                mismatch(at, v, t, go_struct, json_path);
            else if (long bad = base64_error(v.text()); bad >= 0 && !type_error)
                type_error = go_decode_error{at, "illegal base64 data at input byte " + std::to_string(bad)};
            return;
        case go_kind::quantity: {
            // Quantity.UnmarshalJSON: a string's contents (trimmed) or the raw JSON of anything else.
            const std::string text = v.is_string() || v.is_number() ? v.text() : doc::to_json(v);
            auto parsed = model::parse_quantity_checked(trim(text));
            if (!parsed.value && parsed.error != model::quantity_error::beyond_range)
                fail(at, std::string(model::to_string(parsed.error)));
            return;
        }
        case go_kind::int_or_string:
            // IntOrString.UnmarshalJSON: a string as such, anything else json.Unmarshal'd into an int32; the
            // outer decoder adds its struct field to that UnmarshalTypeError (addErrorContext).
            if (!v.is_string() && !(v.is_number() && fits_integer(v, 32, false)))
                fail(at, unmarshal_text(v, v.is_number(), go_struct, json_path, "int32"));
            return;
        case go_kind::time:
            // Time.UnmarshalJSON: json.Unmarshal into a string, then time.Parse(time.RFC3339, ...).
            if (!v.is_string())
                fail(at, unmarshal_text(v, false, go_struct, json_path, "string"));
            else if (auto e = rfc3339_error(v.text()); !e.empty())
                fail(at, e);
            return;
        case go_kind::slice:
            if (!v.is_sequence()) {
                mismatch(at, v, t, go_struct, json_path);
                return;
            }
            for (std::size_t i = 0; i < v.items().size() && !done(); ++i)
                value(v.items()[i], t.element, at.index(i), go_struct, json_path);
            return;
        case go_kind::map:
            if (!v.is_mapping()) {
                mismatch(at, v, t, go_struct, json_path);
                return;
            }
            for (const auto* m : sorted(v))
                value(m->second, t.element, at.key(m->first), go_struct, json_path);
            return;
        case go_kind::structure:
            if (!v.is_mapping()) {
                mismatch(at, v, t, go_struct, json_path);
                return;
            }
            for (const auto* m : sorted(v)) {
                auto f = std::lower_bound(t.fields.begin(), t.fields.end(), m->first,
                                          [](const auto& field, const std::string& name) { return field.first < name; });
                if (f == t.fields.end() || f->first != m->first)
                    continue; // an unknown field: the API server's decoder drops it
                value(m->second, f->second, at.child(m->first), t.struct_name,
                      json_path.empty() ? m->first : json_path + "." + m->first);
            }
            return;
        }
    }

    static std::string_view trim(std::string_view s)
    {
        while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\n' || s.front() == '\r'))
            s.remove_prefix(1);
        while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\n' || s.back() == '\r'))
            s.remove_suffix(1);
        return s;
    }

    // A mapping's members in sorted key order (the YAML-to-JSON conversion's), the last of a repeated key.
    static std::vector<const doc::value::member*> sorted(const doc::value& v)
    {
        std::vector<const doc::value::member*> out;
        out.reserve(v.members().size());
        for (const auto& m : v.members())
            out.push_back(&m);
        std::stable_sort(out.begin(), out.end(), [](const auto* a, const auto* b) { return a->first < b->first; });
        return out;
    }
};

} // namespace

bool is_builtin_kind(std::string_view api_version, std::string_view kind)
{
    return table().kinds.contains(kind_key(api_version, kind));
}

namespace {

// encoding/json's first error decoding `v` into type `index` of the table, paths relative to `v`.
std::optional<go_decode_error> walk(const type_table& types, const doc::value& v, int index)
{
    walker w{types, std::nullopt, std::nullopt};
    w.value(v, index, field::path{}, "", "");
    return w.fatal ? std::move(w.fatal) : std::move(w.type_error);
}

} // namespace

std::optional<go_decode_error> go_type_check(const doc::value& v, std::string_view go_type_name)
{
    const auto& types = table();
    auto it = types.names.find(std::string(go_type_name));
    return it == types.names.end() ? std::nullopt : walk(types, v, it->second);
}

std::optional<go_decode_error> go_decode_check(const doc::value& object)
{
    const std::string_view api_version = object.string_at("apiVersion"), kind = object.string_at("kind");
    const auto& types = table();
    auto it = types.kinds.find(kind_key(api_version, kind));
    if (it == types.kinds.end())
        return std::nullopt;
    auto found = walk(types, object, it->second);
    if (!found)
        return std::nullopt;
    const std::string_view version = api_version.substr(api_version.find('/') + 1);
    found->message = std::string(kind) + " in version \"" + std::string(version) + "\" cannot be handled as a " +
                     std::string(kind) + ": " + found->message;
    return found;
}

} // namespace kpw::schema
