// SPDX-License-Identifier: Apache-2.0
#include "support/tls_handshake.hpp"

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl.hpp>
#include <doctest/doctest.h>
#include <openssl/x509v3.h>

namespace kpw::test {
namespace {

namespace net = boost::asio;
namespace ssl = boost::asio::ssl;

bool is_ip(const std::string& host)
{
    boost::system::error_code ec;
    net::ip::make_address(host, ec);
    return !ec;
}

} // namespace

long verify_like_apiserver(const std::string& crt, const std::string& key, const std::string& ca_pem,
                           const std::string& host)
{
    net::io_context ioc;
    ssl::context server_ctx(ssl::context::tls_server);
    server_ctx.use_certificate_chain(net::buffer(crt));
    server_ctx.use_private_key(net::buffer(key), ssl::context::pem);
    ssl::context client_ctx(ssl::context::tls_client);
    client_ctx.add_certificate_authority(net::buffer(ca_pem));
    client_ctx.set_verify_mode(ssl::verify_peer);

    net::ip::tcp::acceptor acceptor(ioc, {net::ip::make_address("127.0.0.1"), 0});
    ssl::stream<net::ip::tcp::socket> server(ioc, server_ctx);
    ssl::stream<net::ip::tcp::socket> client(ioc, client_ctx);
    X509_VERIFY_PARAM* param = SSL_get0_param(client.native_handle());
    X509_VERIFY_PARAM_set_hostflags(param, X509_CHECK_FLAG_NEVER_CHECK_SUBJECT);
    X509_VERIFY_PARAM_set_purpose(param, X509_PURPOSE_SSL_SERVER);
    if (is_ip(host)) {
        REQUIRE(X509_VERIFY_PARAM_set1_ip_asc(param, host.c_str()) == 1);
    } else {
        REQUIRE(X509_VERIFY_PARAM_set1_host(param, host.c_str(), 0) == 1);
        SSL_set_tlsext_host_name(client.native_handle(), host.c_str());
    }

    boost::system::error_code client_ec;
    acceptor.async_accept(server.next_layer(), [&](boost::system::error_code ec) {
        if (!ec)
            server.async_handshake(ssl::stream_base::server, [](boost::system::error_code) {});
    });
    client.next_layer().async_connect(acceptor.local_endpoint(), [&](boost::system::error_code ec) {
        if (ec) {
            client_ec = ec;
            return;
        }
        client.async_handshake(ssl::stream_base::client, [&](boost::system::error_code hec) {
            client_ec = hec;
            boost::system::error_code ignored;
            client.next_layer().close(ignored);
        });
    });
    ioc.run();
    const long verify = SSL_get_verify_result(client.native_handle());
    CHECK_MESSAGE((verify == X509_V_OK) == !client_ec, client_ec.message()); // no other failure than verification
    return verify;
}


} // namespace kpw::test
