// SPDX-License-Identifier: Apache-2.0
// Plain HTTP session for the probe and metrics ports.
#include "server/plain_session.hpp"

#include "server/http_session_impl.hpp"

namespace kpw::server {

template class http_session<plain_session>;

plain_session::plain_session(tcp_socket&& socket, port_role role, server_state& state)
    : http_session(state, role, socket.get_executor()), stream_(std::move(socket))
{
}

void plain_session::run()
{
    boost::asio::dispatch(stream_.get_executor(),
                          beast::bind_front_handler(&plain_session::do_read, shared_from_this()));
}

void plain_session::do_eof()
{
    beast::error_code ignored;
    stream_.shutdown(boost::asio::ip::tcp::socket::shutdown_send, ignored);
}

} // namespace kpw::server
