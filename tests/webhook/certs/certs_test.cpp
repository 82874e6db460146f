// SPDX-License-Identifier: Apache-2.0
// certs: generated CA + serving certificates verified by a real OpenSSL/Asio TLS handshake.
#include "certs/certs.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl.hpp>
#include <doctest/doctest.h>

namespace net = boost::asio;
namespace ssl = boost::asio::ssl;
using tcp = net::ip::tcp;

namespace {

kpw::certs::bundle make_bundle(kpw::certs::key_algorithm alg = kpw::certs::key_algorithm::ecdsa_p256)
{
    kpw::certs::authority_options ca;
    ca.key.algorithm = alg;
    kpw::certs::serving_options leaf;
    leaf.dns_names = kpw::certs::service_dns_names("svc", "ns");
    leaf.ip_addresses = {"127.0.0.1", "::1"};
    leaf.key.algorithm = alg;
    auto b = kpw::certs::generate(ca, leaf);
    REQUIRE_MESSAGE(b.ok(), (b.ok() ? "" : b.error().message));
    return *b;
}

// Handshakes a server presenting `b` with a client trusting `trusted_ca` and checking `host`.
// Returns the client's error (empty on success).
boost::system::error_code handshake(const kpw::certs::bundle& b, const std::string& trusted_ca, const std::string& host)
{
    net::io_context ioc;
    ssl::context server_ctx(ssl::context::tls_server);
    server_ctx.use_certificate_chain(net::buffer(b.tls_crt));
    server_ctx.use_private_key(net::buffer(b.tls_key), ssl::context::pem);
    ssl::context client_ctx(ssl::context::tls_client);
    client_ctx.add_certificate_authority(net::buffer(trusted_ca));
    client_ctx.set_verify_mode(ssl::verify_peer);

    tcp::acceptor acceptor(ioc, {net::ip::make_address("127.0.0.1"), 0});
    ssl::stream<tcp::socket> server(ioc, server_ctx);
    ssl::stream<tcp::socket> client(ioc, client_ctx);
    client.set_verify_callback(ssl::host_name_verification(host));
    SSL_set_tlsext_host_name(client.native_handle(), host.c_str());

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
    return client_ec;
}

std::string slurp(const std::filesystem::path& p)
{
    std::ifstream in(p);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

} // namespace

TEST_CASE("an ECDSA serving certificate is accepted for the service DNS name svc.ns.svc")
{
    const auto b = make_bundle();
    CHECK(b.tls_crt.starts_with("-----BEGIN CERTIFICATE-----"));
    CHECK(b.tls_key.starts_with("-----BEGIN PRIVATE KEY-----"));
    CHECK_FALSE(handshake(b, b.ca_crt, "svc.ns.svc"));
    CHECK_FALSE(handshake(b, b.ca_crt, "svc.ns.svc.cluster.local"));
}

TEST_CASE("the serving certificate is rejected for a name it does not carry")
{
    const auto b = make_bundle();
    CHECK(handshake(b, b.ca_crt, "other.ns.svc"));
    CHECK(handshake(b, b.ca_crt, "svc.other.svc"));
}

TEST_CASE("the serving certificate is rejected by a client trusting another CA")
{
    const auto b = make_bundle();
    const auto other = make_bundle();
    CHECK(handshake(b, other.ca_crt, "svc.ns.svc"));
}

TEST_CASE("an RSA bundle verifies for an IP address SAN")
{
    const auto b = make_bundle(kpw::certs::key_algorithm::rsa);
    CHECK(b.tls_key.starts_with("-----BEGIN PRIVATE KEY-----"));
    CHECK_FALSE(handshake(b, b.ca_crt, "127.0.0.1"));
    CHECK(handshake(b, b.ca_crt, "127.0.0.2"));
}

TEST_CASE("a second serving certificate issued by the same CA verifies against it")
{
    const auto b = make_bundle();
    kpw::certs::serving_options leaf;
    leaf.dns_names = {"svc.ns.svc"};
    auto next = kpw::certs::issue_serving({b.ca_crt, b.ca_key}, leaf);
    REQUIRE(next.ok());
    CHECK(next->crt != b.tls_crt);
    CHECK_FALSE(handshake({b.ca_crt, b.ca_key, next->crt, next->key}, b.ca_crt, "svc.ns.svc"));
}

TEST_CASE("bad options are refused with a message")
{
    kpw::certs::serving_options leaf;
    CHECK_FALSE(kpw::certs::generate({}, leaf).ok()); // no SAN at all
    leaf.dns_names = {"bad name"};
    auto r = kpw::certs::generate({}, leaf);
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().message == "invalid DNS name \"bad name\"");
    leaf.dns_names = {"ok.svc"};
    leaf.ip_addresses = {"300.1.1.1"};
    CHECK_FALSE(kpw::certs::generate({}, leaf).ok());
    leaf.ip_addresses.clear();
    leaf.key = {kpw::certs::key_algorithm::rsa, 1024};
    CHECK_FALSE(kpw::certs::generate({}, leaf).ok());
    CHECK_FALSE(kpw::certs::issue_serving({"garbage", "garbage"}, {}).ok());
}

TEST_CASE("write_bundle writes ca.crt, tls.crt and a 0600 tls.key")
{
    const auto b = make_bundle();
    const auto dir = std::filesystem::temp_directory_path() / ("kpw-certs-test-" + std::to_string(::getpid()));
    std::filesystem::remove_all(dir);
    auto w = kpw::certs::write_bundle(b, dir / "sub");
    REQUIRE(w.ok());
    CHECK(slurp(w->ca_crt) == b.ca_crt);
    CHECK(slurp(w->tls_crt) == b.tls_crt);
    CHECK(slurp(w->tls_key) == b.tls_key);
    CHECK(w->ca_key.empty());
    CHECK_FALSE(std::filesystem::exists(dir / "sub" / "ca.key"));
    struct stat st {};
    REQUIRE(::stat(w->tls_key.c_str(), &st) == 0);
    CHECK((st.st_mode & 0777) == 0600);
    REQUIRE(::stat(w->tls_crt.c_str(), &st) == 0);
    CHECK((st.st_mode & 0777) == 0644);
    std::filesystem::remove_all(dir);
}
