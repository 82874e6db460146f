// SPDX-License-Identifier: Apache-2.0
// TLS session lifecycle around the shared HTTP loop.
#include "server/tls_session.hpp"

#include <boost/asio/ssl/error.hpp>

#include "server/http_session_impl.hpp"

namespace kpw::server {

template class http_session<tls_session>;

tls_session::tls_session(tcp_socket&& socket, std::shared_ptr<boost::asio::ssl::context> context,
                         server_state& state)
    : http_session(state, port_role::webhook, socket.get_executor()), context_(std::move(context)), stream_(std::move(socket), *context_)
{
}

void tls_session::run()
{
    track();
    // Accepted on the listener's thread: start on the connection's own context.
    boost::asio::dispatch(stream_.get_executor(), beast::bind_front_handler(&tls_session::on_run, shared_from_this()));
}

void tls_session::on_run()
{
    set_deadline(state_.options().handshake_timeout);
    stream_.async_handshake(boost::asio::ssl::stream_base::server,
                            beast::bind_front_handler(&tls_session::on_handshake, shared_from_this()));
}

void tls_session::on_handshake(beast::error_code ec)
{
    if (ec) {
        if (state_.log().enabled(2))
            state_.log().info("TLS handshake failed", "error=" + logger::quote(reason(ec).message()));
        return;
    }
    do_read();
}

void tls_session::do_eof()
{
    set_deadline(std::chrono::seconds(5));
    stream_.async_shutdown(beast::bind_front_handler(&tls_session::on_shutdown, shared_from_this()));
}

void tls_session::on_shutdown(beast::error_code)
{
    // Errors here (stream_truncated: the peer closed without close_notify) change nothing: the
    // socket closes when the last reference goes.
    beast::error_code ignored;
    beast::get_lowest_layer(stream_).shutdown(boost::asio::ip::tcp::socket::shutdown_both, ignored);
}

} // namespace kpw::server
