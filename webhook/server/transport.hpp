// SPDX-License-Identifier: Apache-2.0
// io_result: what one non-blocking transport call did, for the readiness-driven session loop.
#pragma once

#include <cstddef>

#include <boost/system/error_code.hpp>

namespace kpw::server {

// Which readiness the call must wait for before it is retried (none: it completed or failed).
// Readiness comes from an edge-triggered reactor (Asio's epoll), so a transport reports
// `readable` only after the socket itself answered EAGAIN: no edge can be lost in between.
enum class io_wait { none, readable, writable };

struct io_result {
    std::size_t bytes = 0;
    io_wait wait = io_wait::none;
    boost::system::error_code ec; // asio::error::eof for an orderly close
};

// The transports (tls_transport, plain_transport) share this shape:
//   tcp_socket& socket();
//   io_result handshake();                        // TLS handshake; plain: done at once
//   io_result read_some(void*, std::size_t);
//   io_result write_some(const void*, std::size_t);
//   bool has_pending() const;                     // bytes read from the socket but not yet returned
//   void close_notify();                          // best effort, never blocks

} // namespace kpw::server
