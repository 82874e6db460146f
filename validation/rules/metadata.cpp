// SPDX-License-Identifier: Apache-2.0
// Generic object-metadata checks the API server applies before any webhook (validation-rules §4.2).
#include <cctype>

#include "doc/value.hpp"
#include "rules/label_key.hpp"
#include "rules/rules.hpp"

namespace kpw::rules {
namespace {

// apimachinery TotalAnnotationSizeLimitB: keys and values together.
constexpr std::size_t annotations_size_limit = 256 * 1024;

void validate_name(const model::object_meta& meta, const field::path& at, field::error_list& errs)
{
    if (meta.name.empty()) {
        // generateName lets the server pick the name (kubectl create); the generated name is valid.
        if (meta.generate_name.empty())
            errs.push_back(field::required(at, "name or generateName is required"));
        return;
    }
    for (auto& msg : dns1123_subdomain_errors(meta.name))
        errs.push_back(field::invalid(at, field::go_quote(meta.name), std::move(msg)));
}

// ValidateLabels: errors are reported at metadata.labels itself, the key or value as the bad value.
void validate_labels(const model::object_meta& meta, const field::path& at, field::error_list& errs)
{
    for (const auto& [key, value] : meta.labels) {
        validate_label_key(key, at, errs);
        for (auto& msg : label_value_errors(value))
            errs.push_back(field::invalid(at, field::go_quote(value), std::move(msg)));
    }
}

// ValidateAnnotations: keys are qualified names in any case (checked lowercased), and all keys and
// values together stay within 256 KiB.
void validate_annotations(const model::object_meta& meta, const field::path& at, field::error_list& errs)
{
    std::size_t total = 0;
    for (const auto& [key, value] : meta.annotations) {
        std::string lower = key;
        for (char& c : lower)
            c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        for (auto& msg : qualified_name_errors(lower))
            errs.push_back(field::invalid(at, field::go_quote(key), std::move(msg)));
        total += key.size() + value.size();
    }
    if (total > annotations_size_limit)
        errs.push_back(field::too_long(at, annotations_size_limit));
}

// ValidateFinalizers: each a qualified name; "orphan" and "foregroundDeletion" exclude each other.
void validate_finalizers(const model::object_meta& meta, const field::path& at, field::error_list& errs)
{
    bool orphan = false;
    bool foreground = false;
    for (const auto& f : meta.finalizers) {
        for (auto& msg : qualified_name_errors(f))
            errs.push_back(field::invalid(at, field::go_quote(f), std::move(msg)));
        orphan = orphan || f == "orphan";
        foreground = foreground || f == "foregroundDeletion";
    }
    if (orphan && foreground) {
        doc::value list = doc::value::sequence(); // rendered as JSON, as apimachinery renders a list
        for (const auto& f : meta.finalizers)
            list.push_back(doc::value::string(f));
        errs.push_back(field::invalid(at, doc::to_json(list), "finalizer orphan and foregroundDeletion cannot be both set"));
    }
}

} // namespace

void validate_object_meta(const model::object_meta& meta, field::error_list& errs)
{
    const field::path at = field::path::root("metadata");
    validate_name(meta, at.child("name"), errs);
    validate_labels(meta, at.child("labels"), errs);
    validate_annotations(meta, at.child("annotations"), errs);
    validate_finalizers(meta, at.child("finalizers"), errs);
}

} // namespace kpw::rules
