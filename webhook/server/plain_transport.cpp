// SPDX-License-Identifier: Apache-2.0
// Non-blocking reads and writes on a plain TCP socket.
#include "server/plain_transport.hpp"

#include <boost/asio/buffer.hpp>
#include <boost/asio/error.hpp>

namespace kpw::server {
namespace {

io_result outcome(std::size_t bytes, const boost::system::error_code& ec, io_wait retry)
{
    if (ec == boost::asio::error::would_block || ec == boost::asio::error::try_again)
        return {0, retry, {}};
    return {bytes, io_wait::none, ec};
}

} // namespace

plain_transport::plain_transport(tcp_socket&& socket) : socket_(std::move(socket))
{
    boost::system::error_code ignored; // a socket that cannot be switched fails its first read
    socket_.non_blocking(true, ignored);
}

io_result read_socket(tcp_socket& socket, void* data, std::size_t size)
{
    boost::system::error_code ec;
    const std::size_t n = socket.read_some(boost::asio::buffer(data, size), ec);
    return outcome(n, ec, io_wait::readable);
}

io_result plain_transport::write_some(const void* data, std::size_t size)
{
    boost::system::error_code ec;
    const std::size_t n = socket_.write_some(boost::asio::buffer(data, size), ec);
    return outcome(n, ec, io_wait::writable);
}

} // namespace kpw::server
