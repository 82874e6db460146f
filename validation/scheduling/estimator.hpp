// SPDX-License-Identifier: Apache-2.0
// The general estimator: how many replicas of a workload one cluster can still take (spec section 4).
#pragma once

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "model/cluster.hpp"
#include "model/workload.hpp"

namespace kpw::scheduling {

// karmada caps every estimate at MaxInt32; a non-workload skips estimation and gets this everywhere.
inline constexpr std::int32_t unlimited_replicas = std::numeric_limits<std::int32_t>::max();

// Pods each virtual node of a resource model holds at most (karmada's model node capacity).
inline constexpr std::int64_t model_node_pods = 110;

// Which path produced an estimate.
enum class estimate_source { no_summary, no_pods_left, pods_only, resource_models, summary };

struct estimate {
    std::int32_t replicas = 0;
    estimate_source source = estimate_source::no_summary;
    // The resource (resource_table id) whose free amount bounds `replicas` on the summary path, or
    // resource_table::pods when the pods left do; -1 when `source` alone says it (see bound_by).
    int bound = -1;
};

// Resource names interned to small integers, so that a snapshot is prepared once and every estimate
// afterwards is integer arithmetic.
class resource_table {
public:
    int intern(std::string_view name);
    int find(std::string_view name) const; // -1 when never interned
    const std::string& name(int id) const { return names_[static_cast<std::size_t>(id)]; }
    static constexpr int cpu = 0; // fixed ids in every table
    static constexpr int pods = 1;

private:
    std::vector<std::string> names_{"cpu", "pods"};
};

// One resource in karmada units (cpu millicores, anything else whole units).
struct resource_amount {
    int id = 0;
    std::int64_t value = 0;
};

// A cluster's summary and models, reduced to what the estimator computes with.
struct prepared_cluster {
    bool has_summary = false;
    std::int64_t pods_left = 0;
    // Per allocatable resource: free = allocatable − allocated − allocating in karmada units, or −1
    // when the free amount rounded up is ≤ 0 (the cluster then takes nothing that requests it).
    std::vector<resource_amount> free;
    bool use_models = false;
    struct node_group {
        std::int64_t count = 0;
        std::vector<resource_amount> capacity; // the grade's range minimums; pods is implied (110)
    };
    std::vector<node_group> nodes;
    // The models as v1.16.0 and v1.17.1 read them (settings::changes::model_node_simulation): used when
    // allocatableModelings is non-empty; each resource's range minimums in spec.resourceModels order
    // (convertToResourceModelsMinMap), the model count, and allocatableModelings' counts by position.
    struct legacy_models {
        bool present = false;
        std::vector<std::pair<int, std::vector<model::quantity>>> minimums; // by resource id
        std::size_t models = 0;
        std::vector<std::int64_t> counts;
    } legacy;
};

struct prepared_request {
    bool has_requirements = false;
    bool unknown_resource = false; // requests a resource no cluster of the snapshot lists: 0 everywhere
    std::vector<resource_amount> amounts; // positive amounts only
    std::string unknown_name;             // the first such resource (for bound_by)
    // What karmada-scheduler-estimator receives besides: the request by name and the node claim.
    model::replica_request by_name;
    std::optional<model::node_claim> claim;
    // The release's general estimator reads resource models by grade (before v1.18.0:
    // settings::changes::model_node_simulation) rather than packing model nodes.
    bool legacy_models = false;
    // CustomizedClusterResourceModeling (on by default): off, the general estimator reads the summary only,
    // whatever models the clusters have (general.go: the gate is checked before the models).
    bool models_enabled = true;
};

// karmada general.go getAllowedPodNumber before its "<= 0: none" test: allocatable - allocated -
// allocating pods, subtracted in Go int64, which wraps (absurd counts in a snapshot give Go's answer,
// not undefined behaviour). The general estimator and MaxAvailableComponentSets both start from it.
std::int64_t allowed_pod_number(const model::resource_summary& summary);

prepared_cluster prepare_cluster(const model::cluster& cluster, resource_table& table);
prepared_request prepare_request(const model::workload& workload, const resource_table& table);

// karmada: pkg/estimator/client/general.go GeneralEstimator.maxAvailableReplicas
// Order: no resourceSummary → 0; podsLeft ≤ 0 → 0; no ReplicaRequirements → podsLeft; resource models
// when spec.resourceModels and allocatableModelings both exist (and build); otherwise the summary.
estimate general_estimate(const prepared_cluster& cluster, const prepared_request& request);

// Go's runtime panic of an index past a slice's end: "index out of range [index] with length length".
struct index_panic {
    std::int64_t index = 0;
    std::int64_t length = -1; // -1: none
    std::string str() const;
};

// Where general_estimate's answer is Karmada's crash instead: v1.16.0/v1.17.1's
// getMaximumReplicasBasedOnResourceModels (general.go:427-463 of v1.17.1) indexes allocatableModelings by
// model position and each resource's range minimums by model position, so fewer allocatableModelings than
// models, or a model without a requested resource, panic karmada-scheduler when the walk reaches them (a
// Cluster Karmada's validation admits). nullopt when the estimate is an answer.
std::optional<index_panic> general_estimate_panic(const prepared_cluster& cluster, const prepared_request& request);

// What bounds an estimate, for explain output: "cpu", "memory", "pods", "nvidia.com/gpu",
// "resource models", "no resourceSummary", "nvidia.com/gpu (offered by no cluster)".
std::string bound_by(const estimate& e, const prepared_request& request, const resource_table& table);

// The same for one cluster and one workload, without a prepared snapshot.
estimate general_estimate(const model::cluster& cluster, const model::workload& workload);

} // namespace kpw::scheduling
