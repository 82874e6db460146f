// SPDX-License-Identifier: Apache-2.0
// taintClusterByCondition (karmada pkg/controllers/cluster/cluster_controller.go) as a pure function.
#include "controllers/cluster_taints.hpp"

#include <algorithm>

namespace kpw::controllers {

namespace {

bool taint_exists(std::span<const model::taint> taints, const model::taint& t)
{
    return std::any_of(taints.begin(), taints.end(),
                       [&](const model::taint& x) { return x.key == t.key && x.effect == t.effect; });
}

model::taint sched_taint(std::string_view key) { return {std::string(key), "", "NoSchedule"}; }

} // namespace

std::string taints_message(std::span<const model::taint> taints)
{
    if (taints.empty())
        return "cluster now does not have taints";
    std::string body;
    for (const auto& t : taints) {
        if (!body.empty())
            body += ",";
        body += "{Key:" + t.key + ",";
        if (!t.value.empty())
            body += "Value:" + t.value + ",";
        body += "Effect:" + t.effect + "}";
    }
    return "cluster now has taints([" + body + "])";
}

std::vector<model::taint> set_current_cluster_taints(std::span<const model::taint> current,
                                                     std::span<const model::taint> to_add,
                                                     std::span<const model::taint> to_remove, model::timestamp now)
{
    std::vector<model::taint> adding, removing;
    for (const auto& t : to_add)
        if (!taint_exists(current, t))
            adding.push_back(t);
    for (const auto& t : to_remove)
        if (taint_exists(current, t))
            removing.push_back(t);
    std::vector<model::taint> out;
    for (const auto& t : current)
        if (!taint_exists(removing, t))
            out.push_back(t);
    for (auto t : adding) {
        t.time_added = now;
        out.push_back(std::move(t));
    }
    return out;
}

taint_update taint_cluster_by_condition(const model::cluster& cluster, model::timestamp now)
{
    const model::taint not_ready = sched_taint(not_ready_taint_key), unreachable = sched_taint(unreachable_taint_key);
    std::vector<model::taint> add, remove;
    const auto ready = std::find_if(cluster.conditions.begin(), cluster.conditions.end(),
                                    [](const model::condition& c) { return c.type == "Ready"; });
    const std::string status = ready != cluster.conditions.end() ? ready->status : cluster.ready;
    if (ready == cluster.conditions.end() && cluster.ready.empty()) {
        add = {not_ready};
    } else if (status == "False") {
        add = {not_ready};
        remove = {unreachable};
    } else if (status == "Unknown") {
        add = {unreachable};
        remove = {not_ready};
    } else if (status == "True") {
        remove = {not_ready, unreachable};
    }
    taint_update out;
    out.taints = set_current_cluster_taints(cluster.taints, add, remove, now);
    out.changed = out.taints != cluster.taints;
    if (out.changed)
        out.event = "Taint cluster succeed: " + taints_message(out.taints) + ".";
    return out;
}

} // namespace kpw::controllers
