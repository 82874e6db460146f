// SPDX-License-Identifier: Apache-2.0
// Go encoding/json of the model: field order of propagation_types.go, omitempty as tagged upstream.
#include "model/encode.hpp"

namespace kpw::model {
namespace {

using doc::value;

// Builds one JSON object member by member; `omit` mirrors a field's omitempty tag.
class object {
public:
    object& str(std::string_view key, const std::string& s, bool omit = true)
    {
        if (!omit || !s.empty())
            v_.add(std::string(key), value::string(s));
        return *this;
    }
    object& integer(std::string_view key, std::int64_t i, bool omit = true)
    {
        if (!omit || i != 0)
            v_.add(std::string(key), value::integer(i));
        return *this;
    }
    template <class Int>
    object& integer(std::string_view key, const std::optional<Int>& i)
    {
        if (i)
            v_.add(std::string(key), value::integer(*i));
        return *this;
    }
    object& boolean(std::string_view key, bool b)
    {
        if (b)
            v_.add(std::string(key), value::boolean(true));
        return *this;
    }
    object& boolean(std::string_view key, const std::optional<bool>& b)
    {
        if (b)
            v_.add(std::string(key), value::boolean(*b));
        return *this;
    }
    object& strings(std::string_view key, const std::vector<std::string>& list, bool omit = true)
    {
        if (list.empty()) {
            if (!omit)
                v_.add(std::string(key), value::null_value()); // a nil Go slice without omitempty
            return *this;
        }
        value seq = value::sequence();
        for (const auto& s : list)
            seq.push_back(value::string(s));
        v_.add(std::string(key), std::move(seq));
        return *this;
    }
    object& map(std::string_view key, const std::map<std::string, std::string>& m)
    {
        if (m.empty())
            return *this;
        value obj = value::mapping();
        for (const auto& [k, s] : m) // std::map iterates sorted, as Go sorts map keys
            obj.add(k, value::string(s));
        v_.add(std::string(key), std::move(obj));
        return *this;
    }
    template <class T>
    object& sub(std::string_view key, const std::optional<T>& o)
    {
        if (o)
            v_.add(std::string(key), to_value(*o));
        return *this;
    }
    template <class T>
    object& list(std::string_view key, const std::vector<T>& l, bool omit = true)
    {
        if (!l.empty())
            v_.add(std::string(key), to_value(l));
        else if (!omit)
            v_.add(std::string(key), value::null_value());
        return *this;
    }
    object& raw(std::string_view key, value v)
    {
        v_.add(std::string(key), std::move(v));
        return *this;
    }
    // Appends the members of an inlined (embedded) struct.
    object& inline_members(const value& embedded)
    {
        for (const auto& [k, m] : embedded.members())
            v_.add(k, m);
        return *this;
    }
    value done() { return std::move(v_); }

private:
    value v_ = value::mapping();
};

} // namespace

value to_value(const selector_requirement& v)
{
    return object().str("key", v.key, false).str("operator", v.op, false).strings("values", v.values).done();
}

value to_value(const static_cluster_weight& v)
{
    return object().raw("targetCluster", to_value(v.target_cluster)).integer("weight", v.weight, false).done();
}

value to_value(const cluster_preferences& v)
{
    return object().list("staticWeightList", v.static_weight_list).str("dynamicWeight", v.dynamic_weight).done();
}

value to_value(const workload_affinity_term& v)
{
    return object().str("groupByLabelKey", v.group_by_label_key, false).done();
}

value to_value(const state_preservation_rule& v)
{
    return object().str("aliasLabelName", v.alias_label_name, false).str("jsonPath", v.json_path, false).done();
}

value to_value(const state_preservation& v) { return object().list("rules", v.rules, false).done(); }

value to_value(const decision_conditions& v)
{
    return object().integer("tolerationSeconds", v.toleration_seconds).done();
}

value to_value(const application_failover_behavior& v)
{
    return object()
        .raw("decisionConditions", to_value(v.decision_conditions))
        .str("purgeMode", v.purge_mode)
        .integer("gracePeriodSeconds", v.grace_period_seconds)
        .sub("statePreservation", v.state_preservation)
        .done();
}

value to_value(const cluster_failover_behavior& v)
{
    return object().str("purgeMode", v.purge_mode).sub("statePreservation", v.state_preservation).done();
}

value to_value(const suspend_clusters& v) { return object().strings("clusterNames", v.cluster_names).done(); }

value to_value(const schedule_priority& v)
{
    return object()
        .str("priorityClassSource", v.priority_class_source, false)
        .str("priorityClassName", v.priority_class_name, false)
        .done();
}

value to_value(const label_selector& v)
{
    return object().map("matchLabels", v.match_labels).list("matchExpressions", v.match_expressions).done();
}

value to_value(const field_selector& v) { return object().list("matchExpressions", v.match_expressions).done(); }

value to_value(const cluster_affinity& v)
{
    return object()
        .sub("labelSelector", v.label_selector)
        .sub("fieldSelector", v.field_selector)
        .strings("clusterNames", v.cluster_names)
        .strings("exclude", v.exclude)
        .done();
}

value to_value(const overflow_cluster_affinity& v)
{
    return object().str("affinityName", v.affinity_name, false).inline_members(to_value(v.cluster_affinity)).done();
}

value to_value(const cluster_affinity_term& v)
{
    return object()
        .str("affinityName", v.affinity_name, false)
        .inline_members(to_value(v.cluster_affinity))
        .list("overflowAffinities", v.overflow_affinities)
        .done();
}

value to_value(const toleration& v)
{
    return object()
        .str("key", v.key)
        .str("operator", v.op)
        .str("value", v.value)
        .str("effect", v.effect)
        .integer("tolerationSeconds", v.toleration_seconds)
        .done();
}

value to_value(const spread_constraint& v)
{
    return object()
        .str("spreadByField", v.spread_by_field)
        .str("spreadByLabel", v.spread_by_label)
        .integer("maxGroups", v.max_groups)
        .integer("minGroups", v.min_groups)
        .done();
}

value to_value(const replica_scheduling_strategy& v)
{
    return object()
        .str("replicaSchedulingType", v.replica_scheduling_type)
        .str("replicaDivisionPreference", v.replica_division_preference)
        .sub("weightPreference", v.weight_preference)
        .done();
}

value to_value(const workload_affinity& v)
{
    return object().sub("affinity", v.affinity).sub("antiAffinity", v.anti_affinity).done();
}

value to_value(const placement& v)
{
    return object()
        .sub("clusterAffinity", v.cluster_affinity)
        .list("clusterAffinities", v.cluster_affinities)
        .list("clusterTolerations", v.cluster_tolerations)
        .list("spreadConstraints", v.spread_constraints)
        .sub("replicaScheduling", v.replica_scheduling)
        .sub("workloadAffinity", v.workload_affinity)
        .done();
}

value to_value(const failover_behavior& v)
{
    return object().sub("application", v.application).sub("cluster", v.cluster).done();
}

value to_value(const suspension& v)
{
    return object().boolean("dispatching", v.dispatching).sub("dispatchingOnClusters", v.dispatching_on_clusters).done();
}

value to_value(const resource_selector& v)
{
    return object()
        .str("apiVersion", v.api_version, false)
        .str("kind", v.kind, false)
        .str("namespace", v.ns)
        .str("name", v.name)
        .sub("labelSelector", v.label_selector)
        .done();
}

value to_value(const propagation_spec& v)
{
    return object()
        .list("resourceSelectors", v.resource_selectors, false)
        .boolean("association", v.association)
        .boolean("propagateDeps", v.propagate_deps)
        .raw("placement", to_value(v.placement))
        .integer("priority", v.priority)
        .str("preemption", v.preemption)
        .strings("dependentOverrides", v.dependent_overrides)
        .str("schedulerName", v.scheduler_name)
        .sub("failover", v.failover)
        .str("conflictResolution", v.conflict_resolution)
        .str("activationPreference", v.activation_preference)
        .sub("suspension", v.suspension)
        .boolean("preserveResourcesOnDeletion", v.preserve_resources_on_deletion)
        .sub("schedulePriority", v.schedule_priority)
        .done();
}

value to_value(const object_meta& v)
{
    return object()
        .str("name", v.name)
        .str("generateName", v.generate_name)
        .str("namespace", v.ns)
        .str("uid", v.uid)
        .map("labels", v.labels)
        .map("annotations", v.annotations)
        .strings("finalizers", v.finalizers)
        .done();
}

value to_value(const policy& v)
{
    return object()
        .str("kind", v.kind)
        .str("apiVersion", v.api_version)
        .raw("metadata", to_value(v.metadata))
        .raw("spec", to_value(v.spec))
        .done();
}

} // namespace kpw::model
