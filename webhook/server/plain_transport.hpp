// SPDX-License-Identifier: Apache-2.0
// plain_transport: a non-blocking TCP socket, for the health-probe and metrics ports.
#pragma once

#include "server/context_pool.hpp"
#include "server/transport.hpp"

namespace kpw::server {

// One non-blocking read(2) on `socket` as an io_result: EAGAIN becomes a wait for readability.
// Also what a closing TLS connection drains its socket with.
io_result read_socket(tcp_socket& socket, void* data, std::size_t size);

class plain_transport {
public:
    explicit plain_transport(tcp_socket&& socket);

    tcp_socket& socket() { return socket_; }
    io_result handshake() { return {}; }
    io_result read_some(void* data, std::size_t size) { return read_socket(socket_, data, size); }
    io_result write_some(const void* data, std::size_t size);
    bool has_pending() const { return false; }
    void close_notify() {}

private:
    tcp_socket socket_;
};

} // namespace kpw::server
