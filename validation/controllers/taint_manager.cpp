// SPDX-License-Identifier: Apache-2.0
// NoExecute eviction decisions (karmada pkg/controllers/cluster/taint_manager.go, pkg/util/helper/taint.go).
#include "controllers/taint_manager.hpp"

#include <algorithm>
#include <vector>

#include "controllers/evict_cluster.hpp"
#include "model/binding_decode.hpp"
#include "scheduling/filter.hpp"

namespace kpw::controllers {

namespace {

std::vector<model::taint> no_execute_taints(const model::cluster& c)
{
    std::vector<model::taint> out;
    for (const auto& t : c.taints)
        if (t.effect == "NoExecute")
            out.push_back(t);
    return out;
}

bool targets(const model::binding& b, const std::string& cluster)
{
    return std::any_of(b.clusters.begin(), b.clusters.end(),
                       [&](const model::target_cluster& t) { return t.name == cluster; });
}

// GetMatchingTolerations: the first tolerating toleration per taint; nullopt when one is untolerated.
std::optional<std::vector<model::toleration>> matching_tolerations(const std::vector<model::taint>& taints,
                                                                  const std::vector<model::toleration>& tolerations)
{
    std::vector<model::toleration> used;
    for (const auto& taint : taints) {
        auto it = std::find_if(tolerations.begin(), tolerations.end(),
                               [&](const model::toleration& t) { return scheduling::tolerates(t, taint); });
        if (it == tolerations.end())
            return std::nullopt;
        used.push_back(*it);
    }
    return used;
}

// GetMinTolerationTimeWithCurrentTime's trigger: nullopt means tolerated forever.
std::optional<model::timestamp> earliest_trigger(const std::vector<model::taint>& taints,
                                                 const std::vector<model::toleration>& used)
{
    std::optional<model::timestamp> trigger;
    for (const auto& t : used) {
        if (!t.toleration_seconds)
            continue;
        for (const auto& taint : taints) {
            if (!taint.time_added || !scheduling::tolerates(t, taint))
                continue;
            const model::timestamp at = *taint.time_added + *t.toleration_seconds;
            trigger = trigger ? std::min(*trigger, at) : at;
        }
    }
    return trigger;
}

std::string inactive_reason(const model::cluster& cluster, const settings::controller_settings& s)
{
    if (!s.gates.failover())
        return "the taint manager is not running: feature gate Failover is off";
    if (!s.enable_taint_manager)
        return "the taint manager is not running: --enable-taint-manager=false";
    if (!s.enable_no_execute_taint_eviction)
        return "the taint manager does not evict: --enable-no-execute-taint-eviction=false";
    return "cluster " + cluster.name + " has no NoExecute taint";
}

} // namespace

bool taint_manager_registered(const settings::controller_settings& s)
{
    return s.enable_taint_manager && s.gates.failover();
}

bool taint_manager_acts_on(const model::cluster& cluster, const settings::controller_settings& s)
{
    return taint_manager_registered(s) && s.enable_no_execute_taint_eviction &&
           std::any_of(cluster.taints.begin(), cluster.taints.end(),
                       [](const model::taint& t) { return t.effect == "NoExecute"; });
}

eviction_assessment assess_eviction(const model::binding& b, const model::cluster& cluster,
                                    const settings::controller_settings& s, model::timestamp now)
{
    if (!taint_manager_acts_on(cluster, s))
        return {eviction_verdict::inactive, std::nullopt, inactive_reason(cluster, s)};
    if (b.deleting || !targets(b, cluster.name))
        return {eviction_verdict::not_a_target, std::nullopt, {}};
    auto applied = model::decode_applied_placement(b);
    if (!applied)
        return {eviction_verdict::error, std::nullopt, applied.error().message};
    if (!applied->has_value())
        return {eviction_verdict::error, std::nullopt, "the applied placement for ResourceBining can not be empty"};
    const auto taints = no_execute_taints(cluster);
    auto used = matching_tolerations(taints, (*applied)->cluster_tolerations);
    if (!used)
        return {eviction_verdict::evict_now, std::nullopt, {}};
    auto trigger = earliest_trigger(taints, *used);
    if (!trigger)
        return {eviction_verdict::tolerate_forever, std::nullopt, {}};
    if (*trigger <= now)
        return {eviction_verdict::evict_now, std::nullopt, {}};
    return {eviction_verdict::evict_at, trigger, {}};
}

std::string eviction_purge_mode(const model::binding& b, const settings::controller_settings& s)
{
    if (b.failover && b.failover->cluster)
        return b.failover->cluster->purge_mode.empty() ? std::string(model::purge_mode_gracefully)
                                                       : b.failover->cluster->purge_mode;
    return s.no_execute_taint_eviction_purge_mode == model::purge_mode_directly
               ? std::string(model::purge_mode_directly)
               : std::string(model::purge_mode_gracefully);
}

eviction_assessment run_taint_manager(model::binding& b, const model::cluster& cluster,
                                      const settings::controller_settings& s, model::timestamp now)
{
    auto verdict = assess_eviction(b, cluster, s, now);
    if (verdict.verdict != eviction_verdict::evict_now)
        return verdict;
    task_options options;
    options.purge_mode = eviction_purge_mode(b, s);
    options.producer = producer_taint_manager;
    options.reason = reason_taint_untolerated;
    graceful_evict_cluster(b, cluster.name, options);
    return verdict;
}

} // namespace kpw::controllers
