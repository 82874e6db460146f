// SPDX-License-Identifier: Apache-2.0
// Named constructors for admission responses (controller-runtime's Allowed / Denied / Errored).
#pragma once

#include <string>
#include <vector>

#include "admission/types.hpp"

namespace kpw::admission {

// The limits kube-apiserver and the docs put on response.warnings (single line, short, few).
inline constexpr std::size_t max_warning_chars = 120;
inline constexpr std::size_t max_warnings = 16;

// allowed: true, code 200.
response allowed();
// allowed: false, code 403, reason Forbidden, the given message (Karmada's aggregate text).
response denied(std::string message);
// allowed: false with `code` (400 undecodable, 413 too large, 500 internal) and the message, no reason.
response errored(int code, std::string message);

// Adds warnings made safe for the apiserver's Warning header: control characters become spaces,
// each is cut to max_warning_chars characters (UTF-8 aware), empties and duplicates are dropped.
response with_warnings(response r, const std::vector<std::string>& warnings);

// Gives a code of 0 the value 200 (controller-runtime's Complete); the uid is added by the codec.
response complete(response r);

} // namespace kpw::admission
