// SPDX-License-Identifier: Apache-2.0
// http_session<Derived> definitions; included only by the .cpp files that instantiate it.
#pragma once

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
    return buffer_.size() > 0 || beast::get_lowest_layer(derived().stream()).socket().available(ec) > 0;
}

template <class Derived>
void http_session<Derived>::do_read()
{
    if (stopping_ && !next_request_started())
        return derived().do_eof();
    parser_.emplace();
    // The parser's limit is the largest allowed body; controller-runtime refuses 7 MiB and more.
    parser_->body_limit(admission::max_request_bytes - 1);
    parser_->header_limit(static_cast<std::uint32_t>(state_.options().header_limit));
    // Between requests the keep-alive idle timeout applies (above the client's 90 s).
    beast::get_lowest_layer(derived().stream()).expires_after(state_.options().idle_timeout);
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
    beast::get_lowest_layer(derived().stream()).expires_after(state_.options().read_timeout);
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
    send(std::move(res));
}

// Answers parse failures the client should hear about; returns false for transport errors
// (timeout, reset, TLS alert), after which the connection is simply dropped.
template <class Derived>
bool http_session<Derived>::answer_read_error(beast::error_code ec)
{
    const unsigned status = read_error_status(ec);
    if (status == 0) {
        if (state_.log().enabled(2) && ec != boost::asio::error::operation_aborted)
            state_.log().info("connection closed", "error=" + logger::quote(ec.message()));
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
    beast::get_lowest_layer(derived().stream()).expires_after(state_.options().write_timeout);
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
