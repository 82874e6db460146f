// SPDX-License-Identifier: Apache-2.0
// Snapshot loading, swapping and reload on file change.
#include "server/snapshot_watcher.hpp"

#include <filesystem>

namespace kpw::server {

namespace {

std::vector<std::filesystem::path> watched(const std::vector<std::string>& a, const std::vector<std::string>& b)
{
    std::vector<std::filesystem::path> out(a.begin(), a.end());
    out.insert(out.end(), b.begin(), b.end());
    return out;
}

// The first few problems on one line: enough to find the file, short enough for a log record.
std::string summary(const std::vector<lint::file_error>& errors)
{
    constexpr std::size_t shown = 3;
    std::string s;
    for (std::size_t i = 0; i < errors.size() && i < shown; ++i)
        s += (i ? "; " : "") + errors[i].str();
    if (errors.size() > shown)
        s += "; and " + std::to_string(errors.size() - shown) + " more";
    return s;
}

} // namespace

snapshot_watcher::snapshot_watcher(boost::asio::io_context& ioc, std::vector<std::string> cluster_paths,
                                   std::vector<std::string> workload_paths, std::chrono::milliseconds interval,
                                   std::shared_ptr<snapshot::holder> target, metrics& stats, const logger& log)
    : cluster_paths_(std::move(cluster_paths)), workload_paths_(std::move(workload_paths)), target_(std::move(target)),
      stats_(stats), log_(log), watcher_(ioc, watched(cluster_paths_, workload_paths_), interval, [this] { reload(); })
{
}

result<std::shared_ptr<const snapshot::state>> snapshot_watcher::read() const
{
    auto next = std::make_shared<snapshot::state>();
    std::vector<lint::file_error> errors;
    // Workloads without metadata.namespace are in "default", as kubectl would create them.
    snapshot::load(*next, cluster_paths_, workload_paths_, "default", errors);
    if (!errors.empty())
        return failure{"--clusters/--workloads: " + summary(errors), {}};
    return std::shared_ptr<const snapshot::state>(std::move(next));
}

void snapshot_watcher::publish(std::shared_ptr<const snapshot::state> next, const char* what)
{
    const auto clusters = next->clusters.size();
    const auto workloads = next->workloads.size();
    target_->replace(std::move(next));
    stats_.snapshot_loaded(clusters, workloads);
    log_.info(what, "clusters=" + std::to_string(clusters) + " workloads=" + std::to_string(workloads));
}

result<bool> snapshot_watcher::load()
{
    watcher_.baseline();
    auto next = read();
    if (!next)
        return next.error();
    publish(std::move(*next), "loaded the cluster snapshot");
    return true;
}

void snapshot_watcher::start()
{
    watcher_.start();
}

void snapshot_watcher::stop()
{
    watcher_.stop();
}

// Runs as an asio completion handler: nothing may escape it.
void snapshot_watcher::reload()
{
    try {
        auto next = read();
        stats_.snapshot_reload(next.ok());
        if (next)
            return publish(std::move(*next), "reloaded the cluster snapshot");
        log_.error("cluster snapshot files changed but do not load; keeping the previous snapshot",
                   "error=" + logger::quote(next.error().message));
    } catch (const std::exception& e) {
        stats_.snapshot_reload(false);
        log_.error("cluster snapshot reload failed; keeping the previous snapshot", "error=" + logger::quote(e.what()));
    }
}

} // namespace kpw::server
