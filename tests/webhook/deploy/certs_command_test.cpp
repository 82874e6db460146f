// SPDX-License-Identifier: Apache-2.0
// `certs` end to end: the files it writes serve TLS that a client verifying like kube-apiserver accepts.
#include <sys/stat.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl.hpp>
#include <doctest/doctest.h>
#include <openssl/evp.h>
#include <openssl/x509v3.h>

#include "doc/load.hpp"
#include "support/process.hpp"

namespace fs = std::filesystem;
namespace net = boost::asio;
namespace ssl = boost::asio::ssl;
using kpw::test::run_process;

namespace {

struct temp_dir {
    fs::path path;
    temp_dir()
    {
        std::string tmpl = (fs::temp_directory_path() / "kpw-certs-XXXXXX").string();
        path = ::mkdtemp(tmpl.data());
    }
    ~temp_dir() { fs::remove_all(path); }
    temp_dir(const temp_dir&) = delete;
    temp_dir& operator=(const temp_dir&) = delete;
};

std::string read(const fs::path& p)
{
    std::ifstream in(p, std::ios::binary);
    REQUIRE_MESSAGE(in, p.string());
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

kpw::test::process_result certs(const fs::path& out, std::vector<std::string> extra = {})
{
    std::vector<std::string> args = {KPW_BINARY, "certs", "--service", "karmada-policy-webhook", "--namespace",
                                     "karmada-system", "--out", out.string()};
    args.insert(args.end(), extra.begin(), extra.end());
    return run_process(args);
}

std::string base64_decode(std::string text)
{
    while (!text.empty() && (text.back() == '\n' || text.back() == '\r'))
        text.pop_back();
    std::string out(text.size(), '\0');
    const int n = EVP_DecodeBlock(reinterpret_cast<unsigned char*>(out.data()),
                                  reinterpret_cast<const unsigned char*>(text.data()), static_cast<int>(text.size()));
    REQUIRE(n >= 0);
    out.resize(static_cast<std::size_t>(n));
    const auto padding = static_cast<std::size_t>(std::count(text.end() - std::min<std::ptrdiff_t>(2, std::ssize(text)),
                                                             text.end(), '='));
    out.resize(out.size() - padding); // EVP_DecodeBlock counts the padding as zero bytes
    return out;
}

bool is_ip(const std::string& host)
{
    boost::system::error_code ec;
    net::ip::make_address(host, ec);
    return !ec;
}

// One TLS handshake over loopback: the server presents crt/key; the client verifies as kube-apiserver's
// Go client does: chain to `ca_pem` only, `host` must be a SAN (DNS or IP), the subject CN is never
// consulted, and the certificate must allow serverAuth. Returns OpenSSL's verify result: X509_V_OK when
// accepted, X509_V_ERR_HOSTNAME_MISMATCH, ...
long handshake(const std::string& crt, const std::string& key, const std::string& ca_pem,
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

struct made {
    std::string ca, crt, key;
};

made make_certs(const temp_dir& dir, std::vector<std::string> extra = {})
{
    const auto r = certs(dir.path, std::move(extra));
    REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    return {read(dir.path / "ca.crt"), read(dir.path / "tls.crt"), read(dir.path / "tls.key")};
}

// The host of the manifests' clientConfig.url: what karmada-apiserver will verify.
std::string webhook_url_host()
{
    auto docs = kpw::doc::load_yaml(
        read(fs::path(KPW_SOURCE_ROOT) / "manifests/karmada-apiserver/validating-webhook-configuration.yaml"));
    REQUIRE(docs.ok());
    const auto& hooks = docs->at(0).root.find("webhooks")->items();
    std::string url(hooks.at(0).find_path({"clientConfig", "url"})->text());
    REQUIRE(url.starts_with("https://"));
    url = url.substr(8);
    return url.substr(0, url.find_first_of(":/"));
}

} // namespace

TEST_CASE("certs writes ca.crt, tls.crt and tls.key (0600) and prints the CA as one base64 line")
{
    const temp_dir dir;
    const auto r = certs(dir.path / "pki");
    REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    for (const char* f : {"ca.crt", "tls.crt", "tls.key"})
        CHECK(fs::exists(dir.path / "pki" / f));
    struct stat st {};
    REQUIRE(::stat((dir.path / "pki" / "tls.key").c_str(), &st) == 0);
    CHECK((st.st_mode & 0777) == 0600);
    CHECK(std::count(r.out.begin(), r.out.end(), '\n') == 1);
    CHECK(base64_decode(r.out) == read(dir.path / "pki" / "ca.crt"));
    CHECK(read(dir.path / "pki" / "ca.crt").starts_with("-----BEGIN CERTIFICATE-----"));
}

TEST_CASE("a client verifying like kube-apiserver accepts the certificate for the Service names and every --host")
{
    const temp_dir dir;
    const made m = make_certs(dir, {"--host", "webhook.example.com", "--host", "127.0.0.1", "--host", "::1"});
    for (const std::string host : {"karmada-policy-webhook.karmada-system.svc",
                                   "karmada-policy-webhook.karmada-system.svc.cluster.local", "webhook.example.com",
                                   "127.0.0.1", "::1"}) {
        CAPTURE(host);
        CHECK(handshake(m.crt, m.key, m.ca, host) == X509_V_OK);
    }
}

TEST_CASE("the same client rejects another name, another CA and a certificate with only a CN")
{
    const temp_dir dir, other;
    const made m = make_certs(dir);
    const made o = make_certs(other);
    CHECK(handshake(m.crt, m.key, m.ca, "other.karmada-system.svc") == X509_V_ERR_HOSTNAME_MISMATCH);
    CHECK(handshake(m.crt, m.key, m.ca, "10.0.0.1") == X509_V_ERR_IP_ADDRESS_MISMATCH); // no IP SAN without --host
    CHECK(handshake(m.crt, m.key, o.ca, "karmada-policy-webhook.karmada-system.svc") ==
          X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT_LOCALLY);

    // A CN-only certificate (the `x509: certificate relies on legacy Common Name field` case) must fail too,
    // or the checks above would prove nothing about SANs.
    const std::string host = "karmada-policy-webhook.karmada-system.svc";
    const auto r = run_process({"/usr/bin/openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt",
                                "ec_paramgen_curve:prime256v1", "-nodes", "-days", "1", "-subj", "/CN=" + host,
                                "-keyout", (other.path / "cn.key").string(), "-out", (other.path / "cn.crt").string()});
    REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    const std::string cn_crt = read(other.path / "cn.crt");
    CHECK(handshake(cn_crt, read(other.path / "cn.key"), cn_crt, host) == X509_V_ERR_HOSTNAME_MISMATCH);
}

TEST_CASE("the manifests' webhook URL host is covered by what the README's certs command makes")
{
    const temp_dir dir;
    const made m = make_certs(dir);
    const std::string host = webhook_url_host();
    CHECK(host == "karmada-policy-webhook.karmada-system.svc");
    CHECK(handshake(m.crt, m.key, m.ca, host) == X509_V_OK);
}

TEST_CASE("certs usage errors are exit 2 and write nothing")
{
    const temp_dir dir;
    CHECK(run_process({KPW_BINARY, "certs", "--namespace", "ns", "--out", dir.path.string()}).exit_code == 2);
    CHECK(certs(dir.path / "x", {"--days", "0"}).exit_code == 2);
    CHECK(!fs::exists(dir.path / "x"));
    CHECK(!fs::exists(dir.path / "tls.key"));
}
