// SPDX-License-Identifier: Apache-2.0
// model::cluster: the fields of a cluster.karmada.io/v1alpha1 Cluster that karmada-scheduler reads.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.hpp"
#include "model/quantity.hpp"
#include "model/time.hpp"

namespace kpw::model {

using label_map = std::map<std::string, std::string, std::less<>>;
using resource_list = std::map<std::string, quantity, std::less<>>;

// The amount of `name` in `list`; zero when absent (Kubernetes' missing-means-zero for ResourceLists).
inline quantity amount_in(const resource_list& list, std::string_view name)
{
    auto it = list.find(name);
    return it == list.end() ? quantity{} : it->second;
}

struct taint {
    std::string key;
    std::string value;
    std::string effect; // NoSchedule, PreferNoSchedule, NoExecute
    // timeAdded: set on NoExecute taints and on the taints the controllers add.
    std::optional<timestamp> time_added = std::nullopt;
    friend bool operator==(const taint&, const taint&) = default;
};

// status.conditions[]: a metav1.Condition as the controllers read it.
struct condition {
    std::string type;   // Ready, CompleteAPIEnablements, ...
    std::string status; // True | False | Unknown
    std::string reason;
    std::string message;
    friend bool operator==(const condition&, const condition&) = default;
};

// status.apiEnablements[]: one group version and the kinds it serves.
struct api_enablement {
    std::string group_version;
    std::vector<std::string> kinds; // resources[].kind
};

struct resource_model_range {
    std::string name; // cpu, memory, ...
    quantity min;
    quantity max;
};

// spec.resourceModels[]: one grade of the cluster's resource model.
struct resource_model {
    std::int64_t grade = 0;
    std::vector<resource_model_range> ranges;
};

// status.resourceSummary.allocatableModelings[]: how many nodes of a grade the cluster has.
struct allocatable_modeling {
    std::int64_t grade = 0;
    std::int64_t count = 0;
};

struct resource_summary {
    resource_list allocatable;
    resource_list allocated;
    resource_list allocating;
    std::vector<allocatable_modeling> allocatable_modelings;
};

struct cluster {
    std::string name;
    label_map labels;
    bool deleting = false; // metadata.deletionTimestamp is set
    std::string provider;
    std::string region;
    std::vector<std::string> zones; // spec.zones, or [spec.zone] as the API server migrates it
    std::vector<taint> taints;
    std::vector<resource_model> resource_models;
    std::vector<api_enablement> api_enablements;
    bool complete_api_enablements = false; // condition CompleteAPIEnablements is True
    std::string ready;                     // the Ready condition's status; "" when absent
    std::vector<condition> conditions;     // status.conditions in order (Ready included)
    std::optional<model::resource_summary> resource_summary;
    position where; // the object's start in its file (0 when built in memory)
};

// The model Karmada v1.18's estimator uses for `grade`: general.go buildModelNodes keys the capacities by
// grade, so a later model of a grade replaces an earlier one (validation only refuses equal grades side by
// side). nullptr when no model has the grade.
inline const resource_model* model_of_grade(const cluster& c, std::int64_t grade)
{
    for (auto m = c.resource_models.rbegin(); m != c.resource_models.rend(); ++m)
        if (m->grade == grade)
            return &*m;
    return nullptr;
}

// meta.SetStatusCondition by type (replace or append), keeping `ready` and `complete_api_enablements`
// in step with the list.
inline void set_condition(cluster& c, const condition& cond)
{
    bool replaced = false;
    for (auto& existing : c.conditions)
        if (existing.type == cond.type) {
            existing = cond;
            replaced = true;
        }
    if (!replaced)
        c.conditions.push_back(cond);
    if (cond.type == "Ready")
        c.ready = cond.status;
    else if (cond.type == "CompleteAPIEnablements")
        c.complete_api_enablements = cond.status == "True";
}

} // namespace kpw::model
