// SPDX-License-Identifier: Apache-2.0
// Checks a document against the compiled CRD schema, with kube-apiserver's messages (rules §4.1).
#include "schema/schema.hpp"

#include <algorithm>

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

} // namespace

void check(const node& schema, const doc::value& v, const field::path& at, field::error_list& errors,
           field::warning_list& warnings)
{
    checker c{errors, warnings};
    c.value(schema, v, at);
}

} // namespace kpw::schema
