// SPDX-License-Identifier: Apache-2.0
// Building HTTP responses from routes.
#include "server/responder.hpp"

#include <boost/beast/core/buffers_range.hpp>
#include <boost/beast/http/error.hpp>
#include <boost/beast/http/serializer.hpp>

#include "admission/review_endpoint.hpp"

namespace kpw::server {
namespace {

namespace http = boost::beast::http;

http_response make(http::status status, std::string body, std::string_view content_type, const http_request& req,
                   bool keep_alive)
{
    http_response res{status, req.version()};
    res.set(http::field::content_type, content_type);
    res.keep_alive(keep_alive);
    res.body() = std::move(body);
    res.prepare_payload();
    if (req.method() == http::verb::head)
        res.body().clear(); // Content-Length stays that of the GET answer
    return res;
}

http_response serve_review(server_state& state, webhook_path w, http_request& req,
                           std::chrono::steady_clock::time_point started, bool keep_alive)
{
    const auto content_type = req[http::field::content_type];
    admission::review_outcome out;
    try {
        out = admission::serve_review(state.handler(w), {content_type.data(), content_type.size()}, req.body());
    } catch (...) { // out of memory: the session answers 500; the request must leave the gauge
        state.stats().abandon_request(w);
        throw;
    }
    const auto latency = std::chrono::steady_clock::now() - started;
    state.stats().end_request(w, 200, latency, out.res.causes);
    state.log().review(path_of(w), out, latency);
    return make(http::status::ok, std::move(out.body), "application/json", req, keep_alive);
}

} // namespace

http_response respond(server_state& state, const route& r, http_request& req,
                      std::chrono::steady_clock::time_point started)
{
    const bool keep_alive = req.keep_alive() && !state.draining();
    switch (r.what) {
    case endpoint::review:
        return serve_review(state, r.webhook, req, started, keep_alive);
    case endpoint::readyz:
        return state.ready() ? make(http::status::ok, "ok", "text/plain; charset=utf-8", req, keep_alive)
                             : make(http::status::service_unavailable, "not ready: shutting down or starting\n",
                                    "text/plain; charset=utf-8", req, keep_alive);
    case endpoint::healthz:
        return make(http::status::ok, "ok", "text/plain; charset=utf-8", req, keep_alive);
    case endpoint::metrics:
        return make(http::status::ok, state.stats().render(), "text/plain; version=0.0.4; charset=utf-8", req,
                    keep_alive);
    case endpoint::not_found:
        return make(http::status::not_found, "404 page not found\n", "text/plain; charset=utf-8", req, keep_alive);
    case endpoint::method_not_allowed:
        break;
    }
    http_response res = make(http::status::method_not_allowed, "405 method not allowed\n", "text/plain; charset=utf-8",
                             req, keep_alive);
    res.set(http::field::allow, r.allow);
    return res;
}

http_response transport_error(unsigned status, unsigned version)
{
    http_response res{static_cast<http::status>(status), version};
    if (status == 413) {
        res.set(http::field::content_type, "application/json");
        res.body() = admission::too_large_review();
    } else {
        res.set(http::field::content_type, "text/plain; charset=utf-8");
        res.body() = std::string(http::obsolete_reason(res.result())) + "\n";
    }
    res.keep_alive(false);
    res.prepare_payload();
    return res;
}

void serialize(http_response& res, std::string& out)
{
    http::response_serializer<http::string_body> sr{res};
    boost::beast::error_code ec;
    while (!ec && !sr.is_done()) {
        std::size_t n = 0;
        sr.next(ec, [&](boost::beast::error_code&, const auto& buffers) {
            for (const auto b : boost::beast::buffers_range_ref(buffers)) {
                out.append(static_cast<const char*>(b.data()), b.size());
                n += b.size();
            }
        });
        sr.consume(n);
    }
}

unsigned read_error_status(boost::beast::error_code ec)
{
    if (ec == http::error::body_limit)
        return 413;
    if (ec == http::error::header_limit)
        return 431;
    if (ec.category() == boost::beast::error_code(http::error::bad_target).category() && ec != http::error::partial_message)
        return 400;
    return 0;
}

} // namespace kpw::server
