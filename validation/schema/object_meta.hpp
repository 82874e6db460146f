// SPDX-License-Identifier: Apache-2.0
// metadata decoded into ObjectMeta as the API server decodes it: Go's type errors, in Go's words.
#pragma once

#include <optional>
#include <string>

#include "doc/value.hpp"
#include "field/path.hpp"

namespace kpw::schema {

struct object_meta_type_error {
    field::path at;      // the value a person edits: metadata.labels.team, metadata.finalizers[1]
    std::string message; // "json: cannot unmarshal number into Go struct field ObjectMeta.labels of type string"
};

// The first error encoding/json reports when `metadata` is decoded into ObjectMeta (the API server's
// schemaobjectmeta.GetObjectMetaWithOptions, which decodes metadata re-encoded with its keys sorted):
// a value of the wrong JSON type in one of ObjectMeta's string, integer, string-map or string-list
// fields. kube-apiserver then refuses the object before anything else reads it.
std::optional<object_meta_type_error> object_meta_type_check(const doc::value& metadata);

} // namespace kpw::schema
