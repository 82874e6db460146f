// SPDX-License-Identifier: Apache-2.0
// Test clients over loopback.
#include "test_client.hpp"

#include "doc/load.hpp"

#include <openssl/pem.h>
#include <openssl/ssl.h>

#include <stdexcept>
#include <utility>

#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl/host_name_verification.hpp>
#include <boost/beast/http/read.hpp>
#include <boost/beast/http/write.hpp>

namespace kpw::test {

namespace net = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = net::ip::tcp;

constexpr auto deadline = std::chrono::seconds(10);

namespace {

// Puts a client certificate and key (PEM) on `ssl`; false when either does not load.
bool use_client_certificate(SSL* ssl, const std::string& crt_pem, const std::string& key_pem)
{
    BIO* crt = BIO_new_mem_buf(crt_pem.data(), static_cast<int>(crt_pem.size()));
    BIO* key = BIO_new_mem_buf(key_pem.data(), static_cast<int>(key_pem.size()));
    X509* x = crt ? PEM_read_bio_X509(crt, nullptr, nullptr, nullptr) : nullptr;
    EVP_PKEY* k = key ? PEM_read_bio_PrivateKey(key, nullptr, nullptr, nullptr) : nullptr;
    const bool ok = x && k && SSL_use_certificate(ssl, x) == 1 && SSL_use_PrivateKey(ssl, k) == 1;
    X509_free(x);
    EVP_PKEY_free(k);
    BIO_free(crt);
    BIO_free(key);
    return ok;
}

} // namespace

tls_client::tls_client(unsigned short port, options o)
    : port_(port), options_(std::move(o)), ctx_(net::ssl::context::tls_client), stream_(ioc_, ctx_)
{
    ctx_.add_certificate_authority(net::buffer(options_.ca_pem));
    ctx_.set_verify_mode(net::ssl::verify_peer);
}

void tls_client::present_certificate(std::string crt_pem, std::string key_pem)
{
    client_crt_pem_ = std::move(crt_pem);
    client_key_pem_ = std::move(key_pem);
}

template <class Op>
boost::system::error_code tls_client::run(Op op)
{
    boost::system::error_code result = net::error::timed_out;
    beast::get_lowest_layer(stream_).expires_after(deadline);
    op([&result](boost::system::error_code ec, auto&&...) { result = ec; });
    ioc_.restart();
    ioc_.run();
    return result;
}

boost::system::error_code tls_client::connect()
{
    const tcp::endpoint ep(net::ip::make_address("127.0.0.1"), port_);
    if (auto ec = run([&](auto h) { beast::get_lowest_layer(stream_).async_connect(ep, h); }))
        return ec;
    stream_.set_verify_mode(net::ssl::verify_peer); // the SSL object was made before ctx_ was configured
    if (!client_crt_pem_.empty() &&
        !use_client_certificate(stream_.native_handle(), client_crt_pem_, client_key_pem_))
        return net::error::invalid_argument;
    stream_.set_verify_callback(net::ssl::host_name_verification(options_.host));
    SSL_set_tlsext_host_name(stream_.native_handle(), options_.host.c_str());
    std::string wire;
    for (const auto& p : options_.alpn)
        wire.append(1, static_cast<char>(p.size())).append(p);
    if (!wire.empty())
        SSL_set_alpn_protos(stream_.native_handle(), reinterpret_cast<const unsigned char*>(wire.data()),
                            static_cast<unsigned>(wire.size()));
    return run([&](auto h) { stream_.async_handshake(net::ssl::stream_base::client, h); });
}

boost::system::error_code tls_client::send(const request& req)
{
    return run([&](auto h) { http::async_write(stream_, req, h); });
}

boost::system::error_code tls_client::write_raw(const std::string& bytes)
{
    return run([&](auto h) { net::async_write(stream_, net::buffer(bytes), h); });
}

boost::system::error_code tls_client::receive(response& out)
{
    http::response_parser<http::string_body> parser;
    parser.body_limit(64 * 1024 * 1024);
    auto ec = run([&](auto h) { http::async_read(stream_, buffer_, parser, h); });
    out = parser.release();
    return ec;
}

response tls_client::post(const std::string& target, const std::string& body, const std::string& content_type)
{
    request req{http::verb::post, target, 11};
    req.set(http::field::host, options_.host);
    req.set(http::field::content_type, content_type);
    req.body() = body;
    req.prepare_payload();
    response res;
    if (auto ec = send(req); ec)
        throw std::runtime_error("write: " + ec.message());
    if (auto ec = receive(res); ec)
        throw std::runtime_error("read: " + ec.message());
    return res;
}

response tls_client::get(const std::string& target)
{
    request req{http::verb::get, target, 11};
    req.set(http::field::host, options_.host);
    response res;
    if (auto ec = send(req); ec)
        throw std::runtime_error("write: " + ec.message());
    if (auto ec = receive(res); ec)
        throw std::runtime_error("read: " + ec.message());
    return res;
}

bool tls_client::closed_by_peer()
{
    char byte;
    auto ec = run([&](auto h) { stream_.async_read_some(net::buffer(&byte, 1), h); });
    return ec == net::error::eof || ec == net::ssl::error::stream_truncated || ec == net::error::connection_reset;
}

void tls_client::close()
{
    boost::system::error_code ignored;
    beast::get_lowest_layer(stream_).socket().close(ignored);
}

void tls_client::reset()
{
    boost::system::error_code ignored;
    auto& socket = beast::get_lowest_layer(stream_).socket();
    socket.set_option(net::socket_base::linger(true, 0), ignored);
    socket.close(ignored);
}

std::string tls_client::selected_alpn()
{
    const unsigned char* data = nullptr;
    unsigned len = 0;
    SSL_get0_alpn_selected(stream_.native_handle(), &data, &len);
    return data ? std::string(reinterpret_cast<const char*>(data), len) : std::string();
}

std::string tls_client::peer_certificate_pem()
{
    X509* cert = SSL_get1_peer_certificate(stream_.native_handle());
    if (!cert)
        return {};
    BIO* bio = BIO_new(BIO_s_mem());
    PEM_write_bio_X509(bio, cert);
    char* data = nullptr;
    const long n = BIO_get_mem_data(bio, &data);
    std::string out(data, static_cast<std::size_t>(n));
    BIO_free(bio);
    X509_free(cert);
    return out;
}

std::string review(std::string_view api_version, std::string_view uid, std::string_view operation,
                   std::string_view kind, std::string_view object, std::string_view old_object)
{
    // kube-apiserver's request namespace: a PropagationPolicy's own (Karmada validates the spec in it), none for
    // a cluster-scoped policy.
    std::string ns = "default";
    if (auto parsed = doc::parse_json(object); parsed && parsed->find("metadata"))
        if (const auto& meta = *parsed->find("metadata"); !meta.string_at("namespace").empty())
            ns = meta.string_at("namespace");
    std::string out = R"({"apiVersion":")";
    out.append(api_version).append(R"(","kind":"AdmissionReview","request":{"uid":")").append(uid);
    out.append(R"(","kind":{"group":"policy.karmada.io","version":"v1alpha1","kind":")").append(kind);
    out.append(R"("},"name":"nginx",)");
    if (kind != "ClusterPropagationPolicy")
        out.append(R"("namespace":")").append(ns).append(R"(",)");
    out.append(R"("operation":")").append(operation);
    out.append(R"(","userInfo":{"username":"admin"},"object":)").append(object);
    out.append(R"(,"oldObject":)").append(old_object).append("}}");
    return out;
}

response http_get(unsigned short port, const std::string& target)
{
    net::io_context ioc;
    beast::tcp_stream stream(ioc);
    stream.expires_after(deadline);
    request req{http::verb::get, target, 11};
    req.set(http::field::host, "127.0.0.1");
    req.keep_alive(false);
    beast::flat_buffer buffer;
    response res;
    boost::system::error_code result = net::error::timed_out;
    stream.async_connect(tcp::endpoint(net::ip::make_address("127.0.0.1"), port), [&](boost::system::error_code ec) {
        if (ec)
            return void(result = ec);
        http::async_write(stream, req, [&](boost::system::error_code wec, std::size_t) {
            if (wec)
                return void(result = wec);
            http::async_read(stream, buffer, res, [&](boost::system::error_code rec, std::size_t) { result = rec; });
        });
    });
    ioc.run();
    if (result)
        throw std::runtime_error("GET " + target + ": " + result.message());
    return res;
}

} // namespace kpw::test
