// SPDX-License-Identifier: Apache-2.0
// listener: accepts TCP connections on one endpoint, each onto its own strand.
#pragma once

#include <functional>
#include <memory>

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>

#include "base/result.hpp"
#include "server/logger.hpp"

namespace kpw::server {

class listener : public std::enable_shared_from_this<listener> {
public:
    // Receives each accepted socket (its executor is a fresh strand). Must not throw.
    using accept_handler = std::function<void(boost::asio::ip::tcp::socket&&)>;

    // Binds and listens; fails with "cannot listen on <addr>: <reason>" (port in use, bad address).
    static result<std::shared_ptr<listener>> open(boost::asio::io_context& ioc, const boost::asio::ip::tcp::endpoint& ep,
                                                  accept_handler on_accept, const logger& log);

    listener(boost::asio::io_context& ioc, accept_handler on_accept, const logger& log);

    // The bound endpoint (the real port when 0 was asked for).
    boost::asio::ip::tcp::endpoint local_endpoint() const { return endpoint_; }
    void run();
    // Stops accepting; thread-safe. Connections already accepted are not affected.
    void close();

private:
    void do_accept();
    void on_accept(boost::system::error_code ec, boost::asio::ip::tcp::socket socket);
    void on_close();

    boost::asio::io_context& ioc_;
    boost::asio::strand<boost::asio::io_context::executor_type> strand_;
    boost::asio::ip::tcp::acceptor acceptor_;
    boost::asio::steady_timer retry_;
    boost::asio::ip::tcp::endpoint endpoint_;
    accept_handler on_accept_;
    const logger& log_;
    bool closed_ = false;
};

} // namespace kpw::server
