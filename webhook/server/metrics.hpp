// SPDX-License-Identifier: Apache-2.0
// Prometheus metrics with controller-runtime's webhook names, rendered in the text format 0.0.4.
#pragma once

#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

namespace kpw::server {

// The served webhook paths; their index labels every per-webhook series.
enum class webhook_path : std::size_t { validate, propagation_policy, cluster_propagation_policy };
inline constexpr std::size_t webhook_path_count = 3;
std::string_view path_of(webhook_path w); // "/validate", "/validate-propagationpolicy", ...

class metrics {
public:
    // controller-runtime's default buckets, plus sub-5 ms ones: this webhook answers in microseconds.
    static constexpr std::array<double, 14> latency_buckets = {0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05,
                                                               0.1,    0.25,  0.5,    1,     2.5,   5,     10};

    explicit metrics(std::string version) : version_(std::move(version)) {}

    // controller_runtime_webhook_requests_in_flight
    void begin_request(webhook_path w);
    // requests_total{webhook,code=<HTTP status>}, latency histogram, in-flight decrement, and one
    // karmada_policy_webhook_denials_total{webhook,reason} per cause when the review was not allowed.
    void end_request(webhook_path w, unsigned http_status, std::chrono::nanoseconds latency,
                     const std::vector<std::string>& denial_causes);
    // A request whose body never arrived (timeout, reset): only the in-flight gauge changes.
    void abandon_request(webhook_path w);

    void certificate_reload(bool ok);
    // serve --clusters: the loaded snapshot's size (the snapshot series appear from the first load).
    void snapshot_loaded(std::size_t clusters, std::size_t workloads);
    void snapshot_reload(bool ok);
    // serve --kubeconfig: one watched collection's state ("starting", "synced", "retrying", "stopped"),
    // objects held and last successful sync (seconds since the epoch; 0: never).
    void live_watch(const std::string& resource, const std::string& state, std::size_t objects, double last_sync);
    // serve --live-workloads: whether discovery found the kind ("example.com/v1/Foo") served (absent until asked).
    void live_kind(const std::string& api_version_kind, bool served);
    void connection_rejected();
    void set_open_connections(std::int64_t n) { open_connections_.store(n, std::memory_order_relaxed); }

    std::string render() const;

private:
    struct histogram {
        std::array<std::uint64_t, latency_buckets.size()> counts{}; // per bucket, not cumulative
        std::uint64_t count = 0;
        double sum = 0;
    };

    void render_requests(std::string& out) const;
    void render_latency(std::string& out) const;
    void render_other(std::string& out) const;
    void render_snapshot(std::string& out) const;
    void render_live(std::string& out) const;

    struct live_series {
        std::string state;
        std::size_t objects = 0;
        double last_sync = 0;
    };

    std::string version_;
    mutable std::mutex mutex_;
    std::array<std::map<unsigned, std::uint64_t>, webhook_path_count> requests_;
    std::array<histogram, webhook_path_count> latency_;
    std::map<std::pair<std::size_t, std::string>, std::uint64_t> denials_;
    std::array<std::atomic<std::int64_t>, webhook_path_count> in_flight_{};
    std::atomic<std::uint64_t> reloads_ok_{0}, reloads_failed_{0}, rejected_{0};
    std::atomic<std::int64_t> open_connections_{0};
    std::atomic<bool> snapshot_enabled_{false};
    std::atomic<std::uint64_t> snapshot_clusters_{0}, snapshot_workloads_{0};
    std::atomic<std::uint64_t> snapshot_reloads_ok_{0}, snapshot_reloads_failed_{0};
    std::map<std::string, live_series> live_; // by resource; guarded by mutex_
    std::map<std::string, bool> live_kinds_;  // --live-workloads kind -> served; guarded by mutex_
};

} // namespace kpw::server
