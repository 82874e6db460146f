// SPDX-License-Identifier: Apache-2.0
// kube/proxy_rules: which proxy carries a connection, as client-go decides it. The environment's rules are
// golang.org/x/net/http/httpproxy's; the tables below are its proxy_test.go cases (proxyForURLTests,
// UseProxyTests with its noProxy list, TestInvalidNoProxy, TestAllNoProxy, TestFromEnvironment*), with
// the answers this client gives where it cannot speak the proxy Go would use (https:// proxies).
#include "kube/proxy_rules.hpp"

#include <doctest/doctest.h>

#include <map>

using namespace kpw::kube;
using kpw::kube::detail::environment_proxies;
using kpw::kube::detail::parse_environment_proxy;
using kpw::kube::detail::parse_proxy_url;
using kpw::kube::detail::proxy_for;

namespace {

proxy_environment env(std::string http, std::string https, std::string no = {}, bool cgi = false)
{
    proxy_environment e;
    e.http_proxy = {"HTTP_PROXY", std::move(http)};
    e.https_proxy = {"HTTPS_PROXY", std::move(https)};
    e.no_proxy = {"NO_PROXY", std::move(no)};
    e.cgi = cgi;
    return e;
}

// "direct", the proxy without userinfo, or "error: ...".
std::string decide(const proxy_environment& e, std::string_view scheme, std::string_view host, std::string_view port,
                   std::string_view kubeconfig = {})
{
    auto p = proxy_for(kubeconfig, e, scheme, host, port);
    if (!p)
        return "error: " + p.error().message;
    return *p ? (*p)->redacted() : "direct";
}

bool contains(const std::string& text, const std::string& part)
{
    return text.find(part) != std::string::npos;
}

} // namespace

TEST_CASE("proxy_rules: the environment's proxy by the server's scheme (httpproxy proxyForURLTests)")
{
    // A value without a scheme is http://value (parseProxy).
    CHECK(decide(env("", "127.0.0.1:8080"), "https", "example.com", "443") == "http://127.0.0.1:8080");
    CHECK(decide(env("", "cache.corp.example.com:1234"), "https", "example.com", "443") ==
          "http://cache.corp.example.com:1234");
    CHECK(decide(env("", "cache.corp.example.com"), "https", "example.com", "443") == "http://cache.corp.example.com:80");
    CHECK(decide(env("", "localhost"), "https", "example.com", "443") == "http://localhost:80");
    CHECK(decide(env("", "http://127.0.0.1:8080"), "https", "example.com", "443") == "http://127.0.0.1:8080");
    CHECK(decide(env("", "socks5://127.0.0.1"), "https", "example.com", "443") == "socks5://127.0.0.1:1080");
    CHECK(decide(env("", "socks5h://127.0.0.1:9050"), "https", "example.com", "443") == "socks5://127.0.0.1:9050");
    // https servers take HTTPS_PROXY, http servers HTTP_PROXY; the other variable is never used.
    CHECK(decide(env("http.proxy.tld", "secure.proxy.tld"), "https", "secure.tld", "443") == "http://secure.proxy.tld:80");
    CHECK(decide(env("http.proxy.tld", ""), "https", "secure.tld", "443") == "direct");
    CHECK(decide(env("socks5://http.proxy.tld", "secure.proxy.tld"), "http", "insecure.tld", "80") ==
          "socks5://http.proxy.tld:1080");
    CHECK(decide(env("", ""), "https", "example.com", "443") == "direct");
    // Go would use these; this client says it cannot, naming the variable.
    const std::string https_proxy = decide(env("", "https://secure.proxy.tld"), "https", "secure.tld", "443");
    CHECK(contains(https_proxy, "error: HTTPS_PROXY: an https:// proxy (TLS to the proxy) is not supported"));
    CHECK(contains(decide(env("", "foo://host"), "https", "x.tld", "443"), "error: HTTPS_PROXY: the proxy scheme \"foo\""));
    CHECK(contains(decide(env("http.proxy.tld", ""), "http", "insecure.tld", "80"),
                   "an http:// API server through an HTTP proxy is not supported"));
    // A value url.Parse refuses is ignored (config.init): no proxy, as Go.
    CHECK(decide(env("", "proxy.corp:31 28"), "https", "example.com", "443") == "direct");
    CHECK(decide(env("", "http://proxy.corp\x7f"), "https", "example.com", "443") == "direct");
    // ... but the retry with http:// in front takes what Go's takes: "http://proxy:port" is the host "http".
    CHECK(decide(env("", "http://proxy:port"), "https", "example.com", "443") == "http://http:80");
}

TEST_CASE("proxy_rules: HTTP_PROXY is refused under CGI (REQUEST_METHOD set), HTTPS_PROXY is not")
{
    CHECK(contains(decide(env("socks5://10.1.2.3:8080", "", "", true), "http", "example.com", "80"),
                   "refusing to use HTTP_PROXY while REQUEST_METHOD is set"));
    CHECK(decide(env("", "http://secure.proxy.tld:3128", "", true), "https", "secure.tld", "443") ==
          "http://secure.proxy.tld:3128");
}

TEST_CASE("proxy_rules: NO_PROXY as httpproxy matches it (proxyForURLTests)")
{
    CHECK(decide(env("", "proxy", "example.com"), "https", "example.com", "443") == "direct");
    CHECK(decide(env("", "proxy", ".example.com"), "https", "example.com", "443") == "http://proxy:80");
    CHECK(decide(env("", "proxy", "ample.com"), "https", "example.com", "443") == "http://proxy:80");
    CHECK(decide(env("", "proxy", "example.com"), "https", "foo.example.com", "443") == "direct");
    CHECK(decide(env("", "proxy", ".foo.com"), "https", "example.com", "443") == "http://proxy:80");
    CHECK(decide(env("", "proxy", "example.com"), "https", "1000::%.example.com", "123") == "http://proxy:80");
    // Upper case in NO_PROXY and in the host compare equal; spaces around entries are trimmed.
    CHECK(decide(env("", "proxy", " Example.COM , other"), "https", "API.example.com", "443") == "direct");
}

TEST_CASE("proxy_rules: useProxy over httpproxy's noProxy list (UseProxyTests)")
{
    const std::string no_proxy = "foobar.com, .barbaz.net, *.wildcard.io, 192.168.1.1, 192.168.1.2:81, 192.168.1.3:80, "
                                 "10.0.0.0/30, 2001:db8::52:0:1, [2001:db8::52:0:2]:443, [2001:db8::52:0:3]:80, "
                                 "2002:db8:a::45/64";
    const std::map<std::string, bool> use_proxy{
        {"localhost", false},
        {"127.0.0.1", false},
        {"127.0.0.2", false},
        {"::1", false},
        {"::2", true}, // not a loopback address
        {"192.168.1.1", false}, // matches exact IPv4
        {"192.168.1.2", true},  // ports do not match
        {"192.168.1.3", false}, // matches exact IPv4:port
        {"192.168.1.4", true},  // no match
        {"10.0.0.2", false},    // matches IPv4/CIDR
        {"2001:db8::52:0:1", false}, // matches exact IPv6
        {"2001:db8::52:0:2", true},  // no match
        {"2001:db8::52:0:3", false}, // matches exact [IPv6]:port
        {"2002:db8:a::123", false},  // matches IPv6/CIDR
        {"fe80::424b:c8be:1643:a1b6", true}, // no match
        {"barbaz.net", true},          // does not match as .barbaz.net
        {"www.barbaz.net", false},     // does match as .barbaz.net
        {"foobar.com", false},         // does match as foobar.com
        {"www.foobar.com", false},     // match because NO_PROXY includes "foobar.com"
        {"foofoobar.com", true},       // not match as a part of foobar.com
        {"baz.com", true},             // not match as a part of barbaz.com
        {"localhost.net", true},       // not match as suffix of address
        {"local.localhost", true},     // not match as prefix as address
        {"barbarbaz.net", true},       // not match, wrong domain
        {"wildcard.io", true},         // does not match as *.wildcard.io
        {"nested.wildcard.io", false}, // match as *.wildcard.io
        {"awildcard.io", true},        // not a match because of '*'
    };
    for (const auto& entry : use_proxy) {
        const std::string& host = entry.first; // not a structured binding: clang 14 cannot capture one
        const bool want = entry.second;
        CAPTURE(host);
        CHECK(environment_proxies(no_proxy, host, "80") == want);
        CHECK(environment_proxies("*", host, "80") == false); // TestAllNoProxy
    }
    CHECK(environment_proxies(":1", "example.com", "80")); // TestInvalidNoProxy: ignored, no crash
}

TEST_CASE("proxy_rules: loopback and localhost are never proxied from the environment, whatever NO_PROXY says")
{
    for (const char* host : {"localhost", "127.0.0.1", "127.1.2.3", "::1", "::ffff:127.0.0.1"}) {
        CAPTURE(host);
        CHECK(decide(env("", "http://proxy.corp:3128", ""), "https", host, "6443") == "direct");
    }
    // Only the exact name "localhost" is special (httpproxy compares before lower-casing); an
    // IP literal Go would not parse (leading zeros) is a name.
    CHECK(decide(env("", "http://proxy.corp:3128", ""), "https", "LOCALHOST", "6443") == "http://proxy.corp:3128");
    CHECK(decide(env("", "http://proxy.corp:3128", ""), "https", "127.000.0.1", "6443") == "http://proxy.corp:3128");
    CHECK(decide(env("", "http://proxy.corp:3128", ""), "https", "0.0.0.0", "6443") == "http://proxy.corp:3128");
    // NO_PROXY entries: an IP, a CIDR, a domain never matching an IP, a port that must match.
    CHECK(decide(env("", "http://p:3128", "0.0.0.0"), "https", "0.0.0.0", "6443") == "direct");
    CHECK(decide(env("", "http://p:3128", "10.0.0.0/8"), "https", "10.20.30.40", "6443") == "direct");
    CHECK(decide(env("", "http://p:3128", "10.0.0.0/8"), "https", "11.0.0.1", "6443") == "http://p:3128");
    CHECK(decide(env("", "http://p:3128", "10.0.0.1"), "https", "::ffff:10.0.0.1", "6443") == "direct");
    CHECK(decide(env("", "http://p:3128", "kube.test:443"), "https", "kube.test", "6443") == "http://p:3128");
    CHECK(decide(env("", "http://p:3128", "kube.test:6443"), "https", "kube.test", "6443") == "direct");
}

TEST_CASE("proxy_rules: the kubeconfig's proxy-url is used for every host, loopback included")
{
    const auto e = env("", "http://env.proxy:1", "*");
    CHECK(decide(e, "https", "127.0.0.1", "6443", "http://127.0.0.1:3128") == "http://127.0.0.1:3128");
    CHECK(decide(e, "https", "localhost", "6443", "socks5://bastion:1080") == "socks5://bastion:1080");
    CHECK(decide(e, "https", "kube.corp", "443", "HTTP://Proxy.Corp") == "http://Proxy.Corp:80");
    CHECK(contains(decide(e, "https", "kube.corp", "443", "https://proxy.corp"), "an https:// proxy"));
    CHECK(contains(decide(e, "https", "kube.corp", "443", "socks5h://proxy.corp"), "the proxy scheme \"socks5h\""));
    CHECK(contains(decide(e, "https", "kube.corp", "443", "proxy.corp:3128"), "not a URL"));
}

TEST_CASE("proxy_rules: proxy URLs: userinfo decoded and never printed, ports checked, IPv6 in brackets")
{
    auto p = parse_proxy_url("http://al%40ice:p%3Ass@[fd00::1]:3128/ignored", "proxy-url");
    REQUIRE(p);
    CHECK(p->host == "fd00::1");
    CHECK(p->port == "3128");
    CHECK(p->has_userinfo);
    CHECK(p->username == "al@ice");
    CHECK(p->password == "p:ss");
    CHECK(p->redacted() == "http://[fd00::1]:3128");
    auto user_only = parse_proxy_url("http://bob@proxy", "proxy-url");
    REQUIRE(user_only);
    CHECK(user_only->has_userinfo);
    CHECK(user_only->password.empty());

    for (const char* bad : {"http://user:secret@proxy:99999", "http://user:secret@:3128", "http://user:sec%zzret@proxy",
                            "ftp://user:secret@proxy", "socks5://:secret@proxy", "http://proxy:31x8", "http://fd00::1:3128"}) {
        CAPTURE(bad);
        auto r = parse_proxy_url(bad, "proxy-url");
        REQUIRE_FALSE(r);
        CHECK(r.error().message.starts_with("proxy-url: "));
        CHECK_FALSE(contains(r.error().message, "secret"));
    }
    CHECK(parse_environment_proxy("proxy.corp:3128", "HTTPS_PROXY")->redacted() == "http://proxy.corp:3128");
}

TEST_CASE("proxy_rules: the environment is read upper case first, then lower case (FromEnvironment)")
{
    std::map<std::string, std::string> vars{{"http_proxy", "lower-http"}, {"HTTPS_PROXY", "upper-https"},
                                            {"https_proxy", "lower-https"}, {"NO_PROXY", ""}, {"no_proxy", "lower-no"}};
    const auto lookup = [&](const std::string& name) -> std::optional<std::string> {
        auto it = vars.find(name);
        return it == vars.end() ? std::nullopt : std::optional<std::string>(it->second);
    };
    auto e = proxy_environment_from(lookup);
    CHECK(e.http_proxy.name == "http_proxy");
    CHECK(e.http_proxy.value == "lower-http");
    CHECK(e.https_proxy.name == "HTTPS_PROXY");
    CHECK(e.https_proxy.value == "upper-https");
    CHECK(e.no_proxy.name == "no_proxy"); // an empty NO_PROXY counts as unset
    CHECK(e.no_proxy.value == "lower-no");
    CHECK_FALSE(e.cgi);
    vars["REQUEST_METHOD"] = "PUT";
    CHECK(proxy_environment_from(lookup).cgi);
}
