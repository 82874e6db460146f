// SPDX-License-Identifier: Apache-2.0
// The readiness-driven HTTP/1.1 session loop, for TLS and plain connections: its steps, closing and
// shutdown (what one request does to the session: http_session_requests.cpp).
#include "server/http_session.hpp"

#include <algorithm>
#include <array>

#include <boost/asio/dispatch.hpp>
#include <boost/asio/error.hpp>
#include <boost/asio/ssl/error.hpp>
#include <boost/beast/core/bind_handler.hpp>
#include <boost/beast/http/error.hpp>

#include "server/plain_transport.hpp"
#include "server/tls_transport.hpp"

namespace kpw::server {

namespace beast = boost::beast;
namespace http = boost::beast::http;
namespace net = boost::asio;
using boost::system::error_code;

namespace {

// One TLS record's plaintext at most (16 KiB): a typical review arrives in one read.
constexpr std::size_t read_chunk = 16 * 1024;
// How long a closing connection may keep sending before it is cut off.
constexpr std::chrono::seconds linger_timeout{5};
// At shutdown, how long after its accept a connection that has not sent a request yet may still
// send its first one. Go's http.Server.Shutdown (controller-runtime's, so karmada-webhook's) waits
// the same 5 s for such connections: Go's client never retries a request that failed on a fresh
// connection, so closing it under a request in flight would fail that admission call.
constexpr std::chrono::seconds fresh_connection_grace{5};

} // namespace

template <class Transport>
http_session<Transport>::http_session(Transport&& transport, port_role role, server_state& state)
    : transport_(std::move(transport)), state_(state), role_(role),
      batch_(boost::asio::use_service<reply_batch>(transport_.socket().get_executor().context())),
      phase_(role == port_role::webhook ? phase::handshake : phase::exchange),
      deadline_(transport_.socket().get_executor(), std::min(state.options().read_timeout, state.options().write_timeout))
{
}

template <class Transport>
http_session<Transport>::~http_session()
{
    release_request();
    registry().remove(this); // (a key that was never added is simply not found)
}

template <class Transport>
void http_session<Transport>::run()
{
    registry().add(this, this->shared_from_this());
    deadline_.watch(this->weak_from_this(), transport_.socket());
    net::dispatch(transport_.socket().get_executor(), [self = this->shared_from_this()] {
        if (self->phase_ == phase::handshake)
            self->deadline_.set(self->state_.options().handshake_timeout);
        else
            self->begin_request();
        self->pump();
    });
}

// ---- the loop --------------------------------------------------------------------------------

template <class Transport>
void http_session<Transport>::pump()
{
    for (;;) {
        step s = step::done;
        switch (phase_) {
        case phase::handshake:
            s = handshake();
            break;
        case phase::exchange:
            s = exchange();
            break;
        case phase::lingering:
            s = linger();
            break;
        }
        if (s == step::again)
            continue;
        if (s == step::done)
            return; // no wait pending: the last reference goes with this call (~http_session)
        if (s == step::write_with_batch)
            return batch_.add(this->shared_from_this(), transport_.socket().get_executor());
        const auto wait = s == step::wait_readable ? net::socket_base::wait_read : net::socket_base::wait_write;
        return transport_.socket().async_wait(
            wait, [self = this->shared_from_this()](error_code ec) { self->on_ready(ec); });
    }
}

template <class Transport>
void http_session<Transport>::on_ready(error_code ec)
{
    // The deadline may have closed the socket after this wait had already completed (or while
    // the reply waited for the batch): the descriptor number could belong to another connection
    // by now, so nothing may touch it.
    if (!transport_.socket().is_open() || deadline_.expired())
        return void(drop("connection closed", beast::error::timeout));
    if (ec && ec != net::error::operation_aborted) // operation_aborted: stop() woke an idle connection
        return void(drop("connection closed", ec));
    pump();
}

template <class Transport>
auto http_session<Transport>::wait_for(io_wait w) const -> step
{
    return w == io_wait::readable ? step::wait_readable : step::wait_writable;
}

template <class Transport>
auto http_session<Transport>::handshake() -> step
{
    const io_result r = transport_.handshake();
    if (r.wait != io_wait::none)
        return wait_for(r.wait);
    if (r.ec)
        return drop("TLS handshake failed", r.ec);
    phase_ = phase::exchange;
    begin_request();
    return step::again;
}

template <class Transport>
auto http_session<Transport>::exchange() -> step
{
    if (written_ < out_.size())
        return std::exchange(reply_batched_, false) ? step::write_with_batch : write_pending();
    if (parser_->is_done() || (!need_input_ && buffer_.size() > 0))
        return parse_buffered();
    // Draining: a connection with bytes of a request gets its answer (kube-apiserver does not retry a
    // POST) with Connection: close. One between requests may still carry one more for
    // fresh_connection_grace after the stop: kube-apiserver can have taken it from its idle pool as we
    // stopped, and closing it under that request fails the apply ("server closed idle connection",
    // seen in tests/e2e/operations). A fresh one may send its first request until that long after its
    // accept. Then it closes.
    if (stopping_ && idle_ && !next_request_started()) {
        const auto until = fresh_ ? accepted_ + fresh_connection_grace : stopped_at_ + fresh_connection_grace;
        const auto left = until - std::chrono::steady_clock::now();
        if (left <= std::chrono::steady_clock::duration::zero())
            return begin_close();
        deadline_.set(left);
    }
    return read_more();
}

template <class Transport>
auto http_session<Transport>::write_pending() -> step
{
    while (written_ < out_.size()) {
        const io_result r = transport_.write_some(out_.data() + written_, out_.size() - written_);
        if (r.wait != io_wait::none)
            return wait_for(r.wait);
        if (r.ec)
            return drop("connection closed", r.ec);
        written_ += r.bytes;
    }
    out_.clear();
    written_ = 0;
    switch (after_write_) {
    case then::read_body:
        deadline_.set(state_.options().read_timeout);
        return step::again;
    case then::close:
        return begin_close();
    case then::next_request:
        break;
    }
    begin_request();
    return step::again;
}

template <class Transport>
void http_session<Transport>::write_reply()
{
    on_ready(error_code());
}

template <class Transport>
auto http_session<Transport>::parse_buffered() -> step
{
    error_code ec;
    while (!parser_->is_done() && buffer_.size() > 0) {
        const std::size_t n = parser_->put(buffer_.data(), ec);
        buffer_.consume(n);
        if (ec && ec != http::error::need_more)
            return on_read_failure(ec);
        if (!header_seen_ && parser_->is_header_done()) {
            header_seen_ = true;
            on_header();
            if (written_ < out_.size())
                return step::again; // 100 Continue goes out first
        }
        if (ec || n == 0) { // need_more
            need_input_ = true;
            return step::again;
        }
    }
    if (!parser_->is_done()) {
        need_input_ = true;
        return step::again;
    }
    on_message();
    return step::again;
}

template <class Transport>
auto http_session<Transport>::read_more() -> step
{
    const io_result r = transport_.read_some(buffer_.prepare(read_chunk).data(), read_chunk);
    if (r.wait != io_wait::none)
        return wait_for(r.wait);
    if (r.ec)
        return on_read_failure(r.ec);
    buffer_.commit(r.bytes);
    need_input_ = false;
    if (idle_) { // the first byte of a request: from now on the read timeout applies
        idle_ = false;
        deadline_.set(state_.options().read_timeout);
    }
    return step::again;
}

template <class Transport>
auto http_session<Transport>::linger() -> step
{
    std::array<char, read_chunk> discard;
    for (;;) {
        // The raw socket, TLS records and all: nothing of it is read any more.
        const io_result r = read_socket(transport_.socket(), discard.data(), discard.size());
        if (r.wait != io_wait::none)
            return wait_for(r.wait);
        if (r.ec) // the client's FIN (eof) or a reset: done
            return step::done;
    }
}

template <class Transport>
auto http_session<Transport>::begin_close() -> step
{
    transport_.close_notify();
    error_code ignored;
    transport_.socket().shutdown(net::socket_base::shutdown_send, ignored);
    phase_ = phase::lingering;
    deadline_.set(linger_timeout);
    return step::again;
}

template <class Transport>
auto http_session<Transport>::drop(const char* what, error_code ec) -> step
{
    if (state_.log().enabled(2) && ec != net::error::operation_aborted)
        state_.log().info(what, "error=" + logger::quote(ec.message()));
    return step::done; // the destructor counts an unanswered review as abandoned
}

// ---- shutdown ----------------------------------------------------------------------------------

template <class Transport>
void http_session<Transport>::stop()
{
    // Called from the signal handler's thread: hop onto this connection's context.
    net::dispatch(transport_.socket().get_executor(), [self = this->shared_from_this()] { self->on_stop(); });
}

template <class Transport>
void http_session<Transport>::on_stop()
{
    stopping_ = true;
    stopped_at_ = std::chrono::steady_clock::now();
    // Wake a connection idle between requests; the loop then sets its last deadline (or answers what arrived).
    if (phase_ == phase::exchange && idle_ && written_ == out_.size()) {
        error_code ignored;
        transport_.socket().cancel(ignored);
    }
}

// Whether bytes of another request wait unparsed: in our buffer, inside OpenSSL, or still in the
// kernel's socket buffer.
template <class Transport>
bool http_session<Transport>::next_request_started()
{
    error_code ec;
    return buffer_.size() > 0 || transport_.has_pending() || transport_.socket().available(ec) > 0;
}

template class http_session<tls_transport>;
template class http_session<plain_transport>;

} // namespace kpw::server
