// SPDX-License-Identifier: Apache-2.0
// certs: generated CA + serving certificates verified by a real OpenSSL/Asio TLS handshake.
#include "certs/certs.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <doctest/doctest.h>
#include <openssl/x509_vfy.h>

#include "support/tls_handshake.hpp"


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

// Whether a client verifying like kube-apiserver (trusting only `trusted_ca`, `host` a SAN) REJECTS
// a server presenting `b`: true on failure, like the error code it replaces.
bool handshake(const kpw::certs::bundle& b, const std::string& trusted_ca, const std::string& host)
{
    return kpw::test::verify_like_apiserver(b.tls_crt, b.tls_key, trusted_ca, host) != X509_V_OK;
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
