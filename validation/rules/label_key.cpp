// SPDX-License-Identifier: Apache-2.0
// Hand-written matchers for apimachinery's name regexes (no std::regex: this runs per field, per document).
#include "rules/label_key.hpp"

namespace kpw::rules {
namespace {

constexpr std::string_view qualified_name_regex_msg =
    "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric "
    "character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is "
    "'([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";

constexpr std::string_view dns1123_subdomain_msg =
    "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must "
    "start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is "
    "'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";

constexpr std::string_view dns1123_label_msg =
    "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and "
    "end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is "
    "'[a-z0-9]([-a-z0-9]*[a-z0-9])?')";

constexpr std::string_view label_value_regex_msg =
    "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must "
    "start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for "
    "validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";

constexpr std::size_t qualified_name_max = 63;
constexpr std::size_t label_value_max = 63;
constexpr std::size_t dns1123_subdomain_max = 253;
constexpr std::size_t dns1123_label_max = 63;

// apimachinery has two spellings of its length message: pkg/api/validate/content (label keys, label
// values, a key's DNS prefix) says "bytes", pkg/util/validation (object names and namespaces) says
// "characters" (apimachinery v0.35.3 content/errors.go:34, util/validation/validation.go:425).
std::string max_len_bytes(std::size_t n) { return "must be no more than " + std::to_string(n) + " bytes"; }
std::string max_len_characters(std::size_t n) { return "must be no more than " + std::to_string(n) + " characters"; }

bool is_alnum(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'); }
bool is_lower_alnum(char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); }

// ^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$
bool matches_qualified_name(std::string_view s)
{
    if (s.empty() || !is_alnum(s.front()) || !is_alnum(s.back()))
        return false;
    for (char c : s)
        if (!is_alnum(c) && c != '-' && c != '_' && c != '.')
            return false;
    return true;
}

// One DNS-1123 label: [a-z0-9]([-a-z0-9]*[a-z0-9])?
bool matches_dns1123_label(std::string_view s)
{
    if (s.empty() || !is_lower_alnum(s.front()) || !is_lower_alnum(s.back()))
        return false;
    for (char c : s)
        if (!is_lower_alnum(c) && c != '-')
            return false;
    return true;
}

bool matches_dns1123_subdomain(std::string_view s)
{
    for (;;) {
        const auto dot = s.find('.');
        if (!matches_dns1123_label(s.substr(0, dot)))
            return false;
        if (dot == std::string_view::npos)
            return true;
        s.remove_prefix(dot + 1);
    }
}

} // namespace

namespace {

// IsDNS1123Subdomain of either package; `max_len` words the length message.
std::vector<std::string> subdomain_errors(std::string_view value, std::string (*max_len)(std::size_t))
{
    std::vector<std::string> errs;
    if (value.size() > dns1123_subdomain_max)
        errs.push_back(max_len(dns1123_subdomain_max));
    if (!matches_dns1123_subdomain(value))
        errs.emplace_back(dns1123_subdomain_msg);
    return errs;
}

} // namespace

std::vector<std::string> dns1123_subdomain_errors(std::string_view value)
{
    return subdomain_errors(value, max_len_bytes);
}

std::vector<std::string> object_name_errors(std::string_view value)
{
    return subdomain_errors(value, max_len_characters);
}

std::vector<std::string> namespace_name_errors(std::string_view value)
{
    std::vector<std::string> errs;
    if (value.size() > dns1123_label_max)
        errs.push_back(max_len_characters(dns1123_label_max));
    if (!matches_dns1123_label(value)) {
        // Already too long or not: a valid subdomain that is no label can only hold dots.
        if (matches_dns1123_subdomain(value))
            errs.emplace_back("must not contain dots");
        else
            errs.emplace_back(dns1123_label_msg);
    }
    return errs;
}

qualified_name_wording name_wording(settings::karmada_release release)
{
    return settings::has(release, settings::changes::apimachinery_name_wording)
               ? qualified_name_wording::label_key
               : qualified_name_wording::v0_34_qualified_name;
}

std::vector<std::string> label_value_errors(std::string_view value, qualified_name_wording wording)
{
    std::vector<std::string> errs;
    if (value.size() > label_value_max)
        errs.push_back(wording == qualified_name_wording::label_key ? max_len_bytes(label_value_max)
                                                                     : max_len_characters(label_value_max));
    if (!value.empty() && !matches_qualified_name(value)) // ^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$
        errs.emplace_back(label_value_regex_msg);
    return errs;
}

std::vector<std::string> qualified_name_errors(std::string_view value, qualified_name_wording wording)
{
    const bool v0_34 = wording == qualified_name_wording::v0_34_qualified_name;
    auto* max_len = v0_34 ? max_len_characters : max_len_bytes;
    std::vector<std::string> errs;
    std::string_view name = value;
    const auto slash = value.find('/');
    if (slash != std::string_view::npos) {
        if (value.find('/', slash + 1) != std::string_view::npos) {
            errs.push_back((v0_34 ? "a qualified name " : "a valid label key ") + std::string(qualified_name_regex_msg) +
                           " with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')");
            return errs;
        }
        const std::string_view prefix = value.substr(0, slash);
        name = value.substr(slash + 1);
        if (prefix.empty())
            errs.emplace_back("prefix part must be non-empty");
        else
            for (auto& m : subdomain_errors(prefix, max_len))
                errs.push_back("prefix part " + m);
    }
    if (name.empty())
        errs.emplace_back("name part must be non-empty");
    else if (name.size() > qualified_name_max)
        errs.push_back("name part " + max_len(qualified_name_max));
    if (!matches_qualified_name(name))
        errs.push_back("name part " + std::string(qualified_name_regex_msg));
    return errs;
}

void validate_label_key(std::string_view value, const field::path& at, field::error_list& errs,
                        qualified_name_wording wording)
{
    for (auto& msg : qualified_name_errors(value, wording))
        errs.push_back(field::invalid(at, field::go_quote(value), std::move(msg)));
}

} // namespace kpw::rules
