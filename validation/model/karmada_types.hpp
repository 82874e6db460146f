// SPDX-License-Identifier: Apache-2.0
// The Go types of the Karmada objects lint reads as a snapshot (Clusters, bindings), for the fields lint does
// not read itself.
#pragma once

#include <string_view>

#include "doc/value.hpp"
#include "field/error.hpp"

namespace kpw::model {

// Karmada's components list Clusters and bindings through typed clientsets, which decode the whole object:
// one with a field of the wrong JSON type anywhere (not only where lint reads) is one no informer holds, and
// karmada-apiserver never stores. Appends encoding/json's first error decoding `object` into `go_type`
// ("v1alpha1.Cluster", "v1alpha2.ResourceBinding"; kubernetes-types.json), located at the field.
void check_karmada_type(const doc::value& object, std::string_view go_type, std::string_view kind,
                        field::error_list& errors);

} // namespace kpw::model
