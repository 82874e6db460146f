// SPDX-License-Identifier: Apache-2.0
// http_session<Derived> definitions; included only by the .cpp files that instantiate it.
#pragma once

#include <algorithm>
#include <tuple>

#include <boost/asio/dispatch.hpp>
#include <boost/beast/core/bind_handler.hpp>
#include <boost/beast/core/stream_traits.hpp>
#include <boost/beast/http/error.hpp>
#include <boost/beast/http/read.hpp>
#include <boost/beast/http/write.hpp>

#include "admission/review_endpoint.hpp"
#include "server/http_session.hpp"

namespace kpw::server {

namespace beast = boost::beast;
namespace http = boost::beast::http;

template <class Derived>
http_session<Derived>::http_session(server_state& state, port_role role, const executor& ex)
    : state_(state), role_(role), timer_(ex)
{
}

template <class Derived>
http_session<Derived>::~http_session()
{
    release_request();
    if (tracked_)
        state_.connections().remove(this);
}

template <class Derived>
void http_session<Derived>::track()
{
    tracked_ = true;
    state_.connections().add(this, derived().shared_from_this());
}

template <class Derived>
void http_session<Derived>::set_deadline(std::chrono::steady_clock::duration d)
{
    deadline_ = std::chrono::steady_clock::now() + d;
    if (armed_ == std::chrono::steady_clock::time_point{} || deadline_ < armed_)
        arm_timer(deadline_);
}

// The wait holds the session weakly: a connection whose I/O has ended is destroyed at once, not
// kept alive (and counted open) until its timer fires.
template <class Derived>
void http_session<Derived>::arm_timer(std::chrono::steady_clock::time_point at)
{
    armed_ = at;
    timer_.expires_at(at);
    timer_.async_wait([weak = derived().weak_from_this()](beast::error_code ec) { on_timer(weak, ec); });
}

template <class Derived>
void http_session<Derived>::on_timer(std::weak_ptr<Derived> weak, beast::error_code ec)
{
    auto self = weak.lock();
    if (ec == boost::asio::error::operation_aborted || !self)
        return; // re-armed (a newer wait is pending) or the session is gone
    const auto now = std::chrono::steady_clock::now();
    http_session& s = *self;
    s.armed_ = {};
    if (now < s.deadline_) {
        const auto& o = s.state_.options();
        return s.arm_timer(std::min(s.deadline_, now + std::min<std::chrono::steady_clock::duration>(
                                                               o.read_timeout, o.write_timeout)));
    }
    // Expired: closing the socket fails the pending operation, which ends the session.
    s.timed_out_ = true;
    beast::error_code ignored;
    beast::get_lowest_layer(self->stream()).close(ignored);
}

template <class Derived>
beast::error_code http_session<Derived>::reason(beast::error_code ec) const
{
    return timed_out_ && ec == boost::asio::error::operation_aborted ? beast::error::timeout : ec;
}

template <class Derived>
void http_session<Derived>::stop()
{
    // Called from the signal handler's thread: hop onto this connection's context.
    boost::asio::dispatch(beast::get_lowest_layer(derived().stream()).get_executor(),
                          beast::bind_front_handler(&http_session::on_stop, derived().shared_from_this()));
}

template <class Derived>
void http_session<Derived>::on_stop()
{
    stopping_ = true;
    // Only a connection with no byte of a next request is idle; a partly received one is answered.
    if (idle_ && parser_ && !parser_->got_some() && !next_request_started())
        beast::get_lowest_layer(derived().stream()).cancel();
}

// Whether bytes of another request wait unparsed: in our buffer or still in the kernel's socket
// buffer. A client that sent its next keep-alive POST just before shutdown (kube-apiserver does not
// retry a POST) gets an answer with Connection: close instead of a closed connection.
template <class Derived>
bool http_session<Derived>::next_request_started()
{
    beast::error_code ec;
    return buffer_.size() > 0 || beast::get_lowest_layer(derived().stream()).available(ec) > 0;
}

template <class Derived>
void http_session<Derived>::do_read()
{
    if (stopping_ && !next_request_started())
        return derived().do_eof();
    // The previous body's buffer is reused: no allocation (and no malloc_consolidate, which glibc
    // runs on every large request) per request for bodies of typical size.
    parser_.emplace(std::piecewise_construct, std::make_tuple(std::move(spare_body_)));
    // The parser's limit is the largest allowed body; controller-runtime refuses 7 MiB and more.
    parser_->body_limit(admission::max_request_bytes - 1);
    parser_->header_limit(static_cast<std::uint32_t>(state_.options().header_limit));
    // Between requests the keep-alive idle timeout applies (above the client's 90 s).
    set_deadline(state_.options().idle_timeout);
    idle_ = true;
    http::async_read_header(derived().stream(), buffer_, *parser_,
                            beast::bind_front_handler(&http_session::on_header, derived().shared_from_this()));
}

template <class Derived>
void http_session<Derived>::on_header(beast::error_code ec, std::size_t)
{
    idle_ = false;
    if (ec == http::error::end_of_stream || (ec == boost::asio::error::operation_aborted && stopping_))
        return derived().do_eof();
    if (ec)
        return void(answer_read_error(ec));
    const auto& req = parser_->get();
    route_ = route_request(role_, req.method(), {req.target().data(), req.target().size()});
    if (route_.what == endpoint::review) {
        request_ = active_request{route_.webhook, std::chrono::steady_clock::now(), true};
        state_.stats().begin_request(route_.webhook);
    }
    set_deadline(state_.options().read_timeout);
    // curl and other clients wait for "100 Continue" before sending a larger body.
    if (beast::iequals(req[http::field::expect], "100-continue") && !parser_->is_done()) {
        continue_ = {http::status::continue_, req.version()};
        return http::async_write(derived().stream(), continue_,
                                 beast::bind_front_handler(&http_session::on_continue, derived().shared_from_this()));
    }
    read_body();
}

template <class Derived>
void http_session<Derived>::on_continue(beast::error_code ec, std::size_t)
{
    if (ec)
        return release_request();
    read_body();
}

template <class Derived>
void http_session<Derived>::read_body()
{
    // The body usually arrives with the header (one TLS record): parse what is buffered now instead
    // of going through async_read, whose completion is posted back through the scheduler.
    beast::error_code ec;
    while (!parser_->is_done() && buffer_.size() > 0) {
        const std::size_t n = parser_->put(buffer_.data(), ec);
        buffer_.consume(n);
        if (ec == http::error::need_more)
            ec = {};
        if (ec || n == 0)
            break;
    }
    if (ec || parser_->is_done())
        return on_body(ec, 0);
    http::async_read(derived().stream(), buffer_, *parser_,
                     beast::bind_front_handler(&http_session::on_body, derived().shared_from_this()));
}

template <class Derived>
void http_session<Derived>::on_body(beast::error_code ec, std::size_t)
{
    if (ec && !answer_read_error(ec))
        return release_request();
    if (ec)
        return;
    auto req = parser_->release();
    const auto started = request_ ? request_->started : std::chrono::steady_clock::now();
    if (request_)
        request_->counted = false; // respond() records the end of the request
    request_.reset();
    http_response res;
    try {
        res = respond(state_, route_, req, started);
    } catch (const std::exception& e) { // out of memory while answering: never out of a handler
        state_.log().error("cannot answer a request", "error=" + logger::quote(e.what()));
        res = transport_error(500, req.version());
    }
    if (req.body().capacity() <= spare_body_limit) {
        spare_body_ = std::move(req.body());
        spare_body_.clear();
    }
    send(std::move(res));
}

// Answers parse failures the client should hear about; returns false for transport errors
// (timeout, reset, TLS alert), after which the connection is simply dropped.
template <class Derived>
bool http_session<Derived>::answer_read_error(beast::error_code ec)
{
    const unsigned status = read_error_status(ec);
    if (status == 0) {
        if (state_.log().enabled(2) && reason(ec) != boost::asio::error::operation_aborted)
            state_.log().info("connection closed", "error=" + logger::quote(reason(ec).message()));
        return false;
    }
    release_request();
    send(transport_error(status));
    return true;
}

template <class Derived>
void http_session<Derived>::send(http_response&& res)
{
    const bool keep_alive = res.keep_alive();
    res_ = std::move(res);
    set_deadline(state_.options().write_timeout);
    http::async_write(derived().stream(), res_,
                      beast::bind_front_handler(&http_session::on_write, derived().shared_from_this(), keep_alive));
}

template <class Derived>
void http_session<Derived>::on_write(bool keep_alive, beast::error_code ec, std::size_t)
{
    if (ec)
        return;
    res_ = {};
    if (!keep_alive)
        return derived().do_eof();
    do_read();
}

template <class Derived>
void http_session<Derived>::release_request()
{
    if (request_ && request_->counted)
        state_.stats().abandon_request(request_->webhook);
    request_.reset();
}

} // namespace kpw::server
