// SPDX-License-Identifier: Apache-2.0
// listener: accepts TCP connections on one endpoint, onto its own context or spread over a pool.
#pragma once

#include <functional>
#include <memory>

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/steady_timer.hpp>

#include "base/result.hpp"
#include "server/context_pool.hpp"
#include "server/logger.hpp"

namespace kpw::server {

class listener : public std::enable_shared_from_this<listener> {
public:
    // Receives each accepted socket, on the listener's thread. If it throws, the error is logged,
    // that socket is dropped and accepting goes on.
    using accept_handler = std::function<void(tcp_socket&&)>;

    // Binds and listens; fails with "cannot listen on <addr>: <reason>" (port in use, bad address).
    // Accepted sockets belong to `ioc`, or with `spread` to its contexts in turn.
    static result<std::shared_ptr<listener>> open(boost::asio::io_context& ioc, const boost::asio::ip::tcp::endpoint& ep,
                                                  accept_handler on_accept, const logger& log,
                                                  context_pool* spread = nullptr);

    listener(boost::asio::io_context& ioc, accept_handler on_accept, const logger& log, context_pool* spread);

    // The bound endpoint (the real port when 0 was asked for).
    boost::asio::ip::tcp::endpoint local_endpoint() const { return endpoint_; }
    void run();
    // Stops accepting; thread-safe. Connections already accepted are not affected.
    void close();

private:
    void do_accept();
    void on_accept(boost::system::error_code ec, tcp_socket socket);
    void on_close();

    boost::asio::io_context& ioc_;
    context_pool* spread_;
    // On ioc_, whose only thread runs every handler of the listener: no strand needed.
    boost::asio::basic_socket_acceptor<boost::asio::ip::tcp, executor> acceptor_;
    boost::asio::basic_waitable_timer<std::chrono::steady_clock, boost::asio::wait_traits<std::chrono::steady_clock>,
                                      executor>
        retry_;
    boost::asio::ip::tcp::endpoint endpoint_;
    accept_handler on_accept_;
    const logger& log_;
    bool closed_ = false;
};

} // namespace kpw::server
