// SPDX-License-Identifier: Apache-2.0
#include "fake_proxy.hpp"

#include <arpa/inet.h>
#include <netdb.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <stdexcept>

#include <openssl/evp.h>

namespace kpw::test {
namespace {

bool read_exact(int fd, void* into, std::size_t n)
{
    auto* p = static_cast<char*>(into);
    while (n > 0) {
        const ssize_t got = ::recv(fd, p, n, 0);
        if (got <= 0)
            return false;
        p += got;
        n -= static_cast<std::size_t>(got);
    }
    return true;
}

bool write_all(int fd, const void* data, std::size_t n)
{
    const auto* p = static_cast<const char*>(data);
    while (n > 0) {
        const ssize_t put = ::send(fd, p, n, MSG_NOSIGNAL);
        if (put <= 0)
            return false;
        p += put;
        n -= static_cast<std::size_t>(put);
    }
    return true;
}

bool write_all(int fd, const std::string& s)
{
    return write_all(fd, s.data(), s.size());
}

std::string lower(std::string s)
{
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return s;
}

std::string basic(const std::string& user, const std::string& password)
{
    const std::string plain = user + ":" + password;
    std::string out(4 * ((plain.size() + 2) / 3), '\0');
    const int n = EVP_EncodeBlock(reinterpret_cast<unsigned char*>(out.data()),
                                  reinterpret_cast<const unsigned char*>(plain.data()), static_cast<int>(plain.size()));
    out.resize(static_cast<std::size_t>(n));
    return "Basic " + out;
}

} // namespace

fake_proxy::fake_proxy(options o) : options_(std::move(o))
{
    listener_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof addr;
    if (listener_ < 0 || ::bind(listener_, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0 ||
        ::listen(listener_, 16) != 0 || ::getsockname(listener_, reinterpret_cast<sockaddr*>(&addr), &len) != 0)
        throw std::runtime_error("fake_proxy: cannot listen on 127.0.0.1");
    port_ = ntohs(addr.sin_port);
    acceptor_ = std::thread([this] { accept_loop(); });
}

fake_proxy::~fake_proxy()
{
    stopping_ = true;
    ::shutdown(listener_, SHUT_RDWR); // wakes accept()
    acceptor_.join();
    ::close(listener_);
    std::vector<std::thread> threads;
    {
        std::lock_guard lock(mutex_);
        for (const int fd : fds_)
            ::shutdown(fd, SHUT_RDWR); // wakes every recv(): the threads end
        threads.swap(threads_);
    }
    for (auto& t : threads)
        t.join();
    for (const int fd : fds_)
        ::close(fd);
}

std::string fake_proxy::url() const
{
    return std::string(options_.socks5 ? "socks5" : "http") + "://127.0.0.1:" + std::to_string(port_);
}

std::vector<std::string> fake_proxy::targets() const
{
    std::lock_guard lock(mutex_);
    return targets_;
}

std::vector<std::string> fake_proxy::authorizations() const
{
    std::lock_guard lock(mutex_);
    return authorizations_;
}

std::size_t fake_proxy::connections() const
{
    std::lock_guard lock(mutex_);
    return connections_;
}

void fake_proxy::track(int fd)
{
    std::lock_guard lock(mutex_);
    fds_.push_back(fd);
}

void fake_proxy::accept_loop()
{
    while (!stopping_) {
        const int fd = ::accept4(listener_, nullptr, nullptr, SOCK_CLOEXEC);
        if (fd < 0)
            return;
        std::lock_guard lock(mutex_);
        if (stopping_) {
            ::close(fd);
            return;
        }
        ++connections_;
        fds_.push_back(fd);
        threads_.emplace_back([this, fd] { serve(fd); });
    }
}

int fake_proxy::dial(const std::string& target) const
{
    const std::size_t colon = target.rfind(':');
    if (colon == std::string::npos)
        return -1;
    std::string host = target.substr(0, colon);
    if (host.starts_with("[") && host.ends_with("]"))
        host = host.substr(1, host.size() - 2);
    if (auto it = options_.hosts.find(host); it != options_.hosts.end())
        host = it->second;
    addrinfo hints{};
    hints.ai_flags = AI_NUMERICHOST | AI_NUMERICSERV; // never a DNS query
    hints.ai_socktype = SOCK_STREAM;
    addrinfo* found = nullptr;
    if (::getaddrinfo(host.c_str(), target.substr(colon + 1).c_str(), &hints, &found) != 0)
        return -1;
    const int fd = ::socket(found->ai_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
    const bool ok = fd >= 0 && ::connect(fd, found->ai_addr, found->ai_addrlen) == 0;
    ::freeaddrinfo(found);
    if (!ok) {
        if (fd >= 0)
            ::close(fd);
        return -1;
    }
    return fd;
}

bool fake_proxy::http_handshake(int fd, std::string& target)
{
    std::string head;
    char c = 0;
    while (!head.ends_with("\r\n\r\n")) {
        if (head.size() > 16384 || !read_exact(fd, &c, 1))
            return false;
        head += c;
    }
    // "CONNECT host:port HTTP/1.1"
    const std::size_t sp1 = head.find(' '), sp2 = head.find(' ', sp1 + 1);
    if (head.substr(0, sp1) != "CONNECT" || sp2 == std::string::npos)
        return write_all(fd, "HTTP/1.1 405 Method Not Allowed\r\nContent-Length: 0\r\n\r\n"), false;
    target = head.substr(sp1 + 1, sp2 - sp1 - 1);
    std::string authorization;
    const std::string lowered = lower(head);
    if (const std::size_t at = lowered.find("\r\nproxy-authorization:"); at != std::string::npos) {
        const std::size_t from = at + 22, end = head.find("\r\n", from);
        authorization = head.substr(from, end - from);
        authorization.erase(0, authorization.find_first_not_of(' '));
    }
    {
        std::lock_guard lock(mutex_);
        targets_.push_back(target);
        authorizations_.push_back(authorization);
    }
    if (options_.close_at_once || options_.stall)
        return false;
    if (!options_.user.empty() && authorization != basic(options_.user, options_.password))
        return write_all(fd, "HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm=\"test\"\r\n"
                             "Content-Length: 0\r\n\r\n"),
               false;
    if (options_.status != 200)
        return write_all(fd, "HTTP/1.1 " + std::to_string(options_.status) + " " + options_.reason +
                                 "\r\nContent-Length: 0\r\n\r\n"),
               false;
    return true;
}

bool fake_proxy::socks5_handshake(int fd, std::string& target, int& upstream)
{
    unsigned char hello[2];
    if (!read_exact(fd, hello, 2) || hello[0] != 5)
        return false;
    std::string methods(hello[1], '\0');
    if (!read_exact(fd, methods.data(), methods.size()))
        return false;
    if (options_.close_at_once || options_.stall)
        return false;
    const bool need_auth = !options_.user.empty();
    const char wanted = need_auth ? 2 : 0;
    if (methods.find(wanted) == std::string::npos) {
        const unsigned char none[2] = {5, 0xff};
        write_all(fd, none, 2);
        return false;
    }
    const unsigned char chosen[2] = {5, static_cast<unsigned char>(wanted)};
    if (!write_all(fd, chosen, 2))
        return false;
    if (need_auth) {
        unsigned char v[2];
        if (!read_exact(fd, v, 2))
            return false;
        std::string user(v[1], '\0');
        unsigned char plen = 0;
        if (!read_exact(fd, user.data(), user.size()) || !read_exact(fd, &plen, 1))
            return false;
        std::string password(plen, '\0');
        if (!read_exact(fd, password.data(), password.size()))
            return false;
        {
            std::lock_guard lock(mutex_);
            authorizations_.push_back(user + ":" + password);
        }
        const bool ok = user == options_.user && password == options_.password;
        const unsigned char status[2] = {1, static_cast<unsigned char>(ok ? 0 : 1)};
        if (!write_all(fd, status, 2) || !ok)
            return false;
    }
    unsigned char req[4];
    if (!read_exact(fd, req, 4) || req[0] != 5 || req[1] != 1)
        return false;
    std::string host;
    if (req[3] == 1 || req[3] == 4) {
        unsigned char ip[16];
        char text[INET6_ADDRSTRLEN] = {};
        const bool v4 = req[3] == 1;
        if (!read_exact(fd, ip, v4 ? 4 : 16) || inet_ntop(v4 ? AF_INET : AF_INET6, ip, text, sizeof text) == nullptr)
            return false;
        host = v4 ? text : "[" + std::string(text) + "]";
    } else if (req[3] == 3) {
        unsigned char n = 0;
        if (!read_exact(fd, &n, 1))
            return false;
        host.resize(n);
        if (!read_exact(fd, host.data(), n))
            return false;
    } else
        return false;
    unsigned char port[2];
    if (!read_exact(fd, port, 2))
        return false;
    target = host + ":" + std::to_string(port[0] * 256 + port[1]);
    {
        std::lock_guard lock(mutex_);
        targets_.push_back(target);
    }
    upstream = dial(target);
    // Bound address 0.0.0.0:0; reply 5 (connection refused) when the target cannot be reached.
    const unsigned char reply[10] = {5, static_cast<unsigned char>(upstream < 0 ? 5 : 0), 0, 1, 0, 0, 0, 0, 0, 0};
    return write_all(fd, reply, sizeof reply) && upstream >= 0;
}

void fake_proxy::serve(int fd)
{
    std::string target;
    int upstream = -1;
    bool ok = false;
    if (options_.socks5)
        ok = socks5_handshake(fd, target, upstream);
    else if (http_handshake(fd, target)) {
        upstream = dial(target);
        ok = write_all(fd, upstream < 0 ? "HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\n\r\n"
                                        : "HTTP/1.1 200 Connection established\r\n\r\n") &&
             upstream >= 0;
    }
    if (options_.stall) {
        char c = 0;
        while (::recv(fd, &c, 1, 0) > 0) {
        }
        return;
    }
    if (!ok) {
        ::shutdown(fd, SHUT_RDWR);
        if (upstream >= 0)
            ::close(upstream);
        return;
    }
    track(upstream);
    relay(fd, upstream);
}

void fake_proxy::relay(int client, int upstream)
{
    const auto pump = [](int from, int to) {
        char buf[16384];
        while (true) {
            const ssize_t n = ::recv(from, buf, sizeof buf, 0);
            if (n <= 0 || !write_all(to, buf, static_cast<std::size_t>(n)))
                break;
        }
        ::shutdown(from, SHUT_RDWR);
        ::shutdown(to, SHUT_RDWR);
    };
    std::thread back([&] { pump(upstream, client); });
    pump(client, upstream);
    back.join();
}

} // namespace kpw::test
