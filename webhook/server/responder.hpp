// SPDX-License-Identifier: Apache-2.0
// The response to one complete HTTP request: admission reviews, probes, metrics, 404/405.
#pragma once

#include <chrono>
#include <string>

#include <boost/beast/core/error.hpp>
#include <boost/beast/http/message.hpp>
#include <boost/beast/http/string_body.hpp>

#include "server/router.hpp"
#include "server/server_state.hpp"

namespace kpw::server {

using http_request = boost::beast::http::request<boost::beast::http::string_body>;
using http_response = boost::beast::http::response<boost::beast::http::string_body>;

// Serves `r` (from route_request) and records metrics and the log line for reviews. `started` is
// when the request's header arrived (controller-runtime times the whole handler, body read included).
// Keep-alive follows the request unless the server is draining. A review leaves the in-flight gauge
// here, also when answering it throws (out of memory).
http_response respond(server_state& state, const route& r, http_request& req,
                      std::chrono::steady_clock::time_point started);

// A reply for a request that could not be read or answered: 400 (malformed), 413 (body too large; its body is
// an AdmissionReview with code 413), 431 (header too large), 500. Always closes the connection.
http_response transport_error(unsigned status, unsigned version = 11);

// Appends `res` as HTTP/1.1 bytes to `out`: one buffer, so one TLS record and one write.
void serialize(http_response& res, std::string& out);

// The status transport_error answers a failed read with: 413 (body limit), 431 (header limit),
// 400 (malformed request); 0 for transport errors (timeout, reset, TLS alert, truncated message),
// after which the connection is simply dropped.
unsigned read_error_status(boost::beast::error_code ec);

} // namespace kpw::server
