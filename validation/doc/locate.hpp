// SPDX-License-Identifier: Apache-2.0
// Resolves a rendered field path (spec.placement.clusterAffinities[1].affinityName) to a source position.
#pragma once

#include <string_view>

#include "doc/value.hpp"

namespace kpw::doc {

// A scalar resolves to where its value starts; a mapping or sequence to where its key starts.
// A path that leaves the document (a Required or defaulted field) resolves to its nearest present
// ancestor; nothing present gives the root's position (clang's "no location is legal" applies to
// synthesised roots, which have position 0:0).
position locate(const value& root, std::string_view field_path);

// Like locate, but a mapping member resolves to where its key starts, whatever its value is: for a
// finding about the key itself (a label key that is not a qualified name).
position locate_key(const value& root, std::string_view field_path);

} // namespace kpw::doc
