// SPDX-License-Identifier: Apache-2.0
// One loopback TLS handshake that verifies the server the way kube-apiserver's Go client does.
#pragma once

#include <string>

namespace kpw::test {

// The server presents `crt`/`key`; the client trusts only `ca_pem` and requires `host` (DNS name or IP)
// among the certificate's SANs — the subject CN is never consulted — and the serverAuth purpose.
// Returns OpenSSL's verify result: X509_V_OK when accepted, X509_V_ERR_HOSTNAME_MISMATCH, ...
// A handshake failing for any reason other than verification fails the calling test.
long verify_like_apiserver(const std::string& crt, const std::string& key, const std::string& ca_pem,
                           const std::string& host);

} // namespace kpw::test
