// SPDX-License-Identifier: Apache-2.0
// fake_proxy: an in-process forward proxy for tests, on 127.0.0.1 (ephemeral port): HTTP/1.1 CONNECT or
// SOCKS5 (RFC 1928, RFC 1929 username/password), relaying each tunnel to its target. It records every
// target and credential it was shown, can demand credentials, answer CONNECT with another status, close
// at once or stall. Targets are reached only by IP literal or through `hosts` (a name -> IP map): it
// never resolves a name, so a test makes no DNS query. One thread accepts, two per tunnel; the
// destructor closes every socket and joins them.
#pragma once

#include <atomic>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace kpw::test {

class fake_proxy {
public:
    struct options {
        bool socks5 = false;             // else HTTP CONNECT
        std::string user, password;      // set: only these credentials open a tunnel (407 / RFC 1929 failure)
        unsigned status = 200;           // CONNECT's answer when not 200 (with `reason`): no tunnel
        std::string reason = "OK";
        bool close_at_once = false;      // read the request, close without a word
        bool stall = false;              // read the request, never answer (until destroyed)
        std::map<std::string, std::string> hosts; // target names the proxy resolves ("kube.test" -> "127.0.0.1")
    };

    explicit fake_proxy(options o);
    fake_proxy() : fake_proxy(options{}) {}
    ~fake_proxy();
    fake_proxy(const fake_proxy&) = delete;
    fake_proxy& operator=(const fake_proxy&) = delete;

    unsigned short port() const { return port_; }
    std::string url() const; // http://127.0.0.1:<port> or socks5://127.0.0.1:<port>

    std::vector<std::string> targets() const;        // "host:port" as each CONNECT asked, in order
    std::vector<std::string> authorizations() const; // HTTP: Proxy-Authorization ("" when none); SOCKS5: "user:password"
    std::size_t connections() const;                 // TCP connections accepted

private:
    void accept_loop();
    void serve(int fd);
    bool http_handshake(int fd, std::string& target);
    bool socks5_handshake(int fd, std::string& target, int& upstream);
    int dial(const std::string& target) const; // -1 when it cannot
    void relay(int client, int upstream);
    void track(int fd);

    options options_;
    int listener_ = -1;
    unsigned short port_ = 0;
    std::atomic<bool> stopping_{false};
    mutable std::mutex mutex_;
    std::vector<std::string> targets_, authorizations_;
    std::size_t connections_ = 0;
    std::vector<int> fds_;
    std::vector<std::thread> threads_;
    std::thread acceptor_;
};

} // namespace kpw::test
