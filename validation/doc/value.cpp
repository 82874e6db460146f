// SPDX-License-Identifier: Apache-2.0
// The neutral document tree: construction, lookup, edits, equality (its JSON text: json_write.cpp).
#include "doc/value.hpp"

#include <charconv>
#include <string>
#include <cmath>

#include <cstdio>

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

bool same_content(const value& a, const value& b)
{
    if (a.is_mapping() && b.is_mapping()) {
        if (a.members().size() != b.members().size())
            return false;
        for (const auto& [key, v] : a.members()) {
            const value* other = b.find(key);
            if (!other || !same_content(v, *other))
                return false;
        }
        return true;
    }
    if (a.is_sequence() && b.is_sequence()) {
        if (a.items().size() != b.items().size())
            return false;
        for (std::size_t i = 0; i < a.items().size(); ++i)
            if (!same_content(a.items()[i], b.items()[i]))
                return false;
        return true;
    }
    return a == b;
}

const value* list_items(const value& object)
{
    if (!object.is_mapping())
        return nullptr;
    const value* items = object.find("items");
    return items != nullptr && items->is_sequence() ? items : nullptr;
}

std::optional<std::int64_t> json_int64(const value& v)
{
    if (v.is_int())
        return v.as_int();
    if (!v.is_number())
        return std::nullopt;
    const std::string& t = v.text();
    std::int64_t n = 0;
    auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), n);
    if (ec != std::errc() || end != t.data() + t.size())
        return std::nullopt;
    return n;
}

std::string go_float_text(double d)
{
    if (!std::isfinite(d))
        return std::to_string(d);
    // The shortest round-trip digits come from to_chars' scientific form ("1.2345678901234567e+19");
    // Go writes them in %f form itself, padding with zeros (its fixed form is not the exact expansion).
    char buf[64];
    auto [end, ec] = std::to_chars(buf, buf + sizeof buf, d, std::chars_format::scientific);
    if (ec != std::errc())
        return std::to_string(d);
    std::string_view sci(buf, static_cast<std::size_t>(end - buf));
    const std::size_t e = sci.find('e');
    const bool negative = d < 0;
    std::string digits;
    for (char c : sci.substr(0, e))
        if (c >= '0' && c <= '9')
            digits.push_back(c);
    int exp = 0;
    std::from_chars(sci.data() + e + 1 + (sci[e + 1] == '+'), sci.data() + sci.size(), exp);
    const double a = std::fabs(d);
    std::string out(negative ? 1 : 0, '-'); // appended: GCC 12 warns falsely (-Wrestrict) on operator+
    if (a != 0 && (a < 1e-6 || a >= 1e21)) { // %e: mantissa, then e-7 / e+21 (no leading zero)
        out.push_back(digits[0]);
        if (digits.size() > 1)
            out.append(".").append(digits, 1);
        return out.append(exp < 0 ? "e-" : "e+").append(std::to_string(exp < 0 ? -exp : exp));
    }
    if (d == 0)
        return out.append("0");
    const int n = static_cast<int>(digits.size());
    if (exp >= n - 1)
        return out.append(digits).append(static_cast<std::size_t>(exp - (n - 1)), '0');
    if (exp >= 0)
        return out.append(digits, 0, static_cast<std::size_t>(exp + 1)).append(".").append(digits, static_cast<std::size_t>(exp + 1));
    return out.append("0.").append(static_cast<std::size_t>(-exp - 1), '0').append(digits);
}

} // namespace kpw::doc
