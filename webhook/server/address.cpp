// SPDX-License-Identifier: Apache-2.0
// Listen address parsing (numeric hosts only: a webhook binds to an interface address, not a name).
#include "server/address.hpp"

#include <charconv>
#include <string>

namespace kpw::server {

namespace net = boost::asio;
using tcp = net::ip::tcp;

result<tcp::endpoint> make_endpoint(std::string_view host, int port)
{
    if (port < 0 || port > 65535)
        return failure{"port " + std::to_string(port) + " is out of range 0-65535", {}};
    if (host.empty())
        host = "0.0.0.0";
    if (host == "localhost")
        host = "127.0.0.1";
    boost::system::error_code ec;
    const auto addr = net::ip::make_address(std::string(host), ec);
    if (ec)
        return failure{"invalid bind address \"" + std::string(host) + "\": expected an IP address", {}};
    return tcp::endpoint(addr, static_cast<unsigned short>(port));
}

result<std::optional<tcp::endpoint>> parse_listen_address(std::string_view text)
{
    if (text == "0")
        return std::optional<tcp::endpoint>();
    const auto colon = text.rfind(':');
    if (colon == std::string_view::npos)
        return failure{"invalid address \"" + std::string(text) + "\": expected host:port, :port or 0", {}};
    std::string_view host = text.substr(0, colon);
    const std::string_view port_text = text.substr(colon + 1);
    if (host.size() >= 2 && host.front() == '[' && host.back() == ']')
        host = host.substr(1, host.size() - 2);
    int port = -1;
    const auto [end, ec] = std::from_chars(port_text.data(), port_text.data() + port_text.size(), port);
    if (ec != std::errc() || end != port_text.data() + port_text.size() || port_text.empty())
        return failure{"invalid port in address \"" + std::string(text) + "\"", {}};
    auto ep = make_endpoint(host, port);
    if (!ep)
        return ep.error();
    return std::optional<tcp::endpoint>(*ep);
}

std::string endpoint_text(const tcp::endpoint& ep)
{
    const auto addr = ep.address();
    std::string out;
    if (addr.is_v6())
        out.append(1, '[').append(addr.to_string()).append(1, ']');
    else
        out = addr.to_string();
    return out.append(1, ':').append(std::to_string(ep.port()));
}

} // namespace kpw::server
