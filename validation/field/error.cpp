// SPDX-License-Identifier: Apache-2.0
#include "field/error.hpp"

#include <unordered_set>

namespace kpw::field {

std::string_view wire_name(reason r)
{
    switch (r) {
    case reason::required: return "FieldValueRequired";
    case reason::invalid: return "FieldValueInvalid";
    case reason::not_supported: return "FieldValueNotSupported";
    case reason::forbidden: return "FieldValueForbidden";
    case reason::duplicate: return "FieldValueDuplicate";
    case reason::too_long: return "FieldValueTooLong";
    case reason::too_many: return "FieldValueTooMany";
    case reason::type_invalid: return "FieldValueTypeInvalid";
    case reason::internal: return "InternalError";
    }
    return "FieldValueInvalid";
}

// karmada vendors apimachinery field/errors.go ErrorBody: label, then value, then detail.
std::string error::body() const
{
    std::string s;
    auto with_detail = [&] {
        if (!detail.empty())
            s.append(": ").append(detail);
    };
    switch (type) {
    case reason::required: s = "Required value"; with_detail(); break;
    case reason::forbidden: s = "Forbidden"; with_detail(); break;
    case reason::too_long: s = "Too long"; with_detail(); break;
    case reason::internal: s = "Internal error"; with_detail(); break;
    case reason::duplicate: s = "Duplicate value: " + bad_value; break;
    case reason::not_supported: s = "Unsupported value: " + bad_value; with_detail(); break;
    case reason::too_many: s = "Too many: " + bad_value; with_detail(); break;
    case reason::invalid:
    case reason::type_invalid: s = "Invalid value: " + bad_value; with_detail(); break;
    }
    return s;
}

std::string error::str() const
{
    if (field.empty())
        return body();
    return field + ": " + body();
}

error required(const path& p, std::string detail) { return {reason::required, p.str(), {}, std::move(detail)}; }

error invalid(const path& p, std::string rendered_value, std::string detail)
{
    return {reason::invalid, p.str(), std::move(rendered_value), std::move(detail)};
}

template <class Range>
static error make_not_supported(const path& p, std::string rendered_value, const Range& valid)
{
    std::string detail = "supported values: ";
    bool first = true;
    for (const auto& v : valid) {
        if (!first)
            detail.append(", ");
        first = false;
        detail.append(go_quote(v));
    }
    return {reason::not_supported, p.str(), std::move(rendered_value), std::move(detail)};
}

error not_supported(const path& p, std::string rendered_value, std::initializer_list<std::string_view> valid)
{
    return make_not_supported(p, std::move(rendered_value), valid);
}

error not_supported(const path& p, std::string rendered_value, const std::vector<std::string>& valid)
{
    return make_not_supported(p, std::move(rendered_value), valid);
}

error too_long(const path& p, std::size_t max_bytes)
{
    return {reason::too_long, p.str(), {}, "may not be more than " + std::to_string(max_bytes) + " bytes"};
}

error type_invalid(const path& p, std::string rendered_value, std::string detail)
{
    return {reason::type_invalid, p.str(), std::move(rendered_value), std::move(detail)};
}

error forbidden(const path& p, std::string detail) { return {reason::forbidden, p.str(), {}, std::move(detail)}; }

error internal(const path& p, std::string detail) { return {reason::internal, p.str(), {}, std::move(detail)}; }

error located(error e, const path& where, bool at_key)
{
    e.locate_at = where.str();
    e.locate_key = at_key;
    return e;
}

std::string aggregate(const error_list& errors)
{
    std::vector<std::string> kept;
    std::unordered_set<std::string> seen;
    for (const auto& e : errors) {
        std::string s = e.str();
        if (seen.insert(s).second)
            kept.push_back(std::move(s));
    }
    if (kept.size() == 1)
        return kept.front();
    std::string out;
    if (kept.empty())
        return out;
    out.push_back('[');
    for (std::size_t i = 0; i < kept.size(); ++i) {
        if (i)
            out.append(", ");
        out.append(kept[i]);
    }
    out.push_back(']');
    return out;
}

std::string warning::str() const { return field.empty() ? message : field + ": " + message; }

std::string go_int(std::int64_t v) { return std::to_string(v); }

} // namespace kpw::field
