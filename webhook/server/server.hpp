// SPDX-License-Identifier: Apache-2.0
// server: the `serve` process — listeners, certificate reload, signals and graceful shutdown.
#pragma once

#include <chrono>
#include <memory>
#include <optional>
#include <string>

#include <boost/asio/signal_set.hpp>
#include <boost/asio/steady_timer.hpp>

#include "server/cert_watcher.hpp"
#include "server/context_pool.hpp"
#include "server/listener.hpp"
#include "server/live_snapshot.hpp"
#include "server/server_state.hpp"
#include "server/snapshot_watcher.hpp"

namespace kpw::server {

class server {
public:
    server(const serve_options& options, std::string version);

    // Sets up (bad flags, unreadable certificates, busy ports: message and exit code 2), then
    // serves until SIGTERM/SIGINT and drains; returns 0 after a graceful stop.
    int run();

private:
    result<bool> prepare();
    result<bool> open_listeners();
    void check_open_file_limit();
    void announce();
    void on_signal(boost::system::error_code ec, int signal);
    void check_drained();
    void finish();

    server_state state_; // first: sessions destroyed with their io_context still reach the registry
    context_pool pool_;
    boost::asio::io_context& ioc_; // pool_.main(): signals, drain timer, watchers, listeners
    boost::asio::signal_set signals_;
    boost::asio::steady_timer drain_timer_;
    std::chrono::steady_clock::time_point drain_deadline_;
    std::optional<cert_watcher> watcher_;
    std::optional<snapshot_watcher> snapshot_watcher_; // with --clusters
    std::unique_ptr<live_snapshot> live_snapshot_;     // with --kubeconfig / --in-cluster
    std::optional<boost::asio::ip::tcp::endpoint> webhook_ep_, health_ep_, metrics_ep_;
    std::shared_ptr<listener> webhook_, health_, metrics_;
};

} // namespace kpw::server
