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

// ValidateObjectMetaAccessor with NameIsDNSSubdomain: generateName (its trailing '-' masked, as a suffix
// follows it), then the name. Without a name, generateName lets the server pick one (kubectl create);
// a bad prefix is already reported at generateName.
void validate_names(const model::object_meta& meta, const field::path& at, field::error_list& errs)
{
    if (!meta.generate_name.empty()) {
        std::string prefix = meta.generate_name;
        if (prefix.size() > 1 && prefix.back() == '-')
            prefix.back() = 'a'; // maskTrailingDash
        for (auto& msg : object_name_errors(prefix))
            errs.push_back(field::invalid(at.child("generateName"), field::go_quote(meta.generate_name), std::move(msg)));
    }
    const field::path name = at.child("name");
    if (meta.name.empty()) {
        if (meta.generate_name.empty())
            errs.push_back(field::required(name, "name or generateName is required"));
        return;
    }
    for (auto& msg : object_name_errors(meta.name))
        errs.push_back(field::invalid(name, field::go_quote(meta.name), std::move(msg)));
}

// A namespaced object's namespace (ValidateNamespaceName). An empty one is kubectl's context namespace
// by the time the request is made; a cluster-scoped object's is cleared by the API server (BeforeCreate).
void validate_namespace(const model::object_meta& meta, const field::path& at, field::error_list& errs)
{
    for (auto& msg : namespace_name_errors(meta.ns))
        errs.push_back(field::invalid(at, field::go_quote(meta.ns), std::move(msg)));
}

// Positions the errors from `first` on at `where` (its key with `at_key`).
void locate_from(field::error_list& errs, std::size_t first, const field::path& where, bool at_key)
{
    for (std::size_t k = first; k < errs.size(); ++k)
        errs[k] = field::located(std::move(errs[k]), where, at_key);
}

// ValidateLabels: errors are reported at metadata.labels itself, the key or value as the bad value;
// positioned at that key or value.
void validate_labels(const model::object_meta& meta, const field::path& at, qualified_name_wording wording,
                     field::error_list& errs)
{
    for (const auto& [key, value] : meta.labels) {
        std::size_t first = errs.size();
        validate_label_key(key, at, errs, wording);
        locate_from(errs, first, at.key(key), true);
        first = errs.size();
        for (auto& msg : label_value_errors(value, wording))
            errs.push_back(field::invalid(at, field::go_quote(value), std::move(msg)));
        locate_from(errs, first, at.key(key), false);
    }
}

// ValidateAnnotations: keys are qualified names in any case (checked lowercased), and all keys and
// values together stay within 256 KiB.
void validate_annotations(const model::object_meta& meta, const field::path& at, qualified_name_wording wording,
                          field::error_list& errs)
{
    std::size_t total = 0;
    for (const auto& [key, value] : meta.annotations) {
        std::string lower = key;
        for (char& c : lower)
            c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        for (auto& msg : qualified_name_errors(lower, wording))
            errs.push_back(field::located(field::invalid(at, field::go_quote(key), std::move(msg)), at.key(key), true));
        total += key.size() + value.size();
    }
    if (total > annotations_size_limit)
        errs.push_back(field::too_long(at, annotations_size_limit));
}

// ValidateFinalizers: each a qualified name; "orphan" and "foregroundDeletion" exclude each other.
void validate_finalizers(const model::object_meta& meta, const field::path& at, qualified_name_wording wording,
                         field::error_list& errs)
{
    bool orphan = false;
    bool foreground = false;
    std::size_t second = 0; // the entry that completed the conflicting pair
    for (std::size_t i = 0; i < meta.finalizers.size(); ++i) {
        const auto& f = meta.finalizers[i];
        for (auto& msg : qualified_name_errors(f, wording))
            errs.push_back(field::located(field::invalid(at, field::go_quote(f), std::move(msg)), at.index(i)));
        const bool had_both = orphan && foreground;
        orphan = orphan || f == "orphan";
        foreground = foreground || f == "foregroundDeletion";
        if (!had_both && orphan && foreground)
            second = i;
    }
    if (orphan && foreground) {
        doc::value list = doc::value::sequence(); // rendered as JSON, as apimachinery renders a list
        for (const auto& f : meta.finalizers)
            list.push_back(doc::value::string(f));
        errs.push_back(field::located(
            field::invalid(at, doc::to_json(list), "finalizer orphan and foregroundDeletion cannot be both set"),
            at.index(second)));
    }
}

} // namespace

void validate_object_meta(const model::object_meta& meta, bool namespaced, field::error_list& errs,
                          settings::karmada_release release)
{
    const field::path at = field::path::root("metadata");
    const qualified_name_wording wording = name_wording(release);
    validate_names(meta, at, errs);
    if (namespaced && !meta.ns.empty())
        validate_namespace(meta, at.child("namespace"), errs);
    validate_labels(meta, at.child("labels"), wording, errs);
    validate_annotations(meta, at.child("annotations"), wording, errs);
    validate_finalizers(meta, at.child("finalizers"), wording, errs);
}

} // namespace kpw::rules
