// SPDX-License-Identifier: Apache-2.0
// The cluster controller's scheduling taints from the Ready condition (day2-semantics §4.2).
#pragma once

#include <span>
#include <string>
#include <vector>

#include "model/cluster.hpp"

namespace kpw::controllers {

inline constexpr std::string_view not_ready_taint_key = "cluster.karmada.io/not-ready";
inline constexpr std::string_view unreachable_taint_key = "cluster.karmada.io/unreachable";

// A controller's new taint list for one cluster and the Normal TaintClusterSucceed event it emits.
struct taint_update {
    std::vector<model::taint> taints;
    bool changed = false; // false: nothing written, no event
    std::string event;    // the event message when changed
};

// karmada pkg/util/helper/taint.go GenerateTaintsMessage: "cluster now has taints([{Key:k,Effect:E},
// {Key:k,Value:v,Effect:E}])", or "cluster now does not have taints".
std::string taints_message(std::span<const model::taint> taints);

// karmada pkg/util/helper/taint.go SetCurrentClusterTaints: taints judged present by key and effect;
// the removed ones dropped in place, the missing ones appended with timeAdded = now.
std::vector<model::taint> set_current_cluster_taints(std::span<const model::taint> current,
                                                     std::span<const model::taint> to_add,
                                                     std::span<const model::taint> to_remove, model::timestamp now);

// karmada pkg/controllers/cluster/cluster_controller.go taintClusterByCondition + updateClusterTaints:
// no Ready condition adds not-ready:NoSchedule; False adds not-ready and removes unreachable; Unknown
// adds unreachable and removes not-ready; True removes both. The event is
// "Taint cluster succeed: <taints_message>." when the list changed.
taint_update taint_cluster_by_condition(const model::cluster& cluster, model::timestamp now);

} // namespace kpw::controllers
