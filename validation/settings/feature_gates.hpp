// SPDX-License-Identifier: Apache-2.0
// Karmada's feature gates (pkg/features/features.go of each supported release) and their --feature-gates syntax.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "base/result.hpp"
#include "settings/karmada_release.hpp"

namespace kpw::settings {

enum class stage { alpha, beta, ga };

// One known gate: its name, maturity and binary default.
struct gate_spec {
    std::string_view name;
    stage maturity;
    bool default_value;
};

// Every gate a release's binaries register, in source order, with that release's maturity and default.
const std::vector<gate_spec>& known_gates(karmada_release release = newest_karmada_release);

// The gates' values. Defaults are the binaries' (the development manifests pass
// --feature-gates=AllAlpha=true,AllBeta=true instead; see day2-semantics header).
class feature_gates {
public:
    feature_gates() : feature_gates(newest_karmada_release) {} // every gate at its default
    explicit feature_gates(karmada_release release);

    bool enabled(std::string_view name) const; // unknown names are false
    void set(std::string_view name, bool value);

    // "Name=value" for every gate that differs from its default ("" when none): what the output says
    // it assumed.
    std::string non_defaults() const;

    bool failover() const { return enabled("Failover"); }
    bool graceful_eviction() const { return enabled("GracefulEviction"); }
    bool customized_cluster_resource_modeling() const { return enabled("CustomizedClusterResourceModeling"); }
    bool policy_preemption() const { return enabled("PropagationPolicyPreemption"); }
    bool priority_based_scheduling() const { return enabled("PriorityBasedScheduling"); }
    bool multiple_pod_templates_scheduling() const { return enabled("MultiplePodTemplatesScheduling"); }
    bool stateful_failover_injection() const { return enabled("StatefulFailoverInjection"); }
    bool workload_affinity() const { return enabled("WorkloadAffinity"); }
    bool scheduling_overcommit_protection() const { return enabled("SchedulingOvercommitProtection"); }
    // The release whose binaries these gates are of (what a gate turns on may differ by release).
    karmada_release release() const { return release_; }

private:
    karmada_release release_;
    std::vector<bool> values_; // parallel to known_gates(release_)
};

// k8s component-base syntax, as karmada's binaries take it: "A=true,B=false", spaces around entries
// allowed, AllAlpha / AllBeta set every gate of that stage that is not named explicitly. An unknown
// gate (one the release does not register) or a value other than true/false (strconv.ParseBool spellings)
// is an error naming it.
result<feature_gates> parse_feature_gates(std::string_view flag, karmada_release release = newest_karmada_release);

} // namespace kpw::settings
