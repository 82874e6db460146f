// SPDX-License-Identifier: Apache-2.0
// cert_watcher: the current TLS context, rebuilt when the certificate files change on disk.
#pragma once

#include <chrono>
#include <memory>
#include <mutex>
#include <vector>

#include <boost/asio/io_context.hpp>
#include <boost/asio/ssl/context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>

#include "base/result.hpp"
#include "server/logger.hpp"
#include "server/metrics.hpp"
#include "server/tls_context.hpp"

namespace kpw::server {

// Polls the files' (device, inode, size, mtime) — robust with Kubernetes Secret volumes, whose
// atomic writer swaps a `..data` symlink (stat follows it). A pair that fails to load (key and
// certificate caught mid-rotation) keeps the old context until the files change again.
class cert_watcher {
public:
    cert_watcher(boost::asio::io_context& ioc, tls_files files, int min_version, std::chrono::milliseconds interval,
                 metrics& stats, const logger& log);

    // The first load; its failure is fatal for `serve` (exit 2 before listening).
    result<bool> load();
    // The context new connections get. Thread-safe.
    std::shared_ptr<boost::asio::ssl::context> current() const;

    void start();
    void stop(); // thread-safe

private:
    struct file_stamp {
        unsigned long long dev = 0, ino = 0, size = 0;
        long long mtime_ns = 0;
        bool exists = false;
        friend bool operator==(const file_stamp&, const file_stamp&) = default;
    };

    std::vector<file_stamp> stamps() const;
    void schedule();
    void on_tick(boost::system::error_code ec);

    tls_files files_;
    int min_version_;
    std::chrono::milliseconds interval_;
    metrics& stats_;
    const logger& log_;
    boost::asio::strand<boost::asio::io_context::executor_type> strand_;
    boost::asio::steady_timer timer_;
    std::vector<file_stamp> seen_; // strand only
    bool stopped_ = false;         // strand only
    mutable std::mutex mutex_;
    std::shared_ptr<boost::asio::ssl::context> current_;
};

} // namespace kpw::server
