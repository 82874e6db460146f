// SPDX-License-Identifier: Apache-2.0
// The karmada-controller-manager and karmada-scheduler flags the day-2 controllers read, at the binaries' defaults.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "field/error.hpp"
#include "settings/feature_gates.hpp"

namespace kpw::settings {

// Flag names and defaults: cmd/controller-manager/app/options/options.go and cluster_failover.go,
// cmd/scheduler/app/options/options.go. Durations are whole seconds.
struct controller_settings {
    feature_gates gates;                                       // --feature-gates (both binaries)
    bool enable_taint_manager = true;                          // --enable-taint-manager
    bool enable_no_execute_taint_eviction = false;             // --enable-no-execute-taint-eviction
    std::string no_execute_taint_eviction_purge_mode = "Gracefully"; // --no-execute-taint-eviction-purge-mode
    std::int64_t graceful_eviction_timeout = 600;              // --graceful-eviction-timeout (10m)
    double resource_eviction_rate = 0.5;                       // --resource-eviction-rate (per second)
    std::int64_t cluster_failure_threshold = 30;               // --cluster-failure-threshold
    std::int64_t cluster_success_threshold = 30;               // --cluster-success-threshold
    std::int64_t cluster_monitor_grace_period = 40;            // --cluster-monitor-grace-period
    std::string scheduler_name = "default-scheduler";          // karmada-scheduler --scheduler-name
};

// One "flag=value" line per setting, in the order above, `--feature-gates=` listing the gates that
// differ from their defaults (empty when none): what a simulation says it assumed.
std::vector<std::string> describe(const controller_settings& s);

// The kcm's own option checks (ClusterFailoverOptions.Validate): with eviction enabled the purge mode
// must be Gracefully or Directly (`ClusterFailoverOptions.NoExecuteTaintEvictionPurgeMode: Invalid value:
// "X": Invalid mode`), and the eviction rate must not be negative.
field::error_list validate(const controller_settings& s);

// Seconds between two evictions of one worker: 1 / --resource-eviction-rate, 1800 s for rate 0
// (pkg/controllers/cluster/dynamic_rate_limiter.go, day2-semantics §4.4 "Pacing").
double eviction_interval_seconds(const controller_settings& s);

} // namespace kpw::settings
