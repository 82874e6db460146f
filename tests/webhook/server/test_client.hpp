// SPDX-License-Identifier: Apache-2.0
// Boost.Beast clients for the integration tests: a TLS client (keep-alive, raw writes) and plain GET.
#pragma once

#include <string>
#include <vector>

#include <boost/asio/io_context.hpp>
#include <boost/asio/ssl/context.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/http/message.hpp>
#include <boost/beast/http/string_body.hpp>
#include <boost/beast/ssl/ssl_stream.hpp>

namespace kpw::test {

using response = boost::beast::http::response<boost::beast::http::string_body>;
using request = boost::beast::http::request<boost::beast::http::string_body>;

// Every operation is bounded by a 10 s deadline (a hung server fails the test, never hangs it).
class tls_client {
public:
    struct options {
        std::string ca_pem;                          // trusted CA
        std::string host = "localhost";              // SNI and verified name
        std::vector<std::string> alpn = {"http/1.1"}; // what kube-apiserver offers
    };

    tls_client(unsigned short port, options o);

    // A certificate and key (PEM) that connect() presents when the server asks for one (mTLS).
    void present_certificate(std::string crt_pem, std::string key_pem);

    // TCP connect + TLS handshake verifying the CA and host name.
    boost::system::error_code connect();
    // One request on the (kept-alive) connection; throws on a transport error.
    response post(const std::string& target, const std::string& body,
                  const std::string& content_type = "application/json");
    response get(const std::string& target);
    boost::system::error_code send(const request& req);
    boost::system::error_code write_raw(const std::string& bytes);
    boost::system::error_code receive(response& out);
    // Whether the server closed the connection (reads EOF / close_notify).
    bool closed_by_peer();
    // Closes the TCP connection (no close_notify), as a client does after "Connection: close".
    void close();
    // Aborts the TCP connection (RST, via SO_LINGER 0).
    void reset();

    std::string selected_alpn();
    std::string peer_certificate_pem();

private:
    template <class Op>
    boost::system::error_code run(Op op);

    unsigned short port_;
    options options_;
    std::string client_crt_pem_, client_key_pem_;
    boost::asio::io_context ioc_;
    boost::asio::ssl::context ctx_;
    boost::beast::ssl_stream<boost::beast::tcp_stream> stream_;
    boost::beast::flat_buffer buffer_;
};

// A complete AdmissionReview JSON text.
std::string review(std::string_view api_version, std::string_view uid, std::string_view operation,
                   std::string_view kind, std::string_view object, std::string_view old_object = "null");

// A plain-HTTP GET (probe and metrics ports); throws on a transport error.
response http_get(unsigned short port, const std::string& target);

} // namespace kpw::test
