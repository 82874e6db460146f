// SPDX-License-Identifier: Apache-2.0
// tls_session: one webhook connection — TLS handshake, then the HTTP loop, then close_notify.
#pragma once

#include <memory>

#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl/context.hpp>
#include <boost/beast/ssl/ssl_stream.hpp>

#include "server/http_session.hpp"

namespace kpw::server {

class tls_session final : public http_session<tls_session>, public std::enable_shared_from_this<tls_session> {
public:
    // `context` is the certificate current at accept time; the session keeps it for its whole life,
    // so a reload never touches established connections.
    tls_session(tcp_socket&& socket, std::shared_ptr<boost::asio::ssl::context> context,
                server_state& state);

    void run();

    boost::beast::ssl_stream<tcp_socket>& stream() { return stream_; }
    void do_eof();

private:
    void on_run();
    void on_handshake(boost::beast::error_code ec);
    void on_shutdown(boost::beast::error_code ec);

    std::shared_ptr<boost::asio::ssl::context> context_; // declared first: outlives stream_
    boost::beast::ssl_stream<tcp_socket> stream_;
};

} // namespace kpw::server
