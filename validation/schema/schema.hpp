// SPDX-License-Identifier: Apache-2.0
// The CRDs' structural schema, compiled once from the embedded JSON: defaulting and checks (rules §3.1, §4.1).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "doc/value.hpp"
#include "field/error.hpp"
#include "settings/karmada_release.hpp"

namespace kpw::schema {

// One OpenAPI v3 schema node, reduced to the keywords the Karmada CRDs use.
struct node {
    std::string type; // "object", "array", "string", "integer", "boolean", "number" or "" (any)
    // Properties as parallel lists (a vector of pairs holding the still-incomplete node does not
    // compile with clang + libstdc++): property_schemas[i] is the schema of property_names[i].
    std::vector<std::string> property_names;
    std::vector<node> property_schemas;
    std::vector<node> items;      // 0 or 1 element: the array's item schema
    std::vector<node> additional; // 0 or 1 element: additionalProperties schema
    std::vector<std::string> required;
    std::vector<std::string> enumeration; // string enums only (all the CRDs have)
    std::optional<doc::value> default_value;
    std::optional<std::int64_t> min_length, max_length, min_items, minimum;
    // Objects declared without properties (metadata) are opaque: neither checked nor pruned.
    bool opaque() const { return type == "object" && property_names.empty() && additional.empty(); }
    const node* property(std::string_view name) const;
};

// The raw embedded JSON text (generated at build time by embed_schema.py): {release: {kind: CRD}}.
std::string_view embedded_crd_schema();
// The built-in kinds' Go types (kubernetes-types.json, written by tests/conformance/cmd/gotypes).
std::string_view embedded_kubernetes_types();

// The schema of a kind ("PropagationPolicy" / "ClusterPropagationPolicy") in a Karmada release's CRD,
// compiled on first use. nullptr for an unknown kind.
const node* crd_schema(std::string_view kind, settings::karmada_release release = settings::newest_karmada_release);

// The one apiVersion the kind's CRD serves ("policy.karmada.io/v1alpha1", the same in every supported
// release), from the same embedded CRD data; "" for an unknown kind.
std::string_view crd_api_version(std::string_view kind);

// Structural defaulting as kube-apiserver does it on decode: null members of non-nullable fields are
// dropped, then every absent property with a default is filled in, but only inside objects that are
// present (rules §3.1). Descends into arrays and maps; leaves mistyped values alone.
void apply_defaults(const node& schema, doc::value& v);

// Validates `v` against `schema` the way the apiserver reports it (rules §4.1): type, required,
// enum, minLength/maxLength, minItems, minimum. Unknown fields become `unknown-field` warnings
// (fieldValidation=Warn; unknown_fields below gives what Strict refuses).
void check(const node& schema, const doc::value& v, const field::path& at, field::error_list& errors,
           field::warning_list& warnings);

// kubectl's --validate, sent as the fieldValidation query parameter: what the API server does with a
// field the CRD does not define. Strict (kubectl's default since 1.27) refuses the object, Warn
// accepts it and returns a warning, Ignore drops the field silently.
enum class field_validation { strict, warn, ignore };

// "strict" / "warn" / "ignore" (kubectl's flag values); nullopt for anything else.
std::optional<field_validation> parse_field_validation(std::string_view name);

// A field the API server's strict decoding reports.
struct unknown_field {
    field::path at;       // our rendering, for positions (map keys as [key])
    std::string api_path; // the API server's: keys joined by '.', indices as [i]
};

// The unknown fields of a manifest as `kubectl apply` sends it, in the API server's order: first
// metadata's (ObjectMeta decoded strictly, keys in sorted order), then the schema's pruned fields
// sorted as strings (apiextensions-apiserver customresource_handler.go schemaCoercingDecoder).
// Members whose value is null are not sent (kubectl >= 1.31 prunes nulls on create) and do not count.
std::vector<unknown_field> unknown_fields(const node& schema, const doc::value& object);

// Removes what unknown_fields reports, as the API server's pruning does before any webhook sees the
// object (fieldValidation Warn and Ignore; Strict refuses it instead).
void prune_unknown_fields(const node& schema, doc::value& object);

// The BadRequest message the API server answers with (apiserver handlers/rest.go transformDecodeError
// around apimachinery's strictDecodingError): `<kind> in version "<version>" cannot be handled as a
// <kind>: strict decoding error: unknown field "a", unknown field "b"`. `version` without the group.
std::string strict_decoding_message(std::string_view kind, std::string_view version,
                                    const std::vector<unknown_field>& fields);

// Any decode error the API server turns into that BadRequest: `<kind> in version "<version>" cannot be
// handled as a <kind>: <cause>` (a strict decoding error, or encoding/json's type error in metadata).
std::string decode_error_message(std::string_view kind, std::string_view version, std::string_view cause);

} // namespace kpw::schema
