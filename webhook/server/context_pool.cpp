// SPDX-License-Identifier: Apache-2.0
// The per-thread io_contexts and their threads.
#include "server/context_pool.hpp"

#include <algorithm>
#include <thread>

namespace kpw::server {

context_pool::context_pool(std::size_t threads)
{
    const std::size_t n = std::max<std::size_t>(threads, 1);
    contexts_.reserve(n);
    guards_.reserve(n);
    for (std::size_t i = 0; i < n; ++i) {
        contexts_.push_back(std::make_unique<boost::asio::io_context>(1));
        guards_.push_back(boost::asio::make_work_guard(contexts_.back()->get_executor()));
    }
}

boost::asio::io_context& context_pool::next()
{
    auto& ioc = *contexts_[next_];
    next_ = (next_ + 1) % contexts_.size();
    return ioc;
}

void context_pool::run(const logger& log)
{
    auto loop = [&log](boost::asio::io_context& ioc) {
        for (;;) {
            try {
                ioc.run();
                return;
            } catch (const std::exception& e) { // a bug: handlers must not throw; keep the thread serving
                log.error("exception escaped a handler", "error=" + logger::quote(e.what()));
            }
        }
    };
    std::vector<std::thread> threads;
    threads.reserve(contexts_.size() - 1);
    for (std::size_t i = 1; i < contexts_.size(); ++i)
        threads.emplace_back(loop, std::ref(*contexts_[i]));
    loop(main());
    for (auto& t : threads)
        t.join();
}

void context_pool::stop()
{
    for (auto& ioc : contexts_)
        ioc->stop();
}

} // namespace kpw::server
