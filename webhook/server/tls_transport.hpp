// SPDX-License-Identifier: Apache-2.0
// tls_transport: OpenSSL running directly on a non-blocking socket.
#pragma once

#include <memory>

#include <boost/asio/ssl/context.hpp>
#include <openssl/ssl.h>

#include "server/context_pool.hpp"
#include "server/transport.hpp"

namespace kpw::server {

// Why not asio::ssl::stream: its engine moves every record through a memory BIO pair and each
// composed step completes through a posted handler; a 4.6 KB review cost about eleven reactor
// polls (epoll_wait) that way. Here SSL_read / SSL_write use the socket's descriptor and the
// session waits for readiness only when OpenSSL reports WANT_READ / WANT_WRITE. The SSL_CTX is
// still an asio::ssl::context (certificate loading, reloads, mTLS and ALPN set on it).
class tls_transport {
public:
    // `context` is the certificate current at accept time; the connection keeps it for its whole
    // life, so a reload never touches established connections.
    tls_transport(tcp_socket&& socket, std::shared_ptr<boost::asio::ssl::context> context);

    tcp_socket& socket() { return socket_; }
    io_result handshake();
    io_result read_some(void* data, std::size_t size);
    io_result write_some(const void* data, std::size_t size);
    bool has_pending() const;
    // Sends close_notify once if the handshake completed; does not wait for the peer's.
    void close_notify();

private:
    struct ssl_free {
        void operator()(SSL* ssl) const { SSL_free(ssl); }
    };

    // Maps a failed SSL_* call (its return value `ret`) to a wait or an error.
    io_result failure(int ret) const;

    std::shared_ptr<boost::asio::ssl::context> context_; // declared first: outlives ssl_
    tcp_socket socket_;
    std::unique_ptr<SSL, ssl_free> ssl_;
};

} // namespace kpw::server
