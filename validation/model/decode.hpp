// SPDX-License-Identifier: Apache-2.0
// doc::value -> model::policy, with Go encoding/json's type rules and error wording.
#pragma once

#include <string>

#include "doc/value.hpp"
#include "model/policy.hpp"

namespace kpw::model {

// Decodes a PropagationPolicy / ClusterPropagationPolicy object as Karmada's webhook decodes it into
// Go structs: unknown fields are ignored, null leaves the zero value, an empty list is unset.
// Decoding never stops: a value of the wrong JSON type is skipped (the member keeps its zero value)
// and the first such mismatch is described in `first_error` (when given) in encoding/json's words,
// e.g. `json: cannot unmarshal string into Go struct field PropagationSpec.spec.priority of type int32`.
// An empty `*first_error` after the call means the object would decode in Go.
//
// `empties`: whether an explicit `[]` / `{}` in the Placement types is kept apart from an absent one
// (model/go_collection.hpp). A policy as admitted drops it (the mutating webhook re-encodes the object
// with omitempty); a placement read as written (a binding's spec, the applied-placement annotation)
// keeps it, as encoding/json does.
enum class empty_collections { dropped, kept };
policy decode(const doc::value& object, std::string* first_error = nullptr,
              empty_collections empties = empty_collections::dropped);

} // namespace kpw::model
