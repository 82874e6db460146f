// SPDX-License-Identifier: Apache-2.0
// server_state: what every session shares — handlers, metrics, logger, readiness, live connections.
#pragma once

#include <array>
#include <atomic>
#include <memory>

#include "admission/policy_handler.hpp"
#include "server/connection_registry.hpp"
#include "server/logger.hpp"
#include "server/metrics.hpp"
#include "server/options.hpp"

namespace kpw::server {

class server_state {
public:
    server_state(const serve_options& options, std::string version);

    const serve_options& options() const { return options_; }
    const admission::handler& handler(webhook_path w) const { return *handlers_[static_cast<std::size_t>(w)]; }
    metrics& stats() { return metrics_; }
    const logger& log() const { return log_; }
    connection_registry& connections() { return connections_; }
    // The probe and metrics ports' connections, capped on their own (max_probe_connections).
    connection_registry& probe_connections() { return probe_connections_; }
    // What --clusters loads into; null without it.
    const std::shared_ptr<snapshot::holder>& cluster_snapshot() const { return snapshot_; }

    // Ready once the TLS listener accepts; not ready again from the start of shutdown.
    bool ready() const { return ready_.load(std::memory_order_acquire) && !draining(); }
    void set_ready() { ready_.store(true, std::memory_order_release); }
    bool draining() const { return draining_.load(std::memory_order_acquire); }
    void start_draining() { draining_.store(true, std::memory_order_release); }

private:
    serve_options options_;
    std::shared_ptr<snapshot::holder> snapshot_; // before handlers_: they share it
    std::array<std::unique_ptr<admission::policy_handler>, webhook_path_count> handlers_;
    metrics metrics_;
    logger log_;
    connection_registry connections_;
    connection_registry probe_connections_;
    std::atomic<bool> ready_{false};
    std::atomic<bool> draining_{false};
};

} // namespace kpw::server
