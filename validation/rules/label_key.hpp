// SPDX-License-Identifier: Apache-2.0
// apimachinery's name checks Karmada reuses: qualified names (label keys) and DNS-1123 subdomains.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "field/error.hpp"
#include "settings/karmada_release.hpp"

namespace kpw::rules {

// apimachinery's two spellings of the qualified-name check: content.IsLabelKey (util/validation's
// IsQualifiedName is an alias of it from k8s v0.35.0: Karmada v1.17 and later) and v0.34's own
// util/validation.IsQualifiedName (Karmada v1.16), which says "a qualified name" where the other says "a
// valid label key" and counts lengths in characters where the other counts bytes.
enum class qualified_name_wording { label_key, v0_34_qualified_name };

// The wording of a release's apimachinery (settings::changes::apimachinery_name_wording).
qualified_name_wording name_wording(settings::karmada_release release);

// validation.IsQualifiedName: every failed sub-check's message, in apimachinery's order (rules §5).
std::vector<std::string> qualified_name_errors(std::string_view value,
                                               qualified_name_wording wording = qualified_name_wording::label_key);

// validation.IsValidLabelValue: at most 63 bytes, and empty or a qualified-name-like token.
std::vector<std::string> label_value_errors(std::string_view value,
                                            qualified_name_wording wording = qualified_name_wording::label_key);

// content.IsDNS1123Subdomain (a label key's prefix): the length message ("bytes") and/or the regex message.
std::vector<std::string> dns1123_subdomain_errors(std::string_view value);

// NameIsDNSSubdomain, the check of metadata.name (util/validation.IsDNS1123Subdomain): the same checks,
// its length message says "characters" (rules §4.2).
std::vector<std::string> object_name_errors(std::string_view value);

// ValidateNamespaceName (util/validation.IsDNS1123Label): at most 63 characters, "must not contain dots"
// for a subdomain, else the RFC 1123 label message.
std::vector<std::string> namespace_name_errors(std::string_view value);

// karmada: metav1validation.ValidateLabelName as used for affinity names, groupByLabelKey and
// aliasLabelName: one FieldValueInvalid per message, the value Go-quoted.
void validate_label_key(std::string_view value, const field::path& at, field::error_list& errs,
                        qualified_name_wording wording = qualified_name_wording::label_key);

} // namespace kpw::rules
