// SPDX-License-Identifier: Apache-2.0
// Filter plugins: cluster affinity (label and field selectors), taints, API enablement, spread fields.
#include "scheduling/filter.hpp"

#include <algorithm>

namespace kpw::scheduling {

namespace {

bool contains(const std::vector<std::string>& list, std::string_view s)
{
    return std::find(list.begin(), list.end(), s) != list.end();
}

// One requirement against a "label lookup"; nullptr value means the key is absent.
bool requirement_matches(const model::selector_requirement& r, const std::string* value)
{
    if (r.op == "In")
        return !r.values.empty() && value != nullptr && contains(r.values, *value);
    if (r.op == "NotIn")
        return !r.values.empty() && (value == nullptr || !contains(r.values, *value));
    if (r.op == "Exists")
        return r.values.empty() && value != nullptr;
    if (r.op == "DoesNotExist")
        return r.values.empty() && value == nullptr;
    return false;
}

const std::string* lookup(const model::label_map& labels, std::string_view key)
{
    auto it = labels.find(key);
    return it == labels.end() ? nullptr : &it->second;
}

// karmada: the zone requirement is matched against the zone list (cluster_helper.go).
bool zone_matches(const model::selector_requirement& r, const std::vector<std::string>& zones)
{
    auto any_listed = [&] {
        return std::any_of(zones.begin(), zones.end(), [&](const std::string& z) { return contains(r.values, z); });
    };
    if (r.op == "In")
        return !zones.empty() && any_listed();
    if (r.op == "NotIn")
        return zones.empty() || !any_listed();
    if (r.op == "Exists")
        return !zones.empty();
    if (r.op == "DoesNotExist")
        return zones.empty();
    return false;
}

} // namespace

bool selector_matches(const model::label_selector& selector, const model::label_map& labels)
{
    for (const auto& [key, want] : selector.match_labels) {
        const std::string* have = lookup(labels, key);
        if (have == nullptr || *have != want)
            return false;
    }
    for (const auto& r : selector.match_expressions)
        if (!requirement_matches(r, lookup(labels, r.key)))
            return false;
    return true;
}

bool field_selector_matches(const model::field_selector& selector, const model::cluster& cluster)
{
    for (const auto& r : selector.match_expressions) {
        if (r.key == "zone") {
            if (!zone_matches(r, cluster.zones))
                return false;
            continue;
        }
        // The synthetic label set holds provider and region only, and only when non-empty.
        const std::string* value = nullptr;
        if (r.key == "provider" && !cluster.provider.empty())
            value = &cluster.provider;
        else if (r.key == "region" && !cluster.region.empty())
            value = &cluster.region;
        if (!requirement_matches(r, value))
            return false;
    }
    return true;
}

bool cluster_matches(const model::cluster& cluster, const model::cluster_affinity& affinity)
{
    if (contains(affinity.exclude, cluster.name))
        return false;
    if (affinity.label_selector && !selector_matches(*affinity.label_selector, cluster.labels))
        return false;
    if (affinity.field_selector && !field_selector_matches(*affinity.field_selector, cluster))
        return false;
    return affinity.cluster_names.empty() || contains(affinity.cluster_names, cluster.name);
}

bool tolerates(const model::toleration& t, const model::taint& taint)
{
    if (!t.effect.empty() && t.effect != taint.effect)
        return false;
    // karmada does not enforce the pod rule that an empty key needs Exists.
    if (!t.key.empty() && t.key != taint.key)
        return false;
    if (t.op == "Exists")
        return true;
    if (t.op.empty() || t.op == "Equal")
        return t.value == taint.value;
    return false; // Lt/Gt: comparison operators are off
}

const model::taint* untolerated_taint(const model::cluster& cluster, std::span<const model::toleration> tolerations)
{
    for (const auto& taint : cluster.taints) {
        if (taint.effect != "NoSchedule" && taint.effect != "NoExecute")
            continue;
        bool ok = std::any_of(tolerations.begin(), tolerations.end(),
                              [&](const model::toleration& t) { return tolerates(t, taint); });
        if (!ok)
            return &taint;
    }
    return nullptr;
}

bool api_enabled(const model::cluster& cluster, std::string_view api_version, std::string_view kind)
{
    for (const auto& e : cluster.api_enablements)
        if (e.group_version == api_version && std::find(e.kinds.begin(), e.kinds.end(), kind) != e.kinds.end())
            return true;
    return false;
}

std::string_view missing_spread_field(const model::cluster& cluster,
                                      std::span<const model::spread_constraint> constraints)
{
    for (const auto& c : constraints) {
        const auto& f = c.spread_by_field;
        if ((f == model::spread_by_field_provider && cluster.provider.empty()) ||
            (f == model::spread_by_field_region && cluster.region.empty()) ||
            (f == model::spread_by_field_zone && cluster.zones.empty()))
            return f;
    }
    return {};
}

// k8s.io/api/core/v1 Taint.ToString: key=value:Effect, key:Effect, key=value:, key.
std::string taint_string(const model::taint& taint)
{
    std::string s = taint.key;
    if (taint.effect.empty())
        return taint.value.empty() ? s : s.append("=").append(taint.value).append(":");
    if (!taint.value.empty())
        s.append("=").append(taint.value);
    return s.append(":").append(taint.effect);
}

std::string affinity_mismatch(const model::cluster& cluster, const model::cluster_affinity& affinity)
{
    if (contains(affinity.exclude, cluster.name))
        return "excluded by the affinity's exclude list";
    if (affinity.label_selector && !selector_matches(*affinity.label_selector, cluster.labels))
        return "labels do not match the affinity's labelSelector";
    if (affinity.field_selector && !field_selector_matches(*affinity.field_selector, cluster))
        return "provider/region/zones do not match the affinity's fieldSelector";
    if (!affinity.cluster_names.empty() && !contains(affinity.cluster_names, cluster.name))
        return "not listed in the affinity's clusterNames";
    return {};
}

} // namespace kpw::scheduling
