// SPDX-License-Identifier: Apache-2.0
// The re-schedule path: whether karmada-scheduler acts on an existing binding, and what it writes
// (pkg/scheduler/scheduler.go doScheduleBinding, helper.go placementChanged; day2-semantics §3).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/binding.hpp"
#include "model/policy.hpp"
#include "model/workload.hpp"
#include "scheduling/simulator.hpp"
#include "scheduling/snapshot.hpp"
#include "settings/feature_gates.hpp"

namespace kpw::scheduling {

// doScheduleBinding's rules in order (day2-semantics §3.2); `none` = the scheduler leaves it alone.
enum class trigger { none, placement_changed, replicas_changed, reschedule_triggered, always, terminating_target };
std::string_view trigger_name(trigger t); // "placement changed", "replicas changed", ...

struct trigger_verdict {
    trigger fired = trigger::none;
    bool fresh = false;  // RescheduleRequired holds (Fresh assignment; clusterAffinities still from the observed term)
    bool ignored = false; // the scheduler never looks at it (§1.1 admission: scheduler name, suspension, claim)
    std::string message; // one line: which rule fired and why, or why nothing happens
};

// placementChanged (§3.3) between `placement` (the binding's spec.placement after the policy is applied)
// and the applied-placement annotation, using the observed affinity name.
bool placement_changed(const model::binding& b);

// The first rule of §3.2 that holds for `b` (its spec.placement and spec.replicas already updated by the
// detector), or none; plus the §1.1 admission filter for a scheduler called `scheduler_name`.
trigger_verdict should_schedule(const model::binding& b, const snapshot& clusters,
                                const settings::feature_gates& gates,
                                std::string_view scheduler_name = model::default_scheduler_name);

// What one scheduler pass does to a binding, as the scheduler would patch it.
struct reschedule_outcome {
    trigger_verdict verdict;
    bool acted = false;               // a scheduling attempt ran
    decision result;                  // the attempt (empty when !acted)
    model::binding after;             // spec.clusters, applied-placement, status as written afterwards
    std::vector<model::target_cluster> before; // spec.clusters before the pass
};

// Runs should_schedule and, when it fires, schedule() with the binding's previous result; applies §3.9
// (what is written per outcome) with `now` as lastScheduledTime. Pure.
reschedule_outcome reschedule(const model::binding& b, const snapshot& clusters, const options& opts,
                              const settings::feature_gates& gates, model::timestamp now);

// The claim `p` writes into a binding it applies to (detector claim.go AddPPClaimMetadata /
// AddCPPClaimMetadata): its kind, namespace and name; the permanent id is the policy's label, or
// namespace/name when it has none.
model::policy_claim claim_of(const model::policy& p);

// The detector's ApplyPolicy on an existing binding (day2-semantics §5.2): the claim names `p` (a claim
// that already names it is kept as it is); the policy's defaulted placement, failover and schedulerName
// replace the binding's; when the template is at hand (`now`), spec.replicas, replicaRequirements and
// components become what BuildResourceBinding reads off it (scheduled_form: components and replicas 0 with
// MultiplePodTemplatesScheduling, else replicas and requirements), and spec.resource.uid `live_uid`, the
// live template's uid (live_template_uid: a template read from git has none, its binding records it; kept
// when "": the uid is unknown then, not empty). A spec change bumps the generation.
model::binding apply_policy(const model::binding& b, const model::policy& p, const model::workload* now,
                            std::string_view live_uid, const settings::feature_gates& gates);

} // namespace kpw::scheduling
