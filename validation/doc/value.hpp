// SPDX-License-Identifier: Apache-2.0
// doc::value: the neutral document tree that YAML and JSON both load into, with source positions.
#pragma once

#include <cstdint>
#include <new>
#include <optional>
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

    value() noexcept {}
    value(const value& other);
    value(value&& other) noexcept
        : type_(other.type_), scalar_(other.scalar_), pos_(other.pos_), key_pos_(other.key_pos_)
    {
        take(std::move(other));
    }
    value& operator=(const value& other);
    value& operator=(value&& other) noexcept;
    ~value() { destroy(); }

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

    // false / 0 for nodes of another kind.
    bool as_bool() const { return type_ == type::boolean && scalar_.b; }
    std::int64_t as_int() const { return type_ == type::integer ? scalar_.i : 0; }
    double as_double() const;
    // The string of a string node, or the source text of a number; "" for other kinds.
    const std::string& text() const { return has_text() ? data_.text : empty_text(); }

    // Empty for nodes of another kind; the mutable forms of a node of another kind hand out a
    // scratch vector whose contents are dropped (as before, they never reached find() or to_json).
    const std::vector<value>& items() const { return is_sequence() ? data_.items : empty_items(); }
    std::vector<value>& items();
    const std::vector<member>& members() const { return is_mapping() ? data_.members : empty_members(); }
    std::vector<member>& members();

    // Mapping lookup (first match); nullptr when absent or when this is not a mapping.
    const value* find(std::string_view key) const;
    value* find(std::string_view key);
    // Null-safe chained lookup: find("spec") then ("placement")...; nullptr at the first miss.
    const value* find_path(std::initializer_list<std::string_view> keys) const;
    // A string member or "" when absent / not a string.
    std::string_view string_at(std::string_view key) const;

    // Makes this node the string `s`, in place: what a loader calls for each scalar of a document,
    // where building a temporary node and moving it in cost two string moves and two destructors.
    void assign_string(std::string_view s)
    {
        destroy();
        new (&data_.text) std::string(s);
        type_ = type::string;
    }

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
    // One node is one of these at a time, so they share storage: a value is 64 bytes instead of
    // 120, which made building, moving and freeing the tree of every admission review cheaper.
    union scalar {
        bool b;
        std::int64_t i;
        double d;
    };
    union storage {
        storage() noexcept {}
        ~storage() {}
        std::string text;            // string, integer, number
        std::vector<value> items;    // sequence
        std::vector<member> members; // mapping
    };

    bool has_text() const { return type_ >= type::integer && type_ <= type::string; }
    static const std::string& empty_text();
    static const std::vector<value>& empty_items();
    static const std::vector<member>& empty_members();
    // Starts the lifetime of the storage member for `t` (empty); the current one must be inactive.
    void start(type t);
    // Takes over other's storage; this node has other's kind and no live storage yet.
    void take(value&& other) noexcept
    {
        // The moved-from node keeps its kind with an empty string / container, as before.
        if (has_text())
            new (&data_.text) std::string(std::move(other.data_.text));
        else if (type_ == type::sequence)
            new (&data_.items) std::vector<value>(std::move(other.data_.items));
        else if (type_ == type::mapping)
            new (&data_.members) std::vector<member>(std::move(other.data_.members));
    }
    void destroy() noexcept
    {
        if (has_text())
            data_.text.~basic_string();
        else if (type_ == type::sequence)
            data_.items.~vector();
        else if (type_ == type::mapping)
            data_.members.~vector();
        type_ = type::null;
    }

    type type_ = type::null;
    scalar scalar_{};
    storage data_;
    position pos_;
    position key_pos_;
};

inline value& value::operator=(value&& other) noexcept
{
    if (this == &other)
        return *this;
    if (type_ > type::boolean) {
        // `other` may live inside this node (v = std::move(v.items()[0])): move it out before freeing.
        value held(std::move(other));
        destroy();
        return *this = std::move(held);
    }
    type_ = other.type_;
    scalar_ = other.scalar_;
    pos_ = other.pos_;
    key_pos_ = other.key_pos_;
    take(std::move(other));
    return *this;
}

// The items of a Kubernetes List: an object with a sequence of items, whatever its kind, as kubectl's
// reader decodes one (apimachinery unstructuredJSONScheme); nullptr for any other value. The readers take
// a List's items as if each were a document.
const value* list_items(const value& object);

// The same content as JSON sees it: operator== with a mapping's members in any order (kubectl records
// an applied object as JSON, whose object keys have no order).
bool same_content(const value& a, const value& b);

// Compact JSON in document order (keys as stored), Go-style escaping of <, > and &.
std::string to_json(const value& v);
void append_json(std::string& out, const value& v);
// A JSON string literal with Go encoding/json escaping.
void append_json_string(std::string& out, std::string_view s);

// The JSON text Go's encoding/json writes for a float64 (floatEncoder): the shortest digits that read back
// as `d`, in %f form for 1e-6 <= |d| < 1e21, else %e without a leading exponent zero. kubectl reads a YAML
// manifest into an unstructured object (a number that is no int64 becomes a float64) and sends it so: a
// YAML number's text is this (1e1 is 10, 9223372036854775808 is 9223372036854776000), and it is what the
// API server's decoding errors quote. A JSON document keeps its literal (an AdmissionReview's body reaches
// Go's decoder as written).
std::string go_float_text(double d);

// A number as Go's encoding/json takes it into an integer field, which parses the number's text: an int64,
// or a number whose text is a whole literal (a YAML 1e1's text is go_float_text's 10); nullopt for any other
// text or beyond int64.
std::optional<std::int64_t> json_int64(const value& v);

} // namespace kpw::doc
