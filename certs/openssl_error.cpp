// SPDX-License-Identifier: Apache-2.0
// OpenSSL error queue text.
#include "certs/openssl_error.hpp"

#include <openssl/err.h>

namespace kpw::certs {

std::string openssl_error(std::string_view what)
{
    std::string out(what);
    const unsigned long code = ERR_get_error();
    if (code != 0) {
        char buf[256];
        ERR_error_string_n(code, buf, sizeof buf);
        out += ": ";
        out += buf;
    }
    ERR_clear_error();
    return out;
}

} // namespace kpw::certs
