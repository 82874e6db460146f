// SPDX-License-Identifier: Apache-2.0
// lint's dry-run scheduling: the snapshot and workloads (--clusters/--workloads), claims, decisions.
#pragma once

#include <functional>
#include <memory>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "doc/value.hpp"
#include "lint/report.hpp"
#include "model/binding.hpp"
#include "model/kubectl_apply.hpp"
#include "model/policy.hpp"
#include "model/workload.hpp"
#include "scheduling/simulator.hpp"
#include "settings/feature_gates.hpp"
#include "snapshot/load.hpp"

namespace kpw::lint {

struct typed_policy;

// A policy on the server that the change leaves standing (dry_run_context::standing).
struct standing_policy {
    model::policy policy;
    std::string namespace_name; // "" for a ClusterPropagationPolicy
};

// Everything the dry run reads besides the policies; built once, then shared read-only by the workers.
// The snapshot and workloads are loaded by the code `serve --clusters` uses too.
struct dry_run_context : snapshot::state {
    scheduling::options options;
    settings::feature_gates gates; // PropagationPolicyPreemption decides whether claims can be preempted
    // Parallel to `workloads` when set: the claim known from each workload's binding (model::binding::claim),
    // which wins over the claim keys on the workload itself.
    std::vector<std::optional<model::policy_claim>> known_claims;
    // Parallel to `workloads` once delete_policies ran: the claim a deleted policy's cleanup took off the
    // template or its binding (the report says so, and keeps an unclaimed binding where it is).
    std::vector<std::optional<model::policy_claim>> released;
    // Parallel to `released`: the workload's binding held that claim too, so it is released with it.
    std::vector<bool> binding_released;
    // Parallel to `workloads` once settle_base_claims ran: the side before the change claimed the template but
    // built no binding for it (BuildResourceBinding failed under its holder), so nothing can release it.
    std::vector<bool> unbuilt;
    // Parallel to `workloads` once apply_workloads ran: the change creates the template or changes a field the
    // dry run reads (a user's event for the detector: a Lazy policy's binding is refreshed then). A change to
    // other fields only (an image) is one for Karmada too, and is not seen here.
    std::vector<bool> user_changed;
    model::timestamp now = 0;      // what a re-schedule writes as lastScheduledTime (the wall clock)
    // The policies the change leaves as they are (plan: applied unchanged or not in PATH; lint --base: the
    // same spec on both sides). Unset: every policy is created or updated, as lint without a base reads PATH.
    std::function<bool(const typed_policy&)> settled;
    // The version a policy of the change updates (nullptr: created). Unset: no base to compare with. With
    // the PropagationPolicyPreemption gate, an update that lowers a priority re-queues the policies between
    // the old and the new priority (scheduling::requeued_by_priority_cut): they are not settled.
    std::function<const model::policy*(const typed_policy&)> base_version;
    // Policies the server keeps as they are although PATH holds a version of each: admission denies
    // PATH's, so kubectl apply fails for it and changes nothing (lint --base: the base's version). They
    // still claim templates and rank among PATH's policies; what they hold is not predicted (they are not
    // PATH's), as for every policy outside PATH.
    std::vector<standing_policy> standing;
};

// Reads --clusters and --workloads (snapshot::load); its file errors make lint exit 2.
std::unique_ptr<dry_run_context> load_dry_run(const std::vector<std::string>& cluster_paths,
                                              const std::vector<std::string>& workload_paths,
                                              const std::vector<std::string>& binding_paths,
                                              const std::string& default_namespace, std::vector<file_error>& errors);

// The same over inputs already read (nullopt: not given), e.g. lists read from the API server.
std::unique_ptr<dry_run_context> load_dry_run(const std::optional<input_set>& clusters,
                                              const std::optional<input_set>& workloads,
                                              const std::optional<input_set>& bindings,
                                              const std::string& default_namespace, std::vector<file_error>& errors);

// The change deletes `deleted` (plan --prune, or lint --base's policies that PATH no longer holds): their
// claims come off the templates and bindings of `ctx` (scheduling::delete_policies) before the new side is
// scheduled, and the known claims follow.
void delete_policies(dry_run_context& ctx, std::span<const model::policy> deleted);

// What applying one manifest did to the templates of a dry run.
struct applied_template {
    std::size_t workload = 0; // index into dry_run_context::workloads
    bool existed = false;     // the dry run held the template (read from the server or --workloads)
    bool changed = false;     // existed, and a field the dry run reads differs afterwards
};

// `kubectl apply` of `manifests` over the templates of `ctx` (model::kubectl_applied): a template already
// there is updated in place (its claim metadata and uid stay), a new one is appended. Known claims and
// released claims follow the templates. One entry per manifest, in order.
std::vector<applied_template> apply_workloads(dry_run_context& ctx, const std::vector<model::workload_manifest>& manifests);

// A policy that passed validation, kept for the claim/schedule phase; `result` indexes report::results.
// `object` is the document as written, for the positions of the claim warnings.
struct typed_policy {
    std::size_t result = 0;
    model::policy policy;
    doc::value object;
};

// lint --base: the base side as the server holds it (scheduling::claim_unclaimed): every template without
// a claim goes to the base policy that ranks first, on the template and its binding, before the change
// deletes or changes anything. `base` are the base side's admitted policies, `r` its report.
void settle_base_claims(dry_run_context& ctx, const std::vector<typed_policy>& base, const report& r);

// Per policy (the object is still at hand for positions): warns about every affinity that matches no
// cluster of the snapshot ("affinity-matches-no-cluster"), even when no workload is given.
void add_snapshot_warnings(const dry_run_context& ctx, const model::policy& policy, const doc::value& object,
                           policy_result& result);

// Claims every workload for the policy karmada's detector would pick among `policies` (report::claims,
// claim warnings on the policies), simulates the schedule and appends a scheduling entry to that policy's
// result; counts summary.unschedulable.
void schedule_workloads(const dry_run_context& ctx, const std::vector<typed_policy>& policies, report& r);

} // namespace kpw::lint
