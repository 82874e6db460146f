// SPDX-License-Identifier: Apache-2.0
#include "kube/base64.hpp"

#include <openssl/evp.h>

namespace kpw::kube::detail {

std::string base64_encode(std::string_view data)
{
    std::string out(4 * ((data.size() + 2) / 3), '\0');
    const int n = EVP_EncodeBlock(reinterpret_cast<unsigned char*>(out.data()),
                                  reinterpret_cast<const unsigned char*>(data.data()), static_cast<int>(data.size()));
    out.resize(static_cast<std::size_t>(n));
    return out;
}

} // namespace kpw::kube::detail
