// SPDX-License-Identifier: Apache-2.0
// The readiness-driven HTTP/1.1 session loop, for TLS and plain connections.
#include "server/http_session.hpp"

#include <algorithm>
#include <array>
#include <tuple>

#include <boost/asio/dispatch.hpp>
#include <boost/asio/error.hpp>
#include <boost/asio/ssl/error.hpp>
#include <boost/beast/core/bind_handler.hpp>
#include <boost/beast/core/string.hpp>
#include <boost/beast/http/error.hpp>

#include "admission/review_endpoint.hpp"
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
// The largest request body on the probe and metrics ports: their endpoints read none (as
// controller-runtime's), so a client there cannot make the server buffer megabytes.
constexpr std::uint64_t probe_body_limit = 4 * 1024;
// How long a closing connection may keep sending before it is cut off.
constexpr std::chrono::seconds linger_timeout{5};
// At shutdown, how long after its accept a connection that has not sent a request yet may still
// send its first one. Go's http.Server.Shutdown (controller-runtime's, so karmada-webhook's) waits
// the same 5 s for such connections: Go's client never retries a request that failed on a fresh
// connection, so closing it under a request in flight would fail that admission call.
constexpr std::chrono::seconds fresh_connection_grace{5};
constexpr std::string_view continue_reply = "HTTP/1.1 100 Continue\r\n\r\n";

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
    // Draining: an idle connection closes; one with bytes of a request gets its answer
    // (kube-apiserver does not retry a POST) with Connection: close; a fresh one may still send
    // its first request (fresh_connection_grace).
    if (stopping_ && idle_ && !next_request_started()) {
        if (!fresh_)
            return begin_close();
        const auto left = accepted_ + fresh_connection_grace - std::chrono::steady_clock::now();
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

// ---- requests ----------------------------------------------------------------------------------

template <class Transport>
void http_session<Transport>::begin_request()
{
    // The previous body's buffer is reused: no allocation (and no malloc_consolidate, which glibc
    // runs on every large request) per request for bodies of typical size.
    parser_.emplace(std::piecewise_construct, std::make_tuple(std::move(spare_body_)));
    // The parser's limit is the largest allowed body; controller-runtime refuses 7 MiB and more.
    parser_->body_limit(role_ == port_role::webhook ? admission::max_request_bytes - 1 : probe_body_limit);
    parser_->header_limit(static_cast<std::uint32_t>(state_.options().header_limit));
    header_seen_ = false;
    need_input_ = false;
    after_write_ = then::next_request;
    // Between requests the keep-alive idle timeout applies (above the client's 90 s); a pipelined
    // request already buffered is being read.
    idle_ = buffer_.size() == 0;
    deadline_.set(idle_ ? state_.options().idle_timeout : state_.options().read_timeout);
}

template <class Transport>
void http_session<Transport>::on_header()
{
    fresh_ = false;
    const auto& req = parser_->get();
    route_ = route_request(role_, req.method(), {req.target().data(), req.target().size()});
    if (route_.what == endpoint::review) {
        request_ = active_request{route_.webhook, std::chrono::steady_clock::now(), true};
        state_.stats().begin_request(route_.webhook);
    }
    // curl and other clients wait for "100 Continue" before sending a larger body; one that sent
    // the body anyway does not need it.
    const auto length = parser_->content_length();
    const bool body_buffered = length && buffer_.size() >= *length;
    if (beast::iequals(req[http::field::expect], "100-continue") && !parser_->is_done() && !body_buffered &&
        req.version() >= 11) {
        out_.assign(continue_reply);
        written_ = 0;
        after_write_ = then::read_body;
        deadline_.set(state_.options().write_timeout);
    }
}

template <class Transport>
void http_session<Transport>::on_message()
{
    auto req = parser_->release();
    const auto started = request_ ? request_->started : std::chrono::steady_clock::now();
    if (request_)
        request_->counted = false; // respond() records the end of the request, also when it throws
    request_.reset();
    http_response res;
    try {
        res = respond(state_, route_, req, started);
    } catch (const std::exception& e) { // out of memory while answering: never out of the loop
        state_.log().error("cannot answer a request", "error=" + logger::quote(e.what()));
        res = transport_error(500, req.version());
    }
    if (req.body().capacity() <= spare_body_limit) {
        spare_body_ = std::move(req.body());
        spare_body_.clear();
    }
    send(std::move(res));
}

// Parse failures the client should hear about are answered (400, 413, 431, then close);
// transport failures (timeout, reset, TLS alert, truncated message) simply end the connection,
// and a client that closes between requests is closed in turn.
template <class Transport>
auto http_session<Transport>::on_read_failure(error_code ec) -> step
{
    if (ec == net::error::eof || ec == net::ssl::error::stream_truncated) {
        if (!parser_->got_some() && buffer_.size() == 0) {
            transport_.close_notify();
            return step::done;
        }
        ec = http::error::partial_message;
    }
    const unsigned status = read_error_status(ec);
    if (status == 0)
        return drop("connection closed", ec);
    release_request();
    send(transport_error(status));
    return step::again;
}

template <class Transport>
void http_session<Transport>::send(http_response&& res)
{
    after_write_ = res.keep_alive() ? then::next_request : then::close;
    reply_batched_ = true;
    serialize(res, out_);
    written_ = 0;
    deadline_.set(state_.options().write_timeout);
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

template <class Transport>
void http_session<Transport>::release_request()
{
    if (request_ && request_->counted)
        state_.stats().abandon_request(request_->webhook);
    request_.reset();
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
    // Wake a connection idle between requests; the loop then closes it (or answers what arrived).
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
