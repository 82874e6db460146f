// SPDX-License-Identifier: Apache-2.0
// Fuzz target (10): four lines -> the proxy decision (kube/proxy_rules): a kubeconfig proxy-url, an
// HTTPS_PROXY value, a NO_PROXY list and an API server host[:port], through parse_proxy_url,
// parse_environment_proxy, environment_proxies and proxy_for.
#include <string>
#include <string_view>

#include "kube/proxy_rules.hpp"
#include "targets.hpp"

namespace kpw::fuzz {
namespace {

constexpr std::string_view name = "proxy_url";

std::string_view next_line(std::string_view& text)
{
    const std::size_t nl = text.find('\n');
    const std::string_view line = text.substr(0, nl);
    text.remove_prefix(nl == std::string_view::npos ? text.size() : nl + 1);
    return line;
}

void check_proxy(const result<kube::detail::proxy_url>& p, std::string_view origin)
{
    if (!p) {
        if (!p.error().message.starts_with(origin))
            invariant_failed(name, "a proxy URL error that does not name its setting");
        return;
    }
    if (p->scheme != "http" && p->scheme != "socks5")
        invariant_failed(name, "a proxy scheme this client cannot speak was accepted");
    if (p->host.empty() || p->port.empty() || p->port.size() > 5)
        invariant_failed(name, "an accepted proxy without host or with a bad port");
    if (p->redacted().find('@') != std::string::npos)
        invariant_failed(name, "the redacted proxy URL shows a userinfo");
}

} // namespace

int proxy_url(bytes data)
{
    std::string_view text = as_text(data);
    const std::string_view kubeconfig = next_line(text), https_proxy = next_line(text), no_proxy = next_line(text);
    const std::string_view server = next_line(text);
    const std::size_t colon = server.rfind(':');
    const std::string host(server.substr(0, colon));
    const std::string port(colon == std::string_view::npos ? "443" : server.substr(colon + 1));

    check_proxy(kube::detail::parse_proxy_url(kubeconfig, "proxy-url"), "proxy-url");
    check_proxy(kube::detail::parse_environment_proxy(https_proxy, "HTTPS_PROXY"), "HTTPS_PROXY");
    if (kube::detail::environment_proxies("*", host, port))
        invariant_failed(name, "NO_PROXY=* let a host be proxied");
    const bool proxied = kube::detail::environment_proxies(no_proxy, host, port);
    if (proxied && (host == "localhost" || host == "127.0.0.1" || host == "::1"))
        invariant_failed(name, "a loopback host is proxied from the environment");

    kube::proxy_environment env;
    env.https_proxy = {"HTTPS_PROXY", std::string(https_proxy)};
    env.no_proxy = {"NO_PROXY", std::string(no_proxy)};
    const auto from_env = kube::detail::proxy_for("", env, "https", host, port);
    if (from_env && *from_env && !proxied)
        invariant_failed(name, "a host NO_PROXY exempts got the environment's proxy");
    (void)kube::detail::proxy_for(kubeconfig, env, "http", host, port);
    return 0;
}

} // namespace kpw::fuzz
