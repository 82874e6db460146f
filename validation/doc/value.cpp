// SPDX-License-Identifier: Apache-2.0
#include "doc/value.hpp"

#include <array>
#include <cstdio>

#include "base/utf8.hpp"

namespace kpw::doc {

std::string_view type_name(type t)
{
    switch (t) {
    case type::null: return "null";
    case type::boolean: return "boolean";
    case type::integer: return "integer";
    case type::number: return "number";
    case type::string: return "string";
    case type::sequence: return "array";
    case type::mapping: return "object";
    }
    return "null";
}

value::value(const value& other) : scalar_(other.scalar_), pos_(other.pos_), key_pos_(other.key_pos_)
{
    // type_ stays null until the storage exists: a copy that throws leaves nothing to destroy.
    if (other.has_text())
        new (&data_.text) std::string(other.data_.text);
    else if (other.is_sequence())
        new (&data_.items) std::vector<value>(other.data_.items);
    else if (other.is_mapping())
        new (&data_.members) std::vector<member>(other.data_.members);
    type_ = other.type_;
}

value& value::operator=(const value& other)
{
    if (this != &other)
        *this = value(other);
    return *this;
}

void value::start(type t)
{
    type_ = t;
    if (has_text())
        new (&data_.text) std::string();
    else if (t == type::sequence)
        new (&data_.items) std::vector<value>();
    else if (t == type::mapping)
        new (&data_.members) std::vector<member>();
}

const std::string& value::empty_text()
{
    static const std::string empty;
    return empty;
}

const std::vector<value>& value::empty_items()
{
    static const std::vector<value> empty;
    return empty;
}

const std::vector<value::member>& value::empty_members()
{
    static const std::vector<member> empty;
    return empty;
}

std::vector<value>& value::items()
{
    if (is_sequence())
        return data_.items;
    thread_local std::vector<value> dropped;
    dropped.clear();
    return dropped;
}

std::vector<value::member>& value::members()
{
    if (is_mapping())
        return data_.members;
    thread_local std::vector<member> dropped;
    dropped.clear();
    return dropped;
}

double value::as_double() const
{
    if (type_ == type::integer)
        return static_cast<double>(scalar_.i);
    return type_ == type::number ? scalar_.d : 0;
}

value value::null_value(position at)
{
    value v;
    v.pos_ = at;
    return v;
}

value value::boolean(bool b, position at)
{
    value v;
    v.type_ = type::boolean;
    v.scalar_.b = b;
    v.pos_ = at;
    return v;
}

value value::integer(std::int64_t i, position at)
{
    value v;
    new (&v.data_.text) std::string(std::to_string(i)); // constructed in place, not assigned
    v.type_ = type::integer;
    v.scalar_.i = i;
    v.pos_ = at;
    return v;
}

value value::number(double d, std::string text, position at)
{
    value v;
    new (&v.data_.text) std::string(std::move(text));
    v.type_ = type::number;
    v.scalar_.d = d;
    v.pos_ = at;
    return v;
}

value value::string(std::string s, position at)
{
    value v;
    new (&v.data_.text) std::string(std::move(s));
    v.type_ = type::string;
    v.pos_ = at;
    return v;
}

value value::sequence(position at)
{
    value v;
    v.start(type::sequence);
    v.pos_ = at;
    return v;
}

value value::mapping(position at)
{
    value v;
    v.start(type::mapping);
    v.pos_ = at;
    return v;
}

const value* value::find(std::string_view key) const
{
    if (type_ != type::mapping)
        return nullptr;
    for (const auto& m : data_.members)
        if (m.first == key)
            return &m.second;
    return nullptr;
}

value* value::find(std::string_view key)
{
    return const_cast<value*>(static_cast<const value*>(this)->find(key));
}

const value* value::find_path(std::initializer_list<std::string_view> keys) const
{
    const value* v = this;
    for (auto k : keys) {
        v = v->find(k);
        if (!v)
            return nullptr;
    }
    return v;
}

std::string_view value::string_at(std::string_view key) const
{
    const value* v = find(key);
    return v && v->is_string() ? std::string_view(v->data_.text) : std::string_view();
}

value& value::push_back(value v)
{
    auto& list = items();
    if (list.empty())
        list.reserve(4); // skip the 1 -> 2 -> 4 regrowth moves that dominate building small lists
    list.push_back(std::move(v));
    return list.back();
}

value& value::add(std::string key, value v)
{
    auto& list = members();
    if (list.empty())
        list.reserve(4); // most Kubernetes objects have a handful of keys
    list.emplace_back(std::move(key), std::move(v));
    return list.back().second;
}

value& value::set(std::string key, value v)
{
    if (value* existing = find(key)) {
        const position kp = existing->key_pos_;
        *existing = std::move(v);
        if (!existing->key_pos_.known())
            existing->key_pos_ = kp;
        return *existing;
    }
    return add(std::move(key), std::move(v));
}

bool value::erase(std::string_view key)
{
    if (!is_mapping())
        return false;
    for (auto it = data_.members.begin(); it != data_.members.end(); ++it) {
        if (it->first == key) {
            data_.members.erase(it);
            return true;
        }
    }
    return false;
}

bool operator==(const value& a, const value& b)
{
    if (a.type_ != b.type_)
        return false;
    switch (a.type_) {
    case type::null: return true;
    case type::boolean: return a.scalar_.b == b.scalar_.b;
    case type::integer: return a.scalar_.i == b.scalar_.i;
    case type::number: return a.data_.text == b.data_.text;
    case type::string: return a.data_.text == b.data_.text;
    case type::sequence: return a.data_.items == b.data_.items;
    case type::mapping: return a.data_.members == b.data_.members;
    }
    return false;
}

namespace {

void append_ascii_escaped(std::string& out, unsigned char c)
{
    static constexpr char hex[] = "0123456789abcdef";
    switch (c) {
    case '"': out.append("\\\""); break;
    case '\\': out.append("\\\\"); break;
    case '\n': out.append("\\n"); break;
    case '\r': out.append("\\r"); break;
    case '\t': out.append("\\t"); break;
    case '\b': out.append("\\b"); break; // Go 1.22+ (Karmada's toolchain); \u0008 before
    case '\f': out.append("\\f"); break;
    case '<': out.append("\\u003c"); break;
    case '>': out.append("\\u003e"); break;
    case '&': out.append("\\u0026"); break;
    default:
        if (c < 0x20) {
            out.append("\\u00");
            out.push_back(hex[c >> 4]);
            out.push_back(hex[c & 0xf]);
        } else {
            out.push_back(static_cast<char>(c));
        }
    }
}

// Printable ASCII that Go writes as itself (everything else goes through append_ascii_escaped or the
// UTF-8 path): runs of these are appended at once, which is most of any string. A table, not a chain of
// comparisons: this loop sees every byte lint and serve write.
constexpr std::array<bool, 256> json_plain_bytes = [] {
    std::array<bool, 256> t{};
    for (int c = 0x20; c < 0x80; ++c)
        t[static_cast<std::size_t>(c)] = c != '"' && c != '\\' && c != '<' && c != '>' && c != '&';
    return t;
}();

bool json_plain(unsigned char c)
{
    return json_plain_bytes[c];
}

} // namespace

void append_json_string(std::string& out, std::string_view s)
{
    // As Go's encoding/json: each byte of invalid UTF-8 becomes U+FFFD (the output is always valid
    // JSON, whatever bytes a client sent), and U+2028 / U+2029 are escaped.
    out.push_back('"');
    for (std::size_t i = 0; i < s.size();) {
        std::size_t run = i;
        while (run < s.size() && json_plain(static_cast<unsigned char>(s[run])))
            ++run;
        if (run > i) {
            out.append(s.substr(i, run - i));
            i = run;
            continue;
        }
        const auto c = static_cast<unsigned char>(s[i]);
        if (c < 0x80) {
            append_ascii_escaped(out, c);
            ++i;
            continue;
        }
        const std::size_t len = utf8_sequence_length(s, i);
        if (len == 0) {
            out.append("\\ufffd");
            ++i;
        } else if (len == 3 && c == 0xe2 && s[i + 1] == '\x80' && (s[i + 2] == '\xa8' || s[i + 2] == '\xa9')) {
            out.append(s[i + 2] == '\xa8' ? "\\u2028" : "\\u2029");
            i += 3;
        } else {
            out.append(s.substr(i, len));
            i += len;
        }
    }
    out.push_back('"');
}

void append_json(std::string& out, const value& v)
{
    switch (v.kind()) {
    case type::null: out.append("null"); return;
    case type::boolean: out.append(v.as_bool() ? "true" : "false"); return;
    case type::integer:
    case type::number: out.append(v.text()); return;
    case type::string: append_json_string(out, v.text()); return;
    case type::sequence: {
        out.push_back('[');
        bool first = true;
        for (const auto& item : v.items()) {
            if (!first)
                out.push_back(',');
            first = false;
            append_json(out, item);
        }
        out.push_back(']');
        return;
    }
    case type::mapping: {
        out.push_back('{');
        bool first = true;
        for (const auto& [k, item] : v.members()) {
            if (!first)
                out.push_back(',');
            first = false;
            append_json_string(out, k);
            out.push_back(':');
            append_json(out, item);
        }
        out.push_back('}');
        return;
    }
    }
}

std::string to_json(const value& v)
{
    std::string out;
    append_json(out, v);
    return out;
}

const value* list_items(const value& object)
{
    if (!object.is_mapping())
        return nullptr;
    const value* items = object.find("items");
    return items != nullptr && items->is_sequence() && object.string_at("kind").ends_with("List") ? items : nullptr;
}

} // namespace kpw::doc
