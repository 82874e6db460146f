// SPDX-License-Identifier: Apache-2.0
// The NoExecute taint manager: which bindings leave a tainted cluster, and when (day2-semantics §4.4).
#pragma once

#include <optional>
#include <string>

#include "model/binding.hpp"
#include "model/cluster.hpp"
#include "settings/controller_settings.hpp"

namespace kpw::controllers {

// cmd/controller-manager/app/controllermanager.go startClusterController: the taint manager runs only
// with --enable-taint-manager and the Failover gate.
bool taint_manager_registered(const settings::controller_settings& s);

// taint_manager.go Reconcile's short path: registered, --enable-no-execute-taint-eviction, and the
// cluster has a NoExecute taint.
bool taint_manager_acts_on(const model::cluster& cluster, const settings::controller_settings& s);

enum class eviction_verdict {
    inactive,         // the taint manager does not act on this cluster (see `reason`)
    not_a_target,     // the binding does not list the cluster in spec.clusters, or is being deleted
    evict_now,        // a NoExecute taint is not tolerated, or the earliest toleration ran out
    evict_at,         // every taint tolerated; the earliest timeAdded + tolerationSeconds is `at`
    tolerate_forever, // every taint tolerated without tolerationSeconds (or without timeAdded)
    error,            // no or undecodable applied-placement annotation: retried, never evicts (`reason`)
};

struct eviction_assessment {
    eviction_verdict verdict = eviction_verdict::inactive;
    std::optional<model::timestamp> at; // evict_at only
    std::string reason;                 // why inactive or error, in words for the operator
};

// taint_manager.go needEvictionWithCurrentTime with helper.GetMatchingTolerations and
// GetMinTolerationTimeWithCurrentTime: tolerations from the applied-placement annotation (not
// spec.placement); for each NoExecute taint the first tolerating toleration is used (Lt/Gt never
// tolerate); trigger = min over (used toleration with seconds, NoExecute taint with timeAdded that it
// tolerates) of timeAdded + tolerationSeconds; a trigger before or at `now` is evict_now.
eviction_assessment assess_eviction(const model::binding& b, const model::cluster& cluster,
                                    const settings::controller_settings& s, model::timestamp now);

// taint_manager.go getPurgeMode: spec.failover.cluster set → its purgeMode ("" = Gracefully); else
// --no-execute-taint-eviction-purge-mode, where anything but "Directly" is Gracefully.
std::string eviction_purge_mode(const model::binding& b, const settings::controller_settings& s);

// syncBindingEviction: when assess_eviction says evict_now, GracefulEvictCluster with the purge mode
// above, producer TaintManager and reason TaintUntolerated (no gracePeriodSeconds, no suppressDeletion;
// preservedLabelState is not modelled). Returns the assessment; `b` is updated only on evict_now.
eviction_assessment run_taint_manager(model::binding& b, const model::cluster& cluster,
                                      const settings::controller_settings& s, model::timestamp now);

} // namespace kpw::controllers
