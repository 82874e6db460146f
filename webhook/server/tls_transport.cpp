// SPDX-License-Identifier: Apache-2.0
// Non-blocking TLS over a socket descriptor, reporting readiness waits instead of blocking.
#include "server/tls_transport.hpp"

#include <cerrno>
#include <climits>

#include <boost/asio/error.hpp>
#include <boost/asio/ssl/error.hpp>
#include <openssl/err.h>

namespace kpw::server {
namespace {

// SSL_read / SSL_write take an int.
constexpr std::size_t max_chunk = 1u << 20;

int clamp(std::size_t size) { return static_cast<int>(size < max_chunk ? size : max_chunk); }

} // namespace

tls_transport::tls_transport(tcp_socket&& socket, std::shared_ptr<boost::asio::ssl::context> context)
    : context_(std::move(context)), socket_(std::move(socket)), ssl_(SSL_new(context_->native_handle()))
{
    boost::system::error_code ec;
    socket_.non_blocking(true, ec);
    // SSL_set_fd leaves the descriptor to the socket (BIO_NOCLOSE). Read-ahead fetches whole
    // records, and what follows them, in one read(2).
    if (!ec && ssl_ && SSL_set_fd(ssl_.get(), socket_.native_handle()) == 1) {
        SSL_set_accept_state(ssl_.get());
        SSL_set_read_ahead(ssl_.get(), 1);
        SSL_set_mode(ssl_.get(), SSL_MODE_ENABLE_PARTIAL_WRITE | SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER);
    } else {
        ssl_.reset(); // every call then fails; the session closes the connection
    }
}

io_result tls_transport::failure(int ret) const
{
    const int saved_errno = errno;
    switch (SSL_get_error(ssl_.get(), ret)) {
    case SSL_ERROR_WANT_READ:
        return {0, io_wait::readable, {}};
    case SSL_ERROR_WANT_WRITE:
        return {0, io_wait::writable, {}};
    case SSL_ERROR_ZERO_RETURN: // the peer's close_notify
        return {0, io_wait::none, boost::asio::error::eof};
    case SSL_ERROR_SYSCALL:
        if (ERR_peek_error() == 0)
            return {0, io_wait::none,
                    saved_errno == 0 ? boost::system::error_code(boost::asio::ssl::error::stream_truncated)
                                     : boost::system::error_code(saved_errno, boost::system::system_category())};
        break;
    default:
        break;
    }
    const unsigned long e = ERR_get_error();
    ERR_clear_error();
    if (ERR_GET_REASON(e) == SSL_R_UNEXPECTED_EOF_WHILE_READING) // TCP FIN without close_notify
        return {0, io_wait::none, boost::asio::ssl::error::stream_truncated};
    return {0, io_wait::none,
            boost::system::error_code(static_cast<int>(e ? e : ERR_R_INTERNAL_ERROR), boost::asio::error::get_ssl_category())};
}

io_result tls_transport::handshake()
{
    if (!ssl_)
        return {0, io_wait::none, boost::asio::error::no_memory};
    ERR_clear_error(); // SSL_get_error reads this thread's queue: nothing from another connection
    const int ret = SSL_do_handshake(ssl_.get());
    return ret == 1 ? io_result{} : failure(ret);
}

io_result tls_transport::read_some(void* data, std::size_t size)
{
    if (!ssl_)
        return {0, io_wait::none, boost::asio::error::no_memory};
    ERR_clear_error();
    const int ret = SSL_read(ssl_.get(), data, clamp(size));
    return ret > 0 ? io_result{static_cast<std::size_t>(ret), io_wait::none, {}} : failure(ret);
}

io_result tls_transport::write_some(const void* data, std::size_t size)
{
    if (!ssl_)
        return {0, io_wait::none, boost::asio::error::no_memory};
    ERR_clear_error();
    const int ret = SSL_write(ssl_.get(), data, clamp(size));
    return ret > 0 ? io_result{static_cast<std::size_t>(ret), io_wait::none, {}} : failure(ret);
}

bool tls_transport::has_pending() const { return ssl_ && SSL_has_pending(ssl_.get()) == 1; }

void tls_transport::close_notify()
{
    if (!ssl_ || !socket_.is_open() || SSL_is_init_finished(ssl_.get()) != 1)
        return;
    ERR_clear_error();
    SSL_shutdown(ssl_.get());
    ERR_clear_error();
}

} // namespace kpw::server
