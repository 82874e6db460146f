// SPDX-License-Identifier: Apache-2.0
// Building the server's TLS context from PEM files: TLS >= 1.2, modern suites, ALPN http/1.1 only.
#pragma once

#include <filesystem>
#include <memory>
#include <string_view>

#include <boost/asio/ssl/context.hpp>

#include "base/result.hpp"

namespace kpw::server {

struct tls_files {
    std::filesystem::path cert_file;      // chain, leaf first
    std::filesystem::path key_file;
    std::filesystem::path client_ca_file; // empty: no client certificates asked for
};

// "1.2" / "1.3" (also Go's "VersionTLS12" / "VersionTLS13"); lower versions are refused.
result<int> parse_tls_version(std::string_view text);

// A fresh context. Failures name the file and OpenSSL's reason (unreadable, mismatched key...).
// ALPN: selects http/1.1 when offered, otherwise declines (never h2, never a handshake failure).
result<std::shared_ptr<boost::asio::ssl::context>> make_tls_context(const tls_files& files, int min_version);

} // namespace kpw::server
