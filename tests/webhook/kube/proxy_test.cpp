// SPDX-License-Identifier: Apache-2.0
// kube::client through a proxy the test starts (fake_proxy: HTTP CONNECT or SOCKS5) in front of the fake
// API server: the kubeconfig's proxy-url for every host, the environment's HTTPS_PROXY used or bypassed
// where client-go would (NO_PROXY, loopback), and the errors a proxy's refusal, silence or absence gives.
#include "kube/client.hpp"

#include <doctest/doctest.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <thread>
#include <vector>

#include "fake_apiserver.hpp"
#include "fake_proxy.hpp"
#include "kube/connection.hpp"

using namespace kpw::kube;
using kpw::test::fake_apiserver;
using kpw::test::fake_proxy;
using kpw::test::fake_resource;
using namespace std::chrono_literals;

namespace {

const fake_resource clusters_def{"cluster.karmada.io", "v1alpha1", "clusters", "Cluster", false};
const api_resource clusters{"cluster.karmada.io", "v1alpha1", "clusters", "Cluster", false, {}};

struct served {
    fake_apiserver server;
    served()
    {
        server.add_resource(clusters_def);
        server.put("clusters", R"({"metadata":{"name":"member1"}})");
        server.start();
    }
    std::string port() const { return std::to_string(server.port()); }
};

// The fake server's certificate names localhost and 127.0.0.1; servers addressed otherwise verify as localhost.
rest_config config_for(const fake_apiserver& s, const std::string& server = {})
{
    rest_config c;
    c.server = server.empty() ? s.url() : server;
    c.tls_server_name = server.empty() ? "" : "localhost";
    c.ca_pem = s.ca_pem();
    c.token = "secret-token";
    c.context_name = "test";
    c.user_name = "alice";
    c.source = "test kubeconfig";
    return c;
}

client_options with_env(std::string https_proxy, std::string no_proxy = {})
{
    client_options o;
    proxy_environment e;
    e.https_proxy = {"HTTPS_PROXY", std::move(https_proxy)};
    e.no_proxy = {"NO_PROXY", std::move(no_proxy)};
    o.proxy_env = e;
    return o;
}

// A URL nothing listens on.
std::string closed_url(const std::string& scheme)
{
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof addr;
    ::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr);
    ::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len);
    ::close(fd);
    return scheme + "://127.0.0.1:" + std::to_string(ntohs(addr.sin_port));
}

bool contains(const std::string& text, const std::string& part)
{
    return text.find(part) != std::string::npos;
}

std::string listed_error(client& c)
{
    auto listed = c.list(clusters);
    return listed ? std::string("(listed)") : listed.error().message;
}

} // namespace

TEST_CASE("proxy: a list through the kubeconfig's http:// proxy-url tunnels with CONNECT and Basic credentials")
{
    served s;
    fake_proxy::options po;
    po.user = "alice";
    po.password = "s3cr:t";
    fake_proxy proxy(po);
    auto config = config_for(s.server);
    config.proxy_url = "http://alice:s3cr%3At@127.0.0.1:" + std::to_string(proxy.port());
    // The environment's proxy (down) is not used: proxy-url wins, for a loopback server too.
    client c(config, with_env(closed_url("http")));
    auto listed = c.list(clusters);
    REQUIRE_MESSAGE(listed.ok(), (listed.ok() ? "" : listed.error().message));
    CHECK(listed->items == 1);
    REQUIRE_FALSE(proxy.targets().empty());
    CHECK(proxy.targets().front() == "127.0.0.1:" + s.port());
    CHECK(proxy.authorizations().front() == "Basic YWxpY2U6czNjcjp0"); // base64("alice:s3cr:t")
    // TLS ran end to end through the tunnel: the server saw the bearer token.
    CHECK(s.server.requests().back().authorization == "Bearer secret-token");
}

TEST_CASE("proxy: a socks5:// proxy-url, without and with username/password (RFC 1928, RFC 1929)")
{
    served s;
    {
        fake_proxy::options po;
        po.socks5 = true;
        fake_proxy proxy(po);
        auto config = config_for(s.server);
        config.proxy_url = proxy.url();
        client c(config, with_env(""));
        auto listed = c.list(clusters);
        REQUIRE_MESSAGE(listed.ok(), (listed.ok() ? "" : listed.error().message));
        REQUIRE_FALSE(proxy.targets().empty());
        CHECK(proxy.targets().front() == "127.0.0.1:" + s.port());
    }
    fake_proxy::options po;
    po.socks5 = true;
    po.user = "bob";
    po.password = "pw";
    fake_proxy proxy(po);
    auto config = config_for(s.server, "https://kube.test:" + s.port());
    po.hosts["kube.test"] = "127.0.0.1";
    fake_proxy named(po);
    config.proxy_url = "socks5://bob:pw@127.0.0.1:" + std::to_string(named.port());
    client c(config, with_env(""));
    auto listed = c.list(clusters);
    REQUIRE_MESSAGE(listed.ok(), (listed.ok() ? "" : listed.error().message));
    CHECK(named.authorizations().front() == "bob:pw");
    CHECK(named.targets().front() == "kube.test:" + s.port()); // the name goes to the proxy, as Go's socks dialer

    config.proxy_url = "socks5://bob:wrong@127.0.0.1:" + std::to_string(proxy.port());
    client refused(config, with_env(""));
    const std::string why = listed_error(refused);
    CHECK(contains(why, "the proxy socks5://127.0.0.1:" + std::to_string(proxy.port()) +
                            " (the kubeconfig's proxy-url) refused the username and password"));
    CHECK_FALSE(contains(why, "wrong"));
}

TEST_CASE("proxy: HTTPS_PROXY carries a server the environment does not exempt, by name or non-loopback IP")
{
    served s;
    fake_proxy::options po;
    po.hosts["kube.test"] = "127.0.0.1"; // only the proxy knows this name: the client must not resolve it
    fake_proxy proxy(po);
    for (const std::string host : {"kube.test", "0.0.0.0"}) {
        CAPTURE(host);
        client c(config_for(s.server, "https://" + host + ":" + s.port()), with_env(proxy.url(), "example.com,10.0.0.0/8"));
        auto listed = c.list(clusters);
        REQUIRE_MESSAGE(listed.ok(), (listed.ok() ? "" : listed.error().message));
        REQUIRE_FALSE(proxy.targets().empty());
        CHECK(proxy.targets().back() == host + ":" + s.port());
    }
}

TEST_CASE("proxy: NO_PROXY and loopback servers bypass HTTPS_PROXY")
{
    served s;
    fake_proxy proxy;
    // 0.0.0.0 reaches the local host on Linux, and is not a loopback address to Go: only NO_PROXY exempts it.
    for (const std::string& no_proxy : std::vector<std::string>{"0.0.0.0", "0.0.0.0/8", "*", "example.com, 0.0.0.0:" + s.port()}) {
        CAPTURE(no_proxy);
        client c(config_for(s.server, "https://0.0.0.0:" + s.port()), with_env(proxy.url(), no_proxy));
        auto listed = c.list(clusters);
        CHECK_MESSAGE(listed.ok(), (listed.ok() ? "" : listed.error().message));
    }
    // Loopback and localhost are never proxied from the environment, NO_PROXY or not.
    for (const std::string& server :
         std::vector<std::string>{s.server.url(), "https://localhost:" + s.port(), "https://127.0.0.2:" + s.port()}) {
        CAPTURE(server);
        auto config = config_for(s.server, server);
        client c(config, with_env(proxy.url()));
        auto listed = c.list(clusters);
        if (server.find("127.0.0.2") == std::string::npos) // 127.0.0.2 has no listener: direct, refused
            CHECK_MESSAGE(listed.ok(), (listed.ok() ? "" : listed.error().message));
        else
            CHECK(contains(listed.error().message, "cannot reach " + server + " (connection refused)"));
    }
    CHECK(proxy.connections() == 0);
}

TEST_CASE("proxy: a proxy that refuses CONNECT (407, 403) names itself and its status line, never the password")
{
    served s;
    fake_proxy::options po;
    po.user = "alice";
    po.password = "right";
    fake_proxy needs_auth(po);
    const std::string at = "127.0.0.1:" + std::to_string(needs_auth.port());
    auto config = config_for(s.server);
    config.proxy_url = "http://" + at;
    client anonymous(config, with_env(""));
    CHECK(listed_error(anonymous) ==
          "the proxy http://" + at + " (the kubeconfig's proxy-url) answered CONNECT 127.0.0.1:" + s.port() +
              " with 407 Proxy Authentication Required; the proxy wants credentials: put them in the proxy URL "
              "(http://user:password@host:port)");
    CHECK(anonymous.last_error_kind() == error_kind::unreachable);
    config.proxy_url = "http://alice:wrong-secret@" + at;
    client wrong(config, with_env(""));
    const std::string why = listed_error(wrong);
    CHECK(contains(why, "with 407 Proxy Authentication Required; the proxy refused the credentials"));
    CHECK_FALSE(contains(why, "wrong-secret"));

    fake_proxy::options forbid;
    forbid.status = 403;
    forbid.reason = "Forbidden";
    fake_proxy forbidding(forbid);
    client c(config_for(s.server, "https://0.0.0.0:" + s.port()), with_env(forbidding.url()));
    CHECK(listed_error(c) == "the proxy " + forbidding.url() + " (HTTPS_PROXY) answered CONNECT 0.0.0.0:" + s.port() +
                                 " with 403 Forbidden; check that the proxy lets this client reach 0.0.0.0:" + s.port());
}

TEST_CASE("proxy: a proxy that closes, stalls or is down fails within the connect timeout, naming it")
{
    served s;
    fake_proxy::options closing_options;
    closing_options.close_at_once = true;
    fake_proxy closing(closing_options);
    auto config = config_for(s.server);
    config.proxy_url = closing.url();
    client closed(config, with_env(""));
    CHECK(contains(listed_error(closed), "the proxy " + closing.url() + " (the kubeconfig's proxy-url) closed the "
                                         "connection during CONNECT 127.0.0.1:" + s.port()));

    fake_proxy::options stall;
    stall.stall = true;
    fake_proxy stalling(stall);
    config.proxy_url = stalling.url();
    client_options o = with_env("");
    o.connect_timeout = 300ms;
    client slow(config, o);
    const auto started = std::chrono::steady_clock::now();
    CHECK(listed_error(slow) == "the proxy " + stalling.url() + " (the kubeconfig's proxy-url) did not answer CONNECT "
                                "127.0.0.1:" + s.port() + " within 300 ms (the connect timeout)");
    CHECK(std::chrono::steady_clock::now() - started < 5s);

    config.proxy_url = closed_url("http");
    client down(config, with_env(""));
    CHECK(listed_error(down) == "cannot reach " + s.server.url() + " through the proxy " + config.proxy_url +
                                    " (the kubeconfig's proxy-url) (connection refused); is the API server running "
                                    "and is this the right --kubeconfig/--context?");

    // A proxy setting this client cannot use is an error before any connection, not a silent direct one.
    config.proxy_url = "https://127.0.0.1:3128";
    client tls_proxy(config, with_env(""));
    CHECK(contains(listed_error(tls_proxy), "an https:// proxy (TLS to the proxy) is not supported"));
}

TEST_CASE("proxy: no Accept-Encoding is ever sent, so disable-compression is honoured either way")
{
    // A one-request plain HTTP server that keeps the request head.
    const int listener = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof addr;
    REQUIRE(::bind(listener, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0);
    REQUIRE(::listen(listener, 1) == 0);
    ::getsockname(listener, reinterpret_cast<sockaddr*>(&addr), &len);
    std::string head;
    std::thread server([&] {
        const int fd = ::accept(listener, nullptr, nullptr);
        char c = 0;
        while (fd >= 0 && head.find("\r\n\r\n") == std::string::npos && ::recv(fd, &c, 1, 0) == 1)
            head += c;
        const std::string reply = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}";
        if (fd >= 0) {
            (void)::send(fd, reply.data(), reply.size(), MSG_NOSIGNAL);
            ::close(fd);
        }
    });
    rest_config config;
    config.server = "http://127.0.0.1:" + std::to_string(ntohs(addr.sin_port));
    client_options o = with_env("");
    detail::connection conn(config, o);
    auto reply = conn.get("/api", "reading /api");
    server.join();
    ::close(listener);
    REQUIRE_MESSAGE(reply.ok(), (reply.ok() ? "" : reply.error().message));
    CHECK(reply->body == "{}");
    CHECK(contains(head, "GET /api HTTP/1.1\r\n"));
    std::string lowered = head;
    for (char& ch : lowered)
        ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    CHECK_FALSE(contains(lowered, "accept-encoding"));
}
