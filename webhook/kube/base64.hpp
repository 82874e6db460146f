// SPDX-License-Identifier: Apache-2.0
// base64: standard base64 (RFC 4648, padded) for the Authorization headers and kubeconfig data fields.
#pragma once

#include <string>
#include <string_view>

namespace kpw::kube::detail {

std::string base64_encode(std::string_view data);

} // namespace kpw::kube::detail
