// SPDX-License-Identifier: Apache-2.0
// proxy_rules: which proxy, if any, carries the connection to an API server, decided as client-go decides
// it, with no I/O and no getenv: the kubeconfig's proxy-url for every host (tools/clientcmd
// client_config.go: http.ProxyURL), else the environment by Go's rules (golang.org/x/net/http/httpproxy,
// what net/http's ProxyFromEnvironment uses: HTTPS_PROXY / HTTP_PROXY by the server's scheme, NO_PROXY,
// localhost and loopback addresses never proxied).
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "base/result.hpp"

namespace kpw::kube {

// A proxy variable as the environment had it: the name that was set (HTTPS_PROXY or https_proxy: the
// upper-case one wins when both are set, as httpproxy.FromEnvironment's getEnvAny) and its value.
struct proxy_variable {
    std::string name, value;
};

// The process environment's proxy settings (httpproxy.Config). Built by the caller, so that the rules
// read no hidden input.
struct proxy_environment {
    proxy_variable http_proxy, https_proxy, no_proxy;
    bool cgi = false; // REQUEST_METHOD is set: HTTP_PROXY may come from a request header and is refused
};

// Reads HTTP_PROXY, HTTPS_PROXY, NO_PROXY (upper case first, then lower case) and REQUEST_METHOD
// through `lookup` (returns nullopt for an unset variable).
proxy_environment proxy_environment_from(const std::function<std::optional<std::string>(const std::string&)>& lookup);

namespace detail {

// A proxy URL, split. Only schemes this client can speak are accepted: http (an HTTP/1.1 CONNECT
// tunnel) and socks5 (RFC 1928, with RFC 1929 username/password when the URL has a userinfo).
struct proxy_url {
    std::string scheme;             // "http" or "socks5"
    std::string host, port;         // IPv6 hosts without brackets; port defaulted (http 80, socks5 1080)
    bool has_userinfo = false;      // user[:password]@ was given
    std::string username, password; // percent-decoded; never printed
    std::string origin;             // where it came from, for messages: "the kubeconfig's proxy-url", "HTTPS_PROXY"

    // scheme://host:port, without the userinfo: safe to print.
    std::string redacted() const;
};

// A kubeconfig's proxy-url (clientcmd parseProxyURL: url.Parse, then the scheme must be http, https or
// socks5). https proxies (TLS to the proxy itself) are refused here with the schemes that work. The
// message never repeats the userinfo.
result<proxy_url> parse_proxy_url(std::string_view text, std::string_view origin);

// An environment variable's value (httpproxy parseProxy: a value without a scheme is http://value).
result<proxy_url> parse_environment_proxy(std::string_view text, std::string_view origin);

// Go's httpproxy useProxy: false when NO_PROXY (or the localhost / loopback rule) exempts host:port.
// `host` is the server's host as its URL names it (IPv6 without brackets), `port` its port.
bool environment_proxies(std::string_view no_proxy, std::string_view host, std::string_view port);

// The proxy for a connection to the API server `scheme`://`host`:`port`: the kubeconfig's proxy-url when
// set (used for every host, loopback included, as http.ProxyURL does), else the environment's by
// httpproxy's ProxyFunc. nullopt: connect directly. Fails on a proxy URL this client cannot use (an https
// or unknown scheme, no host, a bad port) or HTTP_PROXY under CGI, naming the setting.
result<std::optional<proxy_url>> proxy_for(std::string_view kubeconfig_proxy_url, const proxy_environment& env,
                                           std::string_view scheme, std::string_view host, std::string_view port);

} // namespace detail
} // namespace kpw::kube
