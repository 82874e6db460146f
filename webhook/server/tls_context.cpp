// SPDX-License-Identifier: Apache-2.0
// TLS context construction with OpenSSL settings for an HTTP/1.1-only admission webhook.
#include "server/tls_context.hpp"

#include <cstring>
#include <string>

#include <openssl/ssl.h>

#include "certs/openssl_error.hpp"

namespace kpw::server {
namespace {

namespace ssl = boost::asio::ssl;

// Mozilla "intermediate" TLS 1.2 suites (ECDHE + AEAD only); TLS 1.3 suites are OpenSSL's defaults.
constexpr const char* tls12_ciphers = "ECDHE-ECDSA-AES128-GCM-SHA256:ECDHE-RSA-AES128-GCM-SHA256:"
                                      "ECDHE-ECDSA-AES256-GCM-SHA384:ECDHE-RSA-AES256-GCM-SHA384:"
                                      "ECDHE-ECDSA-CHACHA20-POLY1305:ECDHE-RSA-CHACHA20-POLY1305";

// kube-apiserver pins ALPN to http/1.1 except for loopback URLs, where it also offers h2
// (kubernetes PR #122558). Beast speaks HTTP/1.1 only: pick it or decline, never h2.
int select_alpn(SSL*, const unsigned char** out, unsigned char* outlen, const unsigned char* in, unsigned int inlen,
                void*)
{
    static constexpr unsigned char http11[] = {'h', 't', 't', 'p', '/', '1', '.', '1'};
    for (unsigned int i = 0; i < inlen;) {
        const unsigned int len = in[i];
        if (i + 1 + len > inlen)
            break;
        if (len == sizeof http11 && std::memcmp(in + i + 1, http11, len) == 0) {
            *out = in + i + 1;
            *outlen = static_cast<unsigned char>(len);
            return SSL_TLSEXT_ERR_OK;
        }
        i += 1 + len;
    }
    return SSL_TLSEXT_ERR_NOACK;
}

std::string load_identity(ssl::context& ctx, const tls_files& files)
{
    boost::system::error_code ec;
    ctx.use_certificate_chain_file(files.cert_file.string(), ec);
    if (ec)
        return certs::openssl_error("cannot load certificate " + files.cert_file.string());
    ctx.use_private_key_file(files.key_file.string(), ssl::context::pem, ec);
    if (ec)
        return certs::openssl_error("cannot load private key " + files.key_file.string());
    if (SSL_CTX_check_private_key(ctx.native_handle()) != 1)
        return certs::openssl_error("private key " + files.key_file.string() + " does not match certificate " +
                              files.cert_file.string());
    return {};
}

std::string load_client_ca(ssl::context& ctx, const std::filesystem::path& ca_file)
{
    boost::system::error_code ec;
    ctx.load_verify_file(ca_file.string(), ec);
    STACK_OF(X509_NAME)* names = ec ? nullptr : SSL_load_client_CA_file(ca_file.c_str());
    if (!names)
        return certs::openssl_error("cannot load client CA file " + ca_file.string());
    SSL_CTX_set_client_CA_list(ctx.native_handle(), names);
    ctx.set_verify_mode(ssl::verify_peer | ssl::verify_fail_if_no_peer_cert);
    return {};
}

} // namespace

result<int> parse_tls_version(std::string_view text)
{
    if (text == "1.2" || text == "VersionTLS12")
        return TLS1_2_VERSION;
    if (text == "1.3" || text == "VersionTLS13")
        return TLS1_3_VERSION;
    if (text == "1.0" || text == "1.1" || text == "VersionTLS10" || text == "VersionTLS11")
        return failure{"--tls-min-version " + std::string(text) + " is not supported: use 1.2 or 1.3", {}};
    return failure{"invalid --tls-min-version \"" + std::string(text) + "\": expected 1.2 or 1.3", {}};
}

result<std::shared_ptr<ssl::context>> make_tls_context(const tls_files& files, int min_version)
{
    auto ctx = std::make_shared<ssl::context>(ssl::context::tls_server);
    SSL_CTX* native = ctx->native_handle();
    ctx->set_options(ssl::context::default_workarounds | ssl::context::no_compression | ssl::context::single_dh_use);
    SSL_CTX_set_options(native, SSL_OP_NO_RENEGOTIATION);
    // Idle keep-alive connections then hold no 2 x 17 KiB record buffers (RSS under many connections).
    SSL_CTX_set_mode(native, SSL_MODE_RELEASE_BUFFERS);
    static constexpr unsigned char session_context[] = "karmada-policy-webhook";
    if (SSL_CTX_set_min_proto_version(native, min_version) != 1 ||
        SSL_CTX_set_cipher_list(native, tls12_ciphers) != 1 ||
        SSL_CTX_set1_groups_list(native, "X25519:P-256:P-384") != 1 ||
        SSL_CTX_set_session_id_context(native, session_context, sizeof session_context - 1) != 1)
        return failure{certs::openssl_error("cannot configure TLS"), {}};
    SSL_CTX_set_alpn_select_cb(native, select_alpn, nullptr);
    if (auto e = load_identity(*ctx, files); !e.empty())
        return failure{std::move(e), {}};
    if (!files.client_ca_file.empty())
        if (auto e = load_client_ca(*ctx, files.client_ca_file); !e.empty())
            return failure{std::move(e), {}};
    return ctx;
}

} // namespace kpw::server
