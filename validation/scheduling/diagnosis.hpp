// SPDX-License-Identifier: Apache-2.0
// Karmada's user-visible failure texts: the FitError histogram and the Scheduled condition per error.
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <vector>

#include "scheduling/simulator.hpp"

namespace kpw::scheduling {

// karmada: pkg/scheduler/framework/types.go FitError.Error — `reasons` holds one reason per cluster
// that contributed one (deleting clusters contribute none); `all_clusters` = every Cluster object.
// "0/N clusters are available: <count reason, byte-wise sorted, joined by ", ">." or, with no reason at
// all, "0/N clusters are available: no cluster exists.".
std::string fit_error_text(std::size_t all_clusters, std::span<const std::string> reasons);

struct fit_diagnosis {
    std::string text;                      // the text for the registry literal order (day2-semantics §2.2)
    std::vector<std::string> alternatives; // every other text some plugin order prints, sorted
};

// The FitError of one attempt from every plugin each cluster fails (`failures[i]` in registry order;
// empty for a cluster that contributes nothing). The scheduler reports, per cluster, the first failing
// plugin of its process-wide plugin order, so the possible texts are exactly those of the 5! plugin
// orders: at most 120 texts (the printed one plus ≤ 119 alternatives), whatever the cluster count.
fit_diagnosis diagnose_fit(std::size_t all_clusters, std::span<const std::vector<plugin_failure>> failures);

// The same over distinct failure lists, each with the number of clusters that fail exactly so.
struct counted_failures {
    std::vector<plugin_failure> failures; // registry order, reasons only matter
    std::size_t clusters = 1;
};
fit_diagnosis diagnose_fit(std::size_t all_clusters, std::span<const counted_failures> counted);

// How one attempt failed, as Schedule returns it (pkg/scheduler/core/generic_scheduler.go).
enum class failure_stage { fit, selection, assignment };

// The full error text Schedule returns: the FitError unwrapped, "failed to select clusters: <e>" or
// "failed to assign replicas: <e>".
std::string wrapped_error(failure_stage stage, const std::string& error);

// karmada: pkg/scheduler/helper.go getConditionByError — NoClusterFit for a FitError, Unschedulable for
// an UnschedulableError (`unschedulable`: assignment capacity), SchedulerError for the rest (selection's
// errors, assignReplicas' "no clusters available to schedule", an unsupported strategy: plain errors).
std::string condition_reason(failure_stage stage, bool unschedulable);

} // namespace kpw::scheduling
