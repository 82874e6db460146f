// SPDX-License-Identifier: Apache-2.0
// Deleting a policy, as Karmada's resource detector does it (pkg/detector/detector.go
// ReconcilePropagationPolicy / ReconcileClusterPropagationPolicy on a deletionTimestamp, handlePolicyDeletion):
// the claim metadata comes off the templates the policy held and off their bindings, and that is all. The
// bindings keep their placement and spec.clusters ("The relevant ResourceBinding will continue to exist
// until the resource template is gone"), so nothing moves by itself. The template's label change makes the
// detector reconcile it again (its update event: eventfilter.SpecificationChanged counts labels): a remaining
// policy may claim it and update the same binding, which karmada-scheduler then re-schedules; else the
// template waits and the scheduler ignores its unclaimed binding (no re-schedule: the taint manager still
// evicts it from a NoExecute-tainted cluster, pkg/controllers/cluster/taint_manager.go syncBindingEviction,
// and nothing places those replicas elsewhere).
#pragma once

#include <cstddef>
#include <span>
#include <vector>

#include "model/binding.hpp"
#include "model/policy.hpp"
#include "model/workload.hpp"

namespace kpw::scheduling {

// Whether `claim` is the claim of policy `p`: its permanent id (NeedCleanupClaimMetadata compares the
// permanent-id label). A policy read from files rather than the server often has no permanent-id label:
// then the kind, namespace and name decide, as they name the server's policy of that id.
bool is_claim_of(const model::policy& p, const model::policy_claim& claim);

// Whether deleting `p` reaches template `w`: one of p's resource selectors covers w's apiVersion, kind and
// namespace (util.ExtractUniqueNamespacedSelectors, then helper.FetchResourceTemplatesByLabelSelector with
// the permanent-id label: the selector's name and labelSelector do not count; no namespace is every
// namespace). A template the selectors no longer cover keeps a stale claim until it changes itself
// (detector.go getAndApplyPolicy then finds the policy gone and cleans it up).
bool deletion_reaches(const model::policy& p, const model::workload& w);

// pkg/detector/claim.go CleanupPPClaimMetadata / CleanupCPPClaimMetadata: the claim labels and annotations
// of a PropagationPolicy, or of a ClusterPropagationPolicy. The binding's claim is read again from what is
// left.
void remove_claim_metadata(model::workload& w, bool cluster_policy);
void remove_claim_metadata(model::binding& b, bool cluster_policy);

// A template whose claim a deletion removed.
struct released_template {
    std::size_t workload = 0;  // index into the workloads given
    model::policy_claim claim; // the claim it lost
    bool binding = false;      // its binding held the claim too (a binding another object controls never
                               // got it: the scheduler ignored that one before the deletion as after)
};

// Every policy of `deleted` deleted (the order does not matter: each touches only its own claims), applied
// to `workloads` and to the binding the detector keeps for each (handleResourceTemplateAndBindingCleanup:
// the binding named after the template, then the template; each only while it still holds that policy's
// claim). Returns the templates released, in workload order; one whose template or binding held the claim.
std::vector<released_template> delete_policies(std::span<const model::policy> deleted,
                                               std::vector<model::workload>& workloads,
                                               std::vector<model::binding>& bindings);

} // namespace kpw::scheduling
