// SPDX-License-Identifier: Apache-2.0
// cert_watcher: the current TLS context, rebuilt when the certificate files change on disk.
#pragma once

#include <chrono>
#include <memory>
#include <mutex>

#include <boost/asio/io_context.hpp>
#include <boost/asio/ssl/context.hpp>

#include "base/result.hpp"
#include "server/file_watcher.hpp"
#include "server/logger.hpp"
#include "server/metrics.hpp"
#include "server/tls_context.hpp"

namespace kpw::server {

// Watches the files with a file_watcher (Kubernetes Secret volumes included). A pair that fails to
// load (key and certificate caught mid-rotation) keeps the old context until the files change again.
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
    void reload();

    tls_files files_;
    int min_version_;
    metrics& stats_;
    const logger& log_;
    file_watcher watcher_;
    mutable std::mutex mutex_;
    std::shared_ptr<boost::asio::ssl::context> current_;
};

} // namespace kpw::server
