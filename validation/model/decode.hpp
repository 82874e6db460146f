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
policy decode(const doc::value& object, std::string* first_error = nullptr);

} // namespace kpw::model
