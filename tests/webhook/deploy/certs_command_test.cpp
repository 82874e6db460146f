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

#include <doctest/doctest.h>
#include <openssl/evp.h>
#include <openssl/x509_vfy.h>

#include "doc/load.hpp"
#include "support/process.hpp"
#include "support/temp_dir.hpp"
#include "support/tls_handshake.hpp"

namespace fs = std::filesystem;
using kpw::test::run_process;
using kpw::test::temp_dir;
const auto handshake = kpw::test::verify_like_apiserver;

namespace {


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
