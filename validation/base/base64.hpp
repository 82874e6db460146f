// SPDX-License-Identifier: Apache-2.0
// Go's base64.StdEncoding decoding, as encoding/json decodes a []byte and go-yaml v2 a !!binary scalar.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace kpw {

// '\r' and '\n' are skipped, padding is required, '=' only ends the last quantum. On failure `bad_at` is
// the offending input byte (in.size() for a short last quantum).
bool base64_decode(std::string_view in, std::string& out, std::size_t& bad_at);

} // namespace kpw
