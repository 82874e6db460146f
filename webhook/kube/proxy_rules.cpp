// SPDX-License-Identifier: Apache-2.0
#include "kube/proxy_rules.hpp"

#include <arpa/inet.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdint>
#include <vector>

namespace kpw::kube {

proxy_environment proxy_environment_from(const std::function<std::optional<std::string>(const std::string&)>& lookup)
{
    // httpproxy.FromEnvironment's getEnvAny: the first of the names that is set and not empty.
    const auto any = [&](const std::string& upper, const std::string& lower) {
        for (const std::string& name : {upper, lower})
            if (auto v = lookup(name); v && !v->empty())
                return proxy_variable{name, *v};
        return proxy_variable{};
    };
    proxy_environment env;
    env.http_proxy = any("HTTP_PROXY", "http_proxy");
    env.https_proxy = any("HTTPS_PROXY", "https_proxy");
    env.no_proxy = any("NO_PROXY", "no_proxy");
    const auto method = lookup("REQUEST_METHOD");
    env.cgi = method && !method->empty();
    return env;
}

namespace detail {
namespace {

std::string lower(std::string_view s)
{
    std::string out(s);
    std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return out;
}

std::string_view trim(std::string_view s)
{
    const auto space = [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'; };
    while (!s.empty() && space(s.front()))
        s.remove_prefix(1);
    while (!s.empty() && space(s.back()))
        s.remove_suffix(1);
    return s;
}

bool all_digits(std::string_view s)
{
    return std::all_of(s.begin(), s.end(), [](unsigned char c) { return std::isdigit(c) != 0; });
}

// url.Parse's userinfo unescaping: every '%' starts two hex digits.
std::optional<std::string> percent_decode(std::string_view s)
{
    const auto hex = [](char c) -> int {
        if (c >= '0' && c <= '9')
            return c - '0';
        if (c >= 'a' && c <= 'f')
            return c - 'a' + 10;
        if (c >= 'A' && c <= 'F')
            return c - 'A' + 10;
        return -1;
    };
    std::string out;
    for (std::size_t i = 0; i < s.size(); ++i) {
        if (s[i] != '%') {
            out += s[i];
            continue;
        }
        if (i + 2 >= s.size() || hex(s[i + 1]) < 0 || hex(s[i + 2]) < 0)
            return std::nullopt;
        out += static_cast<char>(hex(s[i + 1]) * 16 + hex(s[i + 2]));
        i += 2;
    }
    return out;
}

// The parts of an absolute URL that name a proxy, split as url.Parse splits them; nullopt where
// url.Parse fails. `scheme` is empty when the text has no "scheme://".
struct url_parts {
    std::string scheme, host, port;
    bool has_userinfo = false;
    std::string username, password;
};

std::optional<url_parts> split_url(std::string_view text)
{
    url_parts u;
    for (const unsigned char c : text)
        if (c < 0x20 || c == 0x7f) // url.Parse: "net/url: invalid control character in URL"
            return std::nullopt;
    const std::size_t sep = text.find("://");
    if (sep == std::string_view::npos || sep == 0)
        return u; // no scheme (or not one url.Parse would take with an authority): the caller decides
    const std::string_view scheme = text.substr(0, sep);
    if (std::isalpha(static_cast<unsigned char>(scheme[0])) == 0 ||
        !std::all_of(scheme.begin(), scheme.end(), [](unsigned char c) {
            return std::isalnum(c) != 0 || c == '+' || c == '-' || c == '.';
        }))
        return u;
    u.scheme = lower(scheme);
    std::string_view rest = text.substr(sep + 3);
    rest = rest.substr(0, rest.find_first_of("/?#"));
    if (const std::size_t at = rest.rfind('@'); at != std::string_view::npos) {
        const std::string_view info = rest.substr(0, at);
        rest.remove_prefix(at + 1);
        u.has_userinfo = true;
        const std::size_t colon = info.find(':');
        auto user = percent_decode(info.substr(0, colon));
        auto pass = colon == std::string_view::npos ? std::optional<std::string>("") : percent_decode(info.substr(colon + 1));
        if (!user || !pass)
            return std::nullopt;
        u.username = std::move(*user);
        u.password = std::move(*pass);
    }
    if (rest.starts_with("[")) {
        const std::size_t close = rest.find(']');
        if (close == std::string_view::npos)
            return std::nullopt;
        u.host = std::string(rest.substr(1, close - 1));
        rest.remove_prefix(close + 1);
        if (!rest.empty() && !rest.starts_with(":"))
            return std::nullopt;
        if (!rest.empty())
            u.port = std::string(rest.substr(1));
    } else {
        const std::size_t colon = rest.rfind(':');
        u.host = std::string(rest.substr(0, colon));
        if (colon != std::string_view::npos)
            u.port = std::string(rest.substr(colon + 1));
        if (u.host.find(':') != std::string::npos) // an IPv6 address needs brackets
            return std::nullopt;
    }
    if (!all_digits(u.port)) // url.Parse: "invalid port"
        return std::nullopt;
    if (std::any_of(u.host.begin(), u.host.end(), [](unsigned char c) { return c == ' ' || c == '"' || c == '<' || c == '>'; }))
        return std::nullopt;
    return u;
}

std::string default_port(std::string_view scheme)
{
    if (scheme == "http")
        return "80";
    if (scheme == "https")
        return "443";
    return "1080"; // socks5
}

// The checks that make parts a proxy this client can use; messages never repeat the userinfo.
result<proxy_url> to_proxy(url_parts u, std::string_view origin, bool socks5h)
{
    proxy_url p;
    p.origin = std::string(origin);
    const std::string what = std::string(origin);
    if (u.scheme == "socks5h" && socks5h)
        u.scheme = "socks5"; // net/http treats socks5h as socks5: both send the host name to the proxy
    if (u.scheme == "https")
        return failure{what + ": an https:// proxy (TLS to the proxy) is not supported by this client; use an http:// "
                              "proxy (CONNECT) or a socks5:// proxy", {}};
    if (u.scheme != "http" && u.scheme != "socks5")
        return failure{what + ": the proxy scheme \"" + u.scheme + "\" is not supported; use http:// (CONNECT) or "
                              "socks5:// (client-go accepts http, https and socks5)", {}};
    if (u.host.empty())
        return failure{what + ": the proxy URL names no host (" + u.scheme + "://host:port)", {}};
    if (u.port.empty())
        u.port = default_port(u.scheme);
    if (u.port.size() > 5 || std::stoul(u.port) == 0 || std::stoul(u.port) > 65535)
        return failure{what + ": the proxy port " + u.port + " is not a TCP port (1-65535)", {}};
    if (u.scheme == "socks5" && u.has_userinfo &&
        (u.username.empty() || u.username.size() > 255 || u.password.size() > 255))
        return failure{what + ": a socks5 proxy's username must be 1 to 255 bytes and its password at most 255 (RFC 1929)", {}};
    p.scheme = std::move(u.scheme);
    p.host = std::move(u.host);
    p.port = std::move(u.port);
    p.has_userinfo = u.has_userinfo;
    p.username = std::move(u.username);
    p.password = std::move(u.password);
    return p;
}

// An IP address as net.IP after To4: 4 bytes for IPv4 and IPv4-mapped IPv6, else 16.
struct ip_address {
    std::array<std::uint8_t, 16> bytes{};
    std::size_t size = 0;
    bool operator==(const ip_address&) const = default;
};

// netip.ParseAddr (allow_zone) / net.ParseIP: dotted quads without leading zeros, IPv6 with an optional zone.
std::optional<ip_address> parse_ip(std::string_view text, bool allow_zone)
{
    std::string s(text);
    if (s.find(':') != std::string::npos) {
        if (const std::size_t zone = s.find('%'); zone != std::string::npos) {
            if (!allow_zone || zone + 1 == s.size())
                return std::nullopt;
            s.resize(zone);
        }
        ip_address a;
        if (inet_pton(AF_INET6, s.c_str(), a.bytes.data()) != 1)
            return std::nullopt;
        a.size = 16;
        static constexpr std::uint8_t mapped[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};
        if (std::equal(std::begin(mapped), std::end(mapped), a.bytes.begin())) {
            std::copy(a.bytes.begin() + 12, a.bytes.end(), a.bytes.begin());
            std::fill(a.bytes.begin() + 4, a.bytes.end(), std::uint8_t{0});
            a.size = 4;
        }
        return a;
    }
    ip_address a;
    if (inet_pton(AF_INET, s.c_str(), a.bytes.data()) != 1) // glibc refuses leading zeros, as Go does
        return std::nullopt;
    a.size = 4;
    return a;
}

bool is_loopback(const ip_address& ip)
{
    if (ip.size == 4)
        return ip.bytes[0] == 127;
    return std::all_of(ip.bytes.begin(), ip.bytes.begin() + 15, [](std::uint8_t b) { return b == 0; }) && ip.bytes[15] == 1;
}

// One NO_PROXY entry, as httpproxy's config.init classifies it.
struct no_proxy_entry {
    enum class kind { all, cidr, ip, domain } type = kind::all;
    ip_address ip;        // cidr: the network; ip: the address
    std::size_t bits = 0; // cidr
    std::string host;     // domain: with its leading '.'
    std::string port;     // ip, domain: "" = any port
    bool match_host = false; // domain: "foo.com" also matches "foo.com" itself (".foo.com" does not)

    bool matches(std::string_view h, std::string_view p, const std::optional<ip_address>& addr) const
    {
        switch (type) {
        case kind::all:
            return true;
        case kind::cidr: {
            if (!addr || addr->size != ip.size)
                return false;
            for (std::size_t i = 0; i < ip.size; ++i) {
                const std::size_t left = bits > i * 8 ? std::min<std::size_t>(8, bits - i * 8) : 0;
                const auto mask = static_cast<std::uint8_t>(left == 0 ? 0 : 0xff << (8 - left));
                if ((addr->bytes[i] & mask) != (ip.bytes[i] & mask))
                    return false;
            }
            return true;
        }
        case kind::ip:
            return addr && *addr == ip && (port.empty() || port == p);
        case kind::domain:
            if (addr)
                return false;
            if (h.ends_with(host) || (match_host && h == std::string_view(host).substr(1)))
                return port.empty() || port == p;
            return false;
        }
        return false;
    }
};

// net.ParseCIDR: an address without zone, '/', a decimal prefix length within the address's size.
std::optional<no_proxy_entry> parse_cidr(std::string_view s)
{
    const std::size_t slash = s.find('/');
    if (slash == std::string_view::npos)
        return std::nullopt;
    const std::string_view bits = s.substr(slash + 1);
    const auto ip = parse_ip(s.substr(0, slash), false);
    if (!ip || bits.empty() || bits.size() > 3 || !all_digits(bits))
        return std::nullopt;
    no_proxy_entry e;
    e.type = no_proxy_entry::kind::cidr;
    e.ip = *ip;
    // An IPv4-mapped literal (::ffff:a.b.c.d/n) is a 16-byte network to Go (Is4 is false for it).
    if (s.substr(0, slash).find(':') != std::string_view::npos && ip->size == 4) {
        std::array<std::uint8_t, 16> b{};
        b[10] = b[11] = 0xff;
        std::copy(ip->bytes.begin(), ip->bytes.begin() + 4, b.begin() + 12);
        e.ip.bytes = b;
        e.ip.size = 16;
    }
    e.bits = static_cast<std::size_t>(std::stoul(std::string(bits)));
    if (e.bits > e.ip.size * 8)
        return std::nullopt;
    return e;
}

// net.SplitHostPort: "host:port" or "[host]:port"; nullopt when there is no port or too many colons.
std::optional<std::pair<std::string, std::string>> split_host_port(std::string_view s)
{
    const std::size_t colon = s.rfind(':');
    if (colon == std::string_view::npos)
        return std::nullopt;
    std::string_view host;
    if (s.starts_with("[")) {
        const std::size_t close = s.find(']');
        if (close == std::string_view::npos || close + 1 != colon)
            return std::nullopt;
        host = s.substr(1, close - 1);
    } else {
        host = s.substr(0, colon);
        if (host.find(':') != std::string_view::npos)
            return std::nullopt;
    }
    if (host.find_first_of("[]") != std::string_view::npos || s.substr(colon + 1).find_first_of("[]") != std::string_view::npos)
        return std::nullopt;
    return std::pair{std::string(host), std::string(s.substr(colon + 1))};
}

std::vector<no_proxy_entry> parse_no_proxy(std::string_view no_proxy)
{
    std::vector<no_proxy_entry> out;
    while (true) {
        const std::size_t comma = no_proxy.find(',');
        const std::string p = lower(trim(no_proxy.substr(0, comma)));
        if (!p.empty()) {
            if (p == "*")
                return {no_proxy_entry{}};
            if (auto cidr = parse_cidr(p))
                out.push_back(*cidr);
            else {
                std::string host = p, port;
                if (auto hp = split_host_port(p)) {
                    host = hp->first;
                    port = hp->second;
                }
                if (!host.empty()) {
                    if (auto ip = parse_ip(host, false)) {
                        no_proxy_entry e;
                        e.type = no_proxy_entry::kind::ip;
                        e.ip = *ip;
                        e.port = port;
                        out.push_back(e);
                    } else {
                        if (host.starts_with("*."))
                            host.erase(0, 1);
                        no_proxy_entry e;
                        e.type = no_proxy_entry::kind::domain;
                        e.match_host = host[0] != '.';
                        e.host = e.match_host ? "." + host : host;
                        e.port = port;
                        out.push_back(e);
                    }
                }
            }
        }
        if (comma == std::string_view::npos)
            return out;
        no_proxy.remove_prefix(comma + 1);
    }
}

// net/http sends a plain-HTTP request to an HTTP proxy as is (absolute-form), with no CONNECT; this client
// only tunnels, so it refuses that pairing rather than send something else.
result<std::optional<proxy_url>> usable(proxy_url p, std::string_view scheme)
{
    if (scheme == "http" && p.scheme == "http")
        return failure{p.origin + ": an http:// API server through an HTTP proxy is not supported by this client "
                                  "(it tunnels with CONNECT; client-go would forward plain requests); use the https:// "
                                  "address, a socks5:// proxy, or NO_PROXY", {}};
    return std::optional<proxy_url>(std::move(p));
}

} // namespace

std::string proxy_url::redacted() const
{
    return scheme + "://" + (host.find(':') != std::string::npos ? "[" + host + "]" : host) + ":" + port;
}

result<proxy_url> parse_proxy_url(std::string_view text, std::string_view origin)
{
    auto parts = split_url(text);
    if (!parts || parts->scheme.empty())
        return failure{std::string(origin) + ": not a URL (scheme://[user:password@]host:port, the scheme http or socks5)", {}};
    return to_proxy(std::move(*parts), origin, false);
}

result<proxy_url> parse_environment_proxy(std::string_view text, std::string_view origin)
{
    auto parts = split_url(text);
    if (!parts || parts->scheme.empty() || parts->host.empty())
        parts = split_url("http://" + std::string(text));
    if (!parts)
        return failure{std::string(origin) + ": not a URL", {}};
    return to_proxy(std::move(*parts), origin, true);
}

bool environment_proxies(std::string_view no_proxy, std::string_view host, std::string_view port)
{
    if (host == "localhost")
        return false;
    const auto ip = parse_ip(host, true);
    if (ip && is_loopback(*ip))
        return false;
    const std::string h = lower(trim(host));
    const auto entries = parse_no_proxy(no_proxy);
    // httpproxy: the IP matchers (all, CIDR, IP) only for an IP host, then the domain matchers, which
    // never match an IP ("*" is in both lists).
    for (const auto& e : entries)
        if (e.matches(h, port, ip))
            return false;
    return true;
}

result<std::optional<proxy_url>> proxy_for(std::string_view kubeconfig_proxy_url, const proxy_environment& env,
                                           std::string_view scheme, std::string_view host, std::string_view port)
{
    if (!kubeconfig_proxy_url.empty()) {
        auto p = parse_proxy_url(kubeconfig_proxy_url, "the kubeconfig's proxy-url");
        if (!p)
            return p.error();
        return usable(std::move(*p), scheme);
    }
    const proxy_variable& v = scheme == "https" ? env.https_proxy : env.http_proxy;
    if (v.value.empty())
        return std::optional<proxy_url>();
    // httpproxy's config.init ignores a value that does not parse: no proxy.
    auto p = parse_environment_proxy(v.value, v.name);
    if (!p && p.error().message == v.name + ": not a URL")
        return std::optional<proxy_url>();
    if (scheme == "http" && env.cgi)
        return failure{"refusing to use " + v.name + " while REQUEST_METHOD is set (a CGI environment, where a client "
                       "can set it; see golang.org/s/cgihttpproxy)", {}};
    if (!environment_proxies(env.no_proxy.value, host, port))
        return std::optional<proxy_url>();
    if (!p)
        return p.error();
    return usable(std::move(*p), scheme);
}

} // namespace detail
} // namespace kpw::kube
