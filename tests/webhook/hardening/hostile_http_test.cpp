// SPDX-License-Identifier: Apache-2.0
// Hostile HTTP framing over TLS: 8 MiB bodies, 200 KB headers, Content-Length lies, smuggling shapes,
// pipelining. Each is answered or dropped, never hangs the server, and a normal review is served after.
#include <csignal>
#include <cstdio>
#include <initializer_list>
#include <vector>

#include <doctest/doctest.h>

#include "hardening_support.hpp"

using namespace kpw::test;
namespace http = boost::beast::http;

namespace {

constexpr std::size_t mib = 1024 * 1024;
constexpr char nul_in_header[] = "POST /validate HTTP/1.1\r\nHost: a\0b\r\n\r\n";

std::string v1_review(std::string_view uid)
{
    return review("admission.k8s.io/v1", uid, "CREATE", "PropagationPolicy", admitted_pp);
}

// Writes `head` and then `body_bytes` of body in 256 KiB pieces, stopping at the first write error
// (the server may close as soon as it has refused the request). Returns whether all was written.
bool write_streaming(tls_client& c, const std::string& head, std::size_t body_bytes, bool chunked)
{
    if (c.write_raw(head))
        return false;
    const std::size_t piece = 256 * 1024;
    for (std::size_t sent = 0; sent < body_bytes; sent += piece) {
        std::string data(piece, 'x');
        if (chunked) {
            char size[32];
            std::snprintf(size, sizeof size, "%zx\r\n", piece);
            data = size + data + "\r\n";
        }
        if (c.write_raw(data))
            return false;
    }
    return !chunked || !c.write_raw("0\r\n\r\n");
}

// Receives one reply per uid, checking each is that review's, allowed; returns whether each kept
// the connection alive.
std::vector<bool> check_answered_in_order(tls_client& c, std::initializer_list<const char*> uids)
{
    std::vector<bool> keep_alive;
    for (const char* uid : uids) {
        response res;
        REQUIRE_FALSE(c.receive(res));
        const decision d = decode_reply(res);
        CHECK(d.uid == uid);
        CHECK(d.allowed);
        keep_alive.push_back(res.keep_alive());
    }
    return keep_alive;
}

} // namespace

TEST_CASE("an 8 MiB body is refused with 413 whether announced or streamed")
{
    serve_process s;
    SUBCASE("Content-Length announces 8 MiB: 413 as soon as the header is read")
    {
        auto c = tls_connect(s);
        REQUIRE_FALSE(c->write_raw("POST /validate HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
                                   "Content-Length: " + std::to_string(8 * mib) + "\r\n\r\n"));
        response res;
        REQUIRE_FALSE(c->receive(res));
        CHECK(res.result() == http::status::payload_too_large);
        CHECK(decode_reply(res).code == 413);
        CHECK_FALSE(res.keep_alive());
    }
    SUBCASE("Content-Length 8 MiB and the whole body sent")
    {
        auto c = tls_connect(s);
        const bool all = write_streaming(*c, "POST /validate HTTP/1.1\r\nHost: localhost\r\nContent-Length: " +
                                                 std::to_string(8 * mib) + "\r\n\r\n", 8 * mib, false);
        response res;
        const bool answered = !c->receive(res);
        // Either the 413 arrived, or the server closed while the client was still writing.
        CHECK((answered ? res.result() == http::status::payload_too_large : !all));
    }
    SUBCASE("8 MiB chunked, no Content-Length: the body limit still applies")
    {
        auto c = tls_connect(s);
        const bool all = write_streaming(*c, "POST /validate HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
                                             "Transfer-Encoding: chunked\r\n\r\n", 8 * mib, true);
        response res;
        const bool answered = !c->receive(res);
        CHECK((answered ? res.result() == http::status::payload_too_large : !all));
    }
    check_still_serving(s);
}

TEST_CASE("200 KB of headers are refused with 431, as one header or as many")
{
    serve_process s;
    const std::string one_line = "X-Big: " + std::string(200 * 1024, 'a') + "\r\n";
    std::string many_lines;
    for (int i = 0; many_lines.size() < 200 * 1024; ++i)
        many_lines += "X-H" + std::to_string(i) + ": " + std::string(1000, 'b') + "\r\n";
    for (const std::string& headers : {one_line, many_lines}) {
        auto c = tls_connect(s);
        const bool all = !c->write_raw("POST /validate HTTP/1.1\r\nHost: localhost\r\n" + headers + "\r\n");
        response res;
        const bool answered = !c->receive(res);
        CHECK((answered ? res.result() == http::status::request_header_fields_too_large : !all));
        check_still_serving(s);
    }
}

TEST_CASE("Content-Length lies: a short body waits alone, a long one is read as the next request")
{
    serve_process s;
    SUBCASE("Content-Length larger than what is sent: the liar waits, others are served")
    {
        auto liar = tls_connect(s);
        REQUIRE_FALSE(liar->write_raw("POST /validate HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
                                      "Content-Length: 100000\r\n\r\n{\"apiVersion\":"));
        CHECK(check_still_serving(s) < std::chrono::seconds(2));
        liar->close();
    }
    SUBCASE("Content-Length smaller than the body: the rest is a malformed next request")
    {
        auto c = tls_connect(s);
        const std::string body = v1_review("short");
        REQUIRE_FALSE(c->write_raw("POST /validate HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
                                   "Content-Length: 20\r\n\r\n" + body));
        response first, second;
        REQUIRE_FALSE(c->receive(first));
        CHECK(first.result() == http::status::ok);
        CHECK(decode_reply(first).code == 400);
        REQUIRE_FALSE(c->receive(second));
        CHECK(second.result() == http::status::bad_request);
        CHECK_FALSE(second.keep_alive());
    }
    SUBCASE("malformed Content-Length values are 400 and close the connection")
    {
        for (const char* cl : {"Content-Length: abc\r\n", "Content-Length: -5\r\n",
                               "Content-Length: 18446744073709551617\r\n", "Content-Length: 2\r\nContent-Length: 3\r\n",
                               "Content-Length: 2\r\nTransfer-Encoding: chunked\r\n"}) {
            CAPTURE(cl);
            auto c = tls_connect(s);
            REQUIRE_FALSE(c->write_raw(std::string("POST /validate HTTP/1.1\r\nHost: localhost\r\n") + cl + "\r\n{}"));
            response res;
            REQUIRE_FALSE(c->receive(res));
            CHECK(res.result() == http::status::bad_request);
            CHECK_FALSE(res.keep_alive());
        }
    }
    check_still_serving(s);
}

TEST_CASE("pipelined reviews are answered in order; nothing after Connection: close is read")
{
    serve_process s;
    auto c = tls_connect(s);
    REQUIRE_FALSE(c->write_raw(post_bytes(v1_review("p1")) + post_bytes(v1_review("p2")) +
                               post_bytes(v1_review("p3"), "Connection: close\r\n") + post_bytes(v1_review("p4"))));
    check_answered_in_order(*c, {"p1", "p2", "p3"});
    CHECK(c->closed_by_peer());
    check_still_serving(s);
}

TEST_CASE("pipelined reviews split into TLS records of 1 to 97 bytes are answered in order")
{
    serve_process s;
    auto c = tls_connect(s);
    const std::string bytes = post_bytes(v1_review("s1")) + post_bytes(v1_review("s2")) + post_bytes(v1_review("s3"));
    // Every split point the reader can meet: inside the request line, a header, the blank line,
    // the body and between requests. Each write_raw is one TLS record.
    std::size_t size = 1;
    for (std::size_t at = 0; at < bytes.size(); at += size) {
        size = 1 + (at * 7919 + size * 31) % 97;
        REQUIRE_FALSE(c->write_raw(bytes.substr(at, size)));
    }
    CHECK(check_answered_in_order(*c, {"s1", "s2", "s3"}) == std::vector<bool>{true, true, true});
    check_still_serving(s);
}

TEST_CASE("garbage request lines and headers are 400 and the connection closes")
{
    serve_process s;
    for (const std::string& bytes :
         {std::string("\x16\x03\x01garbage\r\n\r\n"), std::string("POST /validate HTTP/9.9\r\n\r\n"),
          std::string("POST  HTTP/1.1\r\n\r\n"), std::string("POST /validate HTTP/1.1\r\nBad Header\r\n\r\n"),
          std::string(nul_in_header, sizeof nul_in_header - 1),
          std::string("POST /vali\x01" "date HTTP/1.1\r\n\r\n")}) {
        CAPTURE(bytes);
        auto c = tls_connect(s);
        REQUIRE_FALSE(c->write_raw(bytes));
        response res;
        REQUIRE_FALSE(c->receive(res));
        CHECK(res.result() == http::status::bad_request);
        CHECK(c->closed_by_peer());
    }
    check_still_serving(s);
    s.signal(SIGTERM);
    CHECK(s.wait_exit() == 0);
}
