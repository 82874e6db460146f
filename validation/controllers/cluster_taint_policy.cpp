// SPDX-License-Identifier: Apache-2.0
// ClusterTaintPolicy evaluation (karmada pkg/controllers/taint/clustertaintpolicy_controller.go) as a pure function.
#include "controllers/cluster_taint_policy.hpp"

#include <algorithm>
#include <vector>

#include "scheduling/filter.hpp"

namespace kpw::controllers {

namespace {

bool contains(const std::vector<std::string>& values, const std::string& v)
{
    return std::find(values.begin(), values.end(), v) != values.end();
}

bool same_key_effect(const model::taint& a, const model::taint& b) { return a.key == b.key && a.effect == b.effect; }

// addTaintsOnCluster.
void add_taints(std::vector<model::taint>& taints, std::span<const model::taint> wanted, model::timestamp now)
{
    for (const auto& w : wanted) {
        if (std::any_of(taints.begin(), taints.end(), [&](const model::taint& t) { return same_key_effect(t, w); }))
            continue;
        model::taint t{w.key, w.value, w.effect};
        t.time_added = now;
        taints.push_back(std::move(t));
    }
}

// removeTaintsFromCluster: the first taint with the key and effect, per policy taint.
void remove_taints(std::vector<model::taint>& taints, std::span<const model::taint> unwanted)
{
    for (const auto& u : unwanted) {
        auto it =
            std::find_if(taints.begin(), taints.end(), [&](const model::taint& t) { return same_key_effect(t, u); });
        if (it != taints.end())
            taints.erase(it);
    }
}

} // namespace

bool condition_matches(std::span<const model::condition> conditions, std::span<const model::match_condition> matches)
{
    if (matches.empty())
        return false;
    for (const auto& m : matches) {
        bool match = false;
        for (const auto& c : conditions) {
            if (c.type != m.condition_type)
                continue;
            if (m.op == "In")
                match = match || contains(m.status_values, c.status);
            else if (m.op == "NotIn")
                match = !contains(m.status_values, c.status);
            else
                return false; // "unsupported MatchCondition operator"
        }
        if (!match)
            return false;
    }
    return true;
}

taint_update evaluate_taint_policies(const model::cluster& cluster,
                                     std::span<const model::cluster_taint_policy> policies,
                                     const settings::feature_gates& gates, model::timestamp now)
{
    taint_update out;
    out.taints = cluster.taints;
    if (!gates.failover())
        return out;
    std::vector<const model::cluster_taint_policy*> sorted;
    for (const auto& p : policies)
        sorted.push_back(&p);
    std::stable_sort(sorted.begin(), sorted.end(), [](const auto* a, const auto* b) {
        return a->creation_timestamp.value_or(0) < b->creation_timestamp.value_or(0);
    });
    for (const auto* p : sorted) {
        if (p->target_clusters && !scheduling::cluster_matches(cluster, *p->target_clusters))
            continue;
        if (condition_matches(cluster.conditions, p->add_on_conditions))
            add_taints(out.taints, p->taints, now);
        if (condition_matches(cluster.conditions, p->remove_on_conditions))
            remove_taints(out.taints, p->taints);
    }
    out.changed = out.taints != cluster.taints;
    if (out.changed)
        out.event = "Update Cluster(" + cluster.name + ") with taints(" + taints_message(out.taints) + ") succeed";
    return out;
}

} // namespace kpw::controllers
