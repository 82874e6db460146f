// SPDX-License-Identifier: Apache-2.0
// metadata decoded into ObjectMeta as kubectl or the API server decodes it: Go's errors, in Go's words.
#pragma once

#include <optional>
#include <string>

#include "doc/value.hpp"
#include "field/path.hpp"

namespace kpw::schema {

struct object_meta_type_error {
    field::path at;      // the value a person edits: metadata.labels.team, metadata.finalizers[1]
    std::string message; // "json: cannot unmarshal number into Go struct field ObjectMeta.metadata.labels of type string"
};

// Who decodes a document's metadata into ObjectMeta first; the reader decides the checks and the words.
enum class meta_reader {
    // kubectl's reader, on every document it reads (cli-runtime pkg/resource/metadata_decoder.go): the
    // document as JSON, keys sorted by the YAML-to-JSON conversion, decoded into {TypeMeta; ObjectMeta
    // `json:"metadata"`}. Every ObjectMeta field counts, owner references, managed fields and RFC 3339
    // timestamps included. An error refuses the file ("unable to decode") and nothing is sent.
    kubectl,
    // kube-apiserver, on what kubectl did not check (the items of a List): metadata alone decoded into
    // ObjectMeta (schemaobjectmeta.GetObjectMetaWithOptions); its string, integer, string-map and
    // string-list fields. An error is the API server's 400.
    api_server,
};

// encoding/json's UnmarshalTypeError.Value for a JSON value that does not fit its Go field: its JSON type,
// and for a number going into an integer field (one that does not fit it), the number itself ("number 1.5").
std::string json_value_word(const doc::value& v, bool into_integer);

// time.Parse(time.RFC3339, s)'s error in Go's words, or "" when s parses (metav1.Time.UnmarshalJSON).
std::string rfc3339_error(std::string_view s);

// The first error Go reports when `metadata` is decoded by `reader`, or nullopt when it decodes.
std::optional<object_meta_type_error> object_meta_type_check(const doc::value& metadata,
                                                             meta_reader reader = meta_reader::kubectl);

} // namespace kpw::schema
