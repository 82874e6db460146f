// SPDX-License-Identifier: Apache-2.0
// Parsing Karmada-style listen addresses: "host:port", ":port", "[v6]:port", "0" (disabled).
#pragma once

#include <optional>
#include <string_view>

#include <boost/asio/ip/tcp.hpp>

#include "base/result.hpp"

namespace kpw::server {

// nullopt for "0" (the listener is disabled, controller-runtime's convention); an empty host means
// all interfaces (0.0.0.0). Port 0 asks the kernel for a free port.
result<std::optional<boost::asio::ip::tcp::endpoint>> parse_listen_address(std::string_view text);

// `--bind-address` + `--secure-port`.
result<boost::asio::ip::tcp::endpoint> make_endpoint(std::string_view host, int port);

// "127.0.0.1:8443" / "[::1]:8443".
std::string endpoint_text(const boost::asio::ip::tcp::endpoint& ep);

} // namespace kpw::server
