// SPDX-License-Identifier: Apache-2.0
// Named constructors for admission responses (controller-runtime's Allowed / Denied / Errored).
#pragma once

#include <string>
#include <vector>

#include "admission/types.hpp"

namespace kpw::admission {

// The limits kube-apiserver puts on response.warnings (apiserver/pkg/endpoints/filters/warning.go): it
// passes each warning whole until the warnings of a request pass 4096 runes, then cuts each to 256. The
// docs ask for 120 where possible; Karmada's scheduling texts quoted in ours are longer, and a warning cut
// mid-word says less than one the apiserver passes whole. 16 warnings of 256 runes fit its total.
inline constexpr std::size_t max_warning_chars = 256;
inline constexpr std::size_t max_warnings = 16;

// allowed: true, code 200.
response allowed();
// allowed: false, code 403, reason Forbidden, the given message (Karmada's aggregate text).
response denied(std::string message);
// allowed: false with `code` (400 undecodable, 413 too large, 500 internal) and the message, no reason.
response errored(int code, std::string message);

// Adds warnings made safe for the apiserver's Warning header: control characters become spaces,
// one longer than max_warning_chars characters is cut at a space and ends with "…" (UTF-8 aware), empties
// and duplicates are dropped.
response with_warnings(response r, const std::vector<std::string>& warnings);

// Gives a code of 0 the value 200 (controller-runtime's Complete); the uid is added by the codec.
response complete(response r);

} // namespace kpw::admission
