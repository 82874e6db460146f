// SPDX-License-Identifier: Apache-2.0
// context_pool: one single-threaded io_context per server thread; connections are spread over them.
#pragma once

#include <cstddef>
#include <memory>
#include <vector>

#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>

#include "server/logger.hpp"

namespace kpw::server {

// A connection lives on one context and only that context's thread touches it: no strands, and no
// type-erased executor (the concrete io_context executor is a pointer, cheap to copy per operation).
using executor = boost::asio::io_context::executor_type;
using tcp_socket = boost::asio::ip::tcp::socket::rebind_executor<executor>::other;

class context_pool {
public:
    // `threads` contexts, each created with a concurrency hint of 1 (its only thread runs it).
    explicit context_pool(std::size_t threads);

    // The first context: signals, timers, watchers, listeners and the probe/metrics sessions.
    boost::asio::io_context& main() { return *contexts_.front(); }
    // Round-robin over all contexts, for each accepted webhook connection. Called by one acceptor.
    boost::asio::io_context& next();

    // Runs every context, the main one on the calling thread, until stop(). A handler that throws
    // (a bug) is logged and its thread keeps serving.
    void run(const logger& log);
    // Thread-safe.
    void stop();

private:
    using work_guard = boost::asio::executor_work_guard<executor>;

    std::vector<std::unique_ptr<boost::asio::io_context>> contexts_;
    std::vector<work_guard> guards_; // idle worker contexts keep running until stop()
    std::size_t next_ = 0;
};

} // namespace kpw::server
