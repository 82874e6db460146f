// SPDX-License-Identifier: Apache-2.0
// proxy (private to kube/): the tunnel to the API server through the proxy proxy_rules chose, opened on a
// TCP connection to the proxy before TLS, as net/http's Transport.dialConn does: an HTTP/1.1 CONNECT
// (Proxy-Authorization: Basic from the URL's userinfo) or a SOCKS5 CONNECT (RFC 1928, RFC 1929
// username/password). TLS to the API server then runs through it unchanged (SNI, verification).
#pragma once

#include <functional>
#include <string>
#include <string_view>

#include <boost/beast/core/tcp_stream.hpp>

#include "base/result.hpp"
#include "kube/proxy_rules.hpp"

namespace kpw::kube::detail {

// The process environment's proxy settings (getenv): net/http's ProxyFromEnvironment's input.
proxy_environment process_proxy_environment();

// One asynchronous operation run to completion by the caller, which owns the deadline and the
// interrupt polling (connection's run loop); returns the operation's error.
using io_handler = std::function<void(boost::system::error_code, std::size_t)>;
using io_runner = std::function<boost::system::error_code(const std::function<void(io_handler)>&)>;

// Over `stream`, connected to the proxy and with its expiry already set, asks for a tunnel to
// host:port (host as the server's URL names it: the proxy resolves names). Failures name the proxy
// (without its userinfo), where it came from, and the proxy's answer; `timeout` ("10 s") goes into the
// message of a proxy that does not answer.
result<bool> open_tunnel(boost::beast::tcp_stream& stream, const proxy_url& proxy, const std::string& host,
                         const std::string& port, const io_runner& run, std::string_view timeout);

} // namespace kpw::kube::detail
