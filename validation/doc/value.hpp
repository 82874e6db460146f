// SPDX-License-Identifier: Apache-2.0
// doc::value: the neutral document tree that YAML and JSON both load into, with source positions.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "base/result.hpp"

namespace kpw::doc {

enum class type { null, boolean, integer, number, string, sequence, mapping };

std::string_view type_name(type t); // "null", "boolean", "integer", "number", "string", "array", "object"

class value {
public:
    using member = std::pair<std::string, value>;

    value() = default;
    static value null_value(position at = {});
    static value boolean(bool b, position at = {});
    static value integer(std::int64_t i, position at = {});
    // A number that is not an int64 (fraction, exponent or out of range); keeps the source text.
    static value number(double d, std::string text, position at = {});
    static value string(std::string s, position at = {});
    static value sequence(position at = {});
    static value mapping(position at = {});

    type kind() const { return type_; }
    bool is_null() const { return type_ == type::null; }
    bool is_bool() const { return type_ == type::boolean; }
    bool is_int() const { return type_ == type::integer; }
    bool is_number() const { return type_ == type::number || type_ == type::integer; }
    bool is_string() const { return type_ == type::string; }
    bool is_sequence() const { return type_ == type::sequence; }
    bool is_mapping() const { return type_ == type::mapping; }

    bool as_bool() const { return bool_; }
    std::int64_t as_int() const { return int_; }
    double as_double() const { return type_ == type::integer ? static_cast<double>(int_) : double_; }
    // The string of a string node, or the source text of a number.
    const std::string& text() const { return text_; }

    const std::vector<value>& items() const { return items_; }
    std::vector<value>& items() { return items_; }
    const std::vector<member>& members() const { return members_; }
    std::vector<member>& members() { return members_; }

    // Mapping lookup (first match); nullptr when absent or when this is not a mapping.
    const value* find(std::string_view key) const;
    value* find(std::string_view key);
    // Null-safe chained lookup: find("spec") then ("placement")...; nullptr at the first miss.
    const value* find_path(std::initializer_list<std::string_view> keys) const;
    // A string member or "" when absent / not a string.
    std::string_view string_at(std::string_view key) const;

    value& push_back(value v);
    // Appends a member (no duplicate check: loaders reject duplicates themselves).
    value& add(std::string key, value v);
    // Replaces an existing member or appends one.
    value& set(std::string key, value v);
    bool erase(std::string_view key);

    // Where the node starts; for a mapping member, where its key starts (set by the loader).
    position pos() const { return pos_; }
    position key_pos() const { return key_pos_.known() ? key_pos_ : pos_; }
    void set_pos(position p) { pos_ = p; }
    void set_key_pos(position p) { key_pos_ = p; }

    friend bool operator==(const value& a, const value& b); // structural, ignores positions

private:
    type type_ = type::null;
    bool bool_ = false;
    std::int64_t int_ = 0;
    double double_ = 0;
    std::string text_;
    std::vector<value> items_;
    std::vector<member> members_;
    position pos_;
    position key_pos_;
};

// Compact JSON in document order (keys as stored), Go-style escaping of <, > and &.
std::string to_json(const value& v);
void append_json(std::string& out, const value& v);
// A JSON string literal with Go encoding/json escaping.
void append_json_string(std::string& out, std::string_view s);

} // namespace kpw::doc
