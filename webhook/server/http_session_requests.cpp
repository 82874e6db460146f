// SPDX-License-Identifier: Apache-2.0
// What one request does to an HTTP session: parser set-up and limits, routing at the header, 100-continue,
// the answer, the replies to read failures; counted in the webhook's request metrics.
#include "server/http_session.hpp"

#include <chrono>
#include <exception>
#include <string_view>
#include <tuple>
#include <utility>

#include <boost/asio/error.hpp>
#include <boost/asio/ssl/error.hpp>
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

// The largest request body on the probe and metrics ports: their endpoints read none (as
// controller-runtime's), so a client there cannot make the server buffer megabytes.
constexpr std::uint64_t probe_body_limit = 4 * 1024;
constexpr std::string_view continue_reply = "HTTP/1.1 100 Continue\r\n\r\n";

} // namespace

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
void http_session<Transport>::release_request()
{
    if (request_ && request_->counted)
        state_.stats().abandon_request(request_->webhook);
    request_.reset();
}

// The members above, for both transports (the rest are instantiated with the class in http_session.cpp).
template void http_session<tls_transport>::begin_request();
template void http_session<tls_transport>::on_header();
template void http_session<tls_transport>::on_message();
template auto http_session<tls_transport>::on_read_failure(error_code ec) -> step;
template void http_session<tls_transport>::send(http_response&& res);
template void http_session<tls_transport>::release_request();
template void http_session<plain_transport>::begin_request();
template void http_session<plain_transport>::on_header();
template void http_session<plain_transport>::on_message();
template auto http_session<plain_transport>::on_read_failure(error_code ec) -> step;
template void http_session<plain_transport>::send(http_response&& res);
template void http_session<plain_transport>::release_request();

} // namespace kpw::server
