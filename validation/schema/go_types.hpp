// SPDX-License-Identifier: Apache-2.0
// A built-in kind decoded into its Go type as kube-apiserver decodes a request body: sigs.k8s.io/json
// (encoding/json, field names matched case-sensitively, unknown fields ignored, null fits anything) over
// the types of k8s.io/api. An object that fails is one the API server refuses ("Deployment in version
// \"v1\" cannot be handled as a Deployment: ...") and so never holds. The types are data generated from
// client-go's scheme (kubernetes-types.json, tests/conformance/cmd/gotypes).
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "doc/value.hpp"
#include "field/path.hpp"

namespace kpw::schema {

struct go_decode_error {
    field::path at;      // the value to edit: spec.template.spec.containers[0].resources.requests[memory]
    std::string message; // the API server's: Deployment in version "v1" cannot be handled as a Deployment: json: ...
};

// Whether apiVersion/kind is a kind the API server decodes into a built-in Go type (false for custom
// resources: their CRD's schema decides, and it is not known here).
bool is_builtin_kind(std::string_view api_version, std::string_view kind);

// The error the API server's decoder reports first for `object` (a built-in kind), or nullopt when it
// decodes. Members are met in sorted key order, the order of kubectl's YAML-to-JSON conversion; a type
// mismatch is kept and the walk goes on, as encoding/json saves the first one, while an error of a type
// with its own UnmarshalJSON (a quantity, an int-or-string, a time) ends it.
std::optional<go_decode_error> go_decode_check(const doc::value& object);

// The same for a value of one Go type of the table, named as reflect.Type.String() ("v1.PodTemplateSpec"):
// encoding/json's error with paths relative to `v` (nullopt when it decodes, or the type is unknown). A
// resource interpreter's script hands a workload's pod template to Go this way.
std::optional<go_decode_error> go_type_check(const doc::value& v, std::string_view go_type_name);

} // namespace kpw::schema
