// SPDX-License-Identifier: Apache-2.0
// Listing and checking the controllers' flags.
#include "settings/controller_settings.hpp"

#include <cstdio>

#include "model/time.hpp"

namespace kpw::settings {

namespace {

std::string flag(std::string_view name, std::string_view value)
{
    return "--" + std::string(name) + "=" + std::string(value);
}

std::string boolean(bool b) { return b ? "true" : "false"; }

// Go's %v of a float32 flag value ("0.5", "2", "0.25").
std::string go_float(double v)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", v);
    return buf;
}

} // namespace

std::vector<std::string> describe(const controller_settings& s)
{
    return {
        flag("feature-gates", s.gates.non_defaults()),
        flag("enable-taint-manager", boolean(s.enable_taint_manager)),
        flag("enable-no-execute-taint-eviction", boolean(s.enable_no_execute_taint_eviction)),
        flag("no-execute-taint-eviction-purge-mode", s.no_execute_taint_eviction_purge_mode),
        flag("graceful-eviction-timeout", model::format_go_duration(s.graceful_eviction_timeout)),
        flag("resource-eviction-rate", go_float(s.resource_eviction_rate)),
        flag("cluster-failure-threshold", model::format_go_duration(s.cluster_failure_threshold)),
        flag("cluster-success-threshold", model::format_go_duration(s.cluster_success_threshold)),
        flag("cluster-monitor-grace-period", model::format_go_duration(s.cluster_monitor_grace_period)),
        flag("scheduler-name", s.scheduler_name),
    };
}

field::error_list validate(const controller_settings& s)
{
    // karmada: cmd/controller-manager/app/options/cluster_failover.go ClusterFailoverOptions.Validate.
    field::error_list errs;
    auto root = field::path::root("ClusterFailoverOptions");
    const auto& mode = s.no_execute_taint_eviction_purge_mode;
    if (s.enable_no_execute_taint_eviction && mode != "Gracefully" && mode != "Directly")
        errs.push_back(
            field::invalid(root.child("NoExecuteTaintEvictionPurgeMode"), field::go_quote(mode), "Invalid mode"));
    if (s.resource_eviction_rate < 0)
        errs.push_back(field::invalid(root.child("ResourceEvictionRate"), go_float(s.resource_eviction_rate),
                                      "must be non-negative"));
    return errs;
}

double eviction_interval_seconds(const controller_settings& s)
{
    return s.resource_eviction_rate == 0 ? 1800.0 : 1.0 / s.resource_eviction_rate;
}

} // namespace kpw::settings
