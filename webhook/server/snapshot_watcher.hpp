// SPDX-License-Identifier: Apache-2.0
// snapshot_watcher: serve's cluster snapshot and known workloads, reloaded when their files change.
#pragma once

#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include <boost/asio/io_context.hpp>

#include "base/result.hpp"
#include "server/file_watcher.hpp"
#include "server/logger.hpp"
#include "server/metrics.hpp"
#include "snapshot/holder.hpp"

namespace kpw::server {

// Loads with snapshot::load (the code lint --clusters/--workloads uses) into a fresh state and swaps
// it into `target` whole. Any file error fails the load: a failed first load stops `serve`, a failed
// reload keeps the previous snapshot (logged, counted) until the files change again.
class snapshot_watcher {
public:
    snapshot_watcher(boost::asio::io_context& ioc, std::vector<std::string> cluster_paths,
                     std::vector<std::string> workload_paths, std::chrono::milliseconds interval,
                     std::shared_ptr<snapshot::holder> target, metrics& stats, const logger& log);

    result<bool> load();
    void start();
    void stop(); // thread-safe

private:
    result<std::shared_ptr<const snapshot::state>> read() const;
    void reload();
    void publish(std::shared_ptr<const snapshot::state> next, const char* what);

    std::vector<std::string> cluster_paths_, workload_paths_;
    std::shared_ptr<snapshot::holder> target_;
    metrics& stats_;
    const logger& log_;
    file_watcher watcher_;
};

} // namespace kpw::server
