// SPDX-License-Identifier: Apache-2.0
// Fuzz target (3): raw bytes from a webhook connection -> Beast's request parser -> router -> responder,
// exactly as http_session reads (header, route, body), without sockets: the bytes are the whole
// connection, and the end of the bytes is the client closing it.
#include <sstream>

#include <boost/asio/buffer.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/http/error.hpp>
#include <boost/beast/http/parser.hpp>
#include <boost/beast/http/write.hpp>

#include "admission/review_endpoint.hpp"
#include "doc/load.hpp"
#include "server/responder.hpp"
#include "targets.hpp"

namespace kpw::fuzz {
namespace {

namespace beast = boost::beast;
namespace http = boost::beast::http;
using parser_type = http::request_parser<http::string_body>;

constexpr std::string_view name = "http_request";
constexpr int max_pipelined = 8;

server::server_state& state()
{
    // Never destroyed: libFuzzer exits from inside the loop, and the state holds no OS resources.
    static auto* s = new server::server_state(server::serve_options{}, "fuzz");
    return *s;
}

// Feeds the buffered bytes to the parser until it has the header (or the whole message); running out
// of bytes is the client closing the connection.
void feed(parser_type& p, beast::flat_buffer& buffer, bool whole_message, beast::error_code& ec)
{
    while (!(whole_message ? p.is_done() : p.is_header_done())) {
        if (buffer.size() == 0)
            return p.put_eof(ec);
        const std::size_t used = p.put(buffer.data(), ec);
        buffer.consume(used);
        if (ec == http::error::need_more) {
            ec = {};
            if (used == 0) // the header is incomplete and nothing more will come
                return p.put_eof(ec);
        } else if (ec) {
            return;
        }
    }
}

void check_response(const server::route& r, const server::http_response& res, bool has_body)
{
    std::ostringstream wire;
    wire << res; // what would be written to the socket
    if (r.what != server::endpoint::review)
        return;
    if (res.result() != http::status::ok || res[http::field::content_type] != "application/json")
        invariant_failed(name, "a review was not answered with 200 application/json");
    if (!has_body)
        return;
    auto parsed = doc::parse_json(res.body());
    // Its apiVersion and kind echo the request's, whatever they were (admission_review_target checks them).
    if (!parsed || !parsed->is_mapping() || !parsed->find("response"))
        invariant_failed(name, "a review was not answered with an AdmissionReview");
}

// One request off the connection; returns whether the connection stays open for the next one.
bool serve_one(beast::flat_buffer& buffer)
{
    auto& st = state();
    parser_type p;
    p.body_limit(admission::max_request_bytes - 1);
    p.header_limit(static_cast<std::uint32_t>(st.options().header_limit));
    beast::error_code ec;
    feed(p, buffer, false, ec);
    server::route r;
    bool counted = false;
    if (!ec) {
        const auto& req = p.get();
        r = server::route_request(server::port_role::webhook, req.method(), {req.target().data(), req.target().size()});
        if ((counted = r.what == server::endpoint::review))
            st.stats().begin_request(r.webhook);
        feed(p, buffer, true, ec);
    }
    if (ec) {
        if (counted)
            st.stats().abandon_request(r.webhook);
        const unsigned status = server::read_error_status(ec);
        if (status != 0 && status != 400 && status != 413 && status != 431)
            invariant_failed(name, "a read error mapped to an unexpected status");
        if (status != 0)
            check_response(r = {}, server::transport_error(status), true);
        return false;
    }
    auto req = p.release();
    const bool head = req.method() == http::verb::head;
    const server::http_response res = server::respond(st, r, req, std::chrono::steady_clock::now());
    check_response(r, res, !head);
    return res.keep_alive();
}

} // namespace

int http_request(bytes data)
{
    beast::flat_buffer buffer;
    buffer.commit(boost::asio::buffer_copy(buffer.prepare(data.size()), boost::asio::buffer(data.data(), data.size())));
    for (int i = 0; i < max_pipelined && buffer.size() > 0; ++i)
        if (!serve_one(buffer))
            break;
    return 0;
}

} // namespace kpw::fuzz
