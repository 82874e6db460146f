// SPDX-License-Identifier: Apache-2.0
#include "kube/proxy.hpp"


#include <arpa/inet.h>

#include <array>
#include <cstdint>
#include <cstdlib>
#include <vector>

#include <boost/asio/read.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/http/empty_body.hpp>
#include <boost/beast/http/error.hpp>
#include <boost/beast/http/parser.hpp>
#include <boost/beast/http/read.hpp>
#include <boost/beast/http/write.hpp>

#include "kube/base64.hpp"

namespace kpw::kube::detail {

namespace net = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;

proxy_environment process_proxy_environment()
{
    return proxy_environment_from([](const std::string& name) -> std::optional<std::string> {
        const char* v = std::getenv(name.c_str()); // NOLINT(concurrency-mt-unsafe): read, never set, here
        return v == nullptr ? std::nullopt : std::optional<std::string>(v);
    });
}

namespace {

// "host:port" as a CONNECT target and Host header (IPv6 in brackets).
std::string authority(const std::string& host, const std::string& port)
{
    return (host.find(':') != std::string::npos ? "[" + host + "]" : host) + ":" + port;
}

std::string named(const proxy_url& p)
{
    return "the proxy " + p.redacted() + " (" + p.origin + ")";
}

// A transport error during the exchange with the proxy, as a sentence.
std::string lost(const proxy_url& p, std::string_view step, boost::system::error_code ec, std::string_view timeout)
{
    if (ec == beast::error::timeout)
        return named(p) + " did not answer " + std::string(step) + " within " + std::string(timeout) +
               " (the connect timeout)";
    if (ec == http::error::end_of_stream || ec == net::error::eof || ec == net::error::connection_reset)
        return named(p) + " closed the connection during " + std::string(step) + " (" + ec.message() +
               "); is it a" + (p.scheme == "http" ? "n HTTP" : " SOCKS5") + " proxy, and does it allow this client?";
    return "lost the connection to " + named(p) + " during " + std::string(step) + " (" + ec.message() + ")";
}

result<bool> http_connect(beast::tcp_stream& stream, const proxy_url& proxy, const std::string& target,
                          const io_runner& run, std::string_view timeout)
{
    http::request<http::empty_body> req{http::verb::connect, target, 11};
    req.set(http::field::host, target);
    if (proxy.has_userinfo) // net/http connectMethod.proxyAuth: Basic, even with an empty password
        req.set(http::field::proxy_authorization, "Basic " + base64_encode(proxy.username + ":" + proxy.password));
    const std::string step = "CONNECT " + target;
    auto ec = run([&](io_handler h) { http::async_write(stream, req, std::move(h)); });
    if (ec)
        return failure{lost(proxy, step, ec, timeout), {}};
    // Bytes after the header are dropped, as net/http drops its buffered reader: a TLS server does not
    // speak until spoken to.
    beast::flat_buffer buffer;
    http::response_parser<http::empty_body> reply;
    reply.skip(true); // a reply to CONNECT has no body
    ec = run([&](io_handler h) { http::async_read_header(stream, buffer, reply, std::move(h)); });
    if (ec && ec.category() == http::make_error_code(http::error::bad_version).category() &&
        ec != http::error::end_of_stream && ec != http::error::partial_message)
        return failure{named(proxy) + " did not answer " + step + " with HTTP (" + ec.message() + "); is it an HTTP proxy?", {}};
    if (ec)
        return failure{lost(proxy, step, ec, timeout), {}};
    const unsigned status = reply.get().result_int();
    if (status == 200) // net/http accepts exactly 200
        return true;
    std::string line = std::to_string(status) + " " + std::string(reply.get().reason());
    std::string hint = "; check that the proxy lets this client reach " + target;
    if (status == 407)
        hint = proxy.has_userinfo ? "; the proxy refused the credentials in the proxy URL's user:password@"
                                  : "; the proxy wants credentials: put them in the proxy URL (http://user:password@host:port)";
    return failure{named(proxy) + " answered " + step + " with " + line + hint, {}};
}

const char* socks_reply_text(std::uint8_t code)
{
    switch (code) { // RFC 1928 section 6
    case 1: return "general SOCKS server failure";
    case 2: return "connection not allowed by ruleset";
    case 3: return "network unreachable";
    case 4: return "host unreachable";
    case 5: return "connection refused";
    case 6: return "TTL expired";
    case 7: return "command not supported";
    case 8: return "address type not supported";
    default: return "unknown reply code";
    }
}

result<bool> socks5_connect(beast::tcp_stream& stream, const proxy_url& proxy, const std::string& host,
                            const std::string& port, const io_runner& run, std::string_view timeout)
{
    const std::string target = authority(host, port);
    const std::string step = "the SOCKS5 handshake for " + target;
    const auto send = [&](const std::vector<std::uint8_t>& bytes) {
        return run([&](io_handler h) { net::async_write(stream, net::buffer(bytes), std::move(h)); });
    };
    const auto receive = [&](std::uint8_t* into, std::size_t n) {
        return run([&](io_handler h) { net::async_read(stream, net::buffer(into, n), std::move(h)); });
    };
    // Greeting: no authentication, and username/password when the URL has a userinfo (as x/net's socks
    // dialer offers them).
    std::vector<std::uint8_t> hello{5, 1, 0};
    if (proxy.has_userinfo)
        hello = {5, 2, 0, 2};
    std::array<std::uint8_t, 2> chosen{};
    auto ec = send(hello);
    if (!ec)
        ec = receive(chosen.data(), 2);
    if (ec)
        return failure{lost(proxy, step, ec, timeout), {}};
    if (chosen[0] != 5)
        return failure{named(proxy) + " did not answer " + step + " as a SOCKS5 proxy (version byte " +
                       std::to_string(chosen[0]) + "); is it a SOCKS5 proxy?", {}};
    if (chosen[1] == 2 && proxy.has_userinfo) { // RFC 1929
        std::vector<std::uint8_t> auth{1, static_cast<std::uint8_t>(proxy.username.size())};
        auth.insert(auth.end(), proxy.username.begin(), proxy.username.end());
        auth.push_back(static_cast<std::uint8_t>(proxy.password.size()));
        auth.insert(auth.end(), proxy.password.begin(), proxy.password.end());
        std::array<std::uint8_t, 2> status{};
        ec = send(auth);
        if (!ec)
            ec = receive(status.data(), 2);
        if (ec)
            return failure{lost(proxy, step, ec, timeout), {}};
        if (status[1] != 0)
            return failure{named(proxy) + " refused the username and password in the proxy URL", {}};
    } else if (chosen[1] != 0) {
        return failure{named(proxy) + " accepts none of the authentication methods offered (" +
                       (proxy.has_userinfo ? "none, username/password" : "none; put user:password@ in the proxy URL if it needs them") +
                       ")", {}};
    }
    std::vector<std::uint8_t> req{5, 1, 0};
    std::array<std::uint8_t, 16> ip{};
    if (inet_pton(AF_INET, host.c_str(), ip.data()) == 1) {
        req.push_back(1);
        req.insert(req.end(), ip.begin(), ip.begin() + 4);
    } else if (inet_pton(AF_INET6, host.c_str(), ip.data()) == 1) {
        req.push_back(4);
        req.insert(req.end(), ip.begin(), ip.end());
    } else {
        if (host.size() > 255)
            return failure{"the API server's host name is longer than SOCKS5 allows (255 bytes)", {}};
        req.push_back(3);
        req.push_back(static_cast<std::uint8_t>(host.size()));
        req.insert(req.end(), host.begin(), host.end());
    }
    const unsigned long port_number = std::stoul(port);
    req.push_back(static_cast<std::uint8_t>(port_number >> 8));
    req.push_back(static_cast<std::uint8_t>(port_number & 0xff));
    std::array<std::uint8_t, 4> head{};
    ec = send(req);
    if (!ec)
        ec = receive(head.data(), 4);
    if (ec)
        return failure{lost(proxy, step, ec, timeout), {}};
    if (head[1] != 0)
        return failure{named(proxy) + " refused CONNECT " + target + ": " + socks_reply_text(head[1]) + " (SOCKS5 reply " +
                       std::to_string(head[1]) + ")", {}};
    // The bound address: IPv4, a length-prefixed name or IPv6, then the port.
    std::size_t rest = head[3] == 1 ? 4 : head[3] == 4 ? 16 : 0;
    if (head[3] == 3) {
        std::uint8_t n = 0;
        ec = receive(&n, 1);
        rest = n;
    } else if (head[3] != 1 && head[3] != 4)
        return failure{named(proxy) + " answered " + step + " with an unknown address type " + std::to_string(head[3]), {}};
    std::vector<std::uint8_t> bound(rest + 2);
    if (!ec)
        ec = receive(bound.data(), bound.size());
    if (ec)
        return failure{lost(proxy, step, ec, timeout), {}};
    return true;
}

} // namespace

result<bool> open_tunnel(beast::tcp_stream& stream, const proxy_url& proxy, const std::string& host,
                         const std::string& port, const io_runner& run, std::string_view timeout)
{
    if (proxy.scheme == "socks5")
        return socks5_connect(stream, proxy, host, port, run, timeout);
    return http_connect(stream, proxy, authority(host, port), run, timeout);
}

} // namespace kpw::kube::detail
