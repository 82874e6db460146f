// SPDX-License-Identifier: Apache-2.0
// The one table of finding ids: what each means and how to fix it.
#include "rules/catalogue.hpp"

#include <array>

namespace kpw::rules {
namespace {

constexpr std::array entries{
    catalogue_entry{"FieldValueRequired", true, "a required field is missing",
                    "add the field; the CRD schema or Karmada's webhook requires it"},
    catalogue_entry{"FieldValueInvalid", true, "a field has a value Karmada rejects",
                    "change the value as the message says"},
    catalogue_entry{"FieldValueNotSupported", true, "a field has a value outside its allowed set",
                    "use one of the supported values listed in the message"},
    catalogue_entry{"FieldValueTooLong", true, "a string is longer than the schema allows", "shorten the value"},
    catalogue_entry{"FieldValueTypeInvalid", true, "a field has the wrong JSON type",
                    "write the value with the type the message names (e.g. an integer without quotes)"},
    catalogue_entry{"FieldValueForbidden", true, "a field may not be set or changed", "remove the change"},
    catalogue_entry{"BadRequest", true,
                    "the API server cannot decode the object: a field the CRD does not define (lint --validate=strict)",
                    "fix the field's spelling or nesting, or remove it; kubectl apply --validate=strict (its default) "
                    "is refused, --validate=warn or ignore would drop the field"},
    catalogue_entry{"overflow-cluster-repeated", false, "a cluster is listed in more than one tier of a term",
                    "a cluster belongs to the first tier that lists it; remove the later entry"},
    catalogue_entry{"unreachable-affinity-term", false, "an affinity term repeats an earlier term's selection",
                    "the scheduler falls through to a later term only when an earlier one fails; change or "
                    "remove the term"},
    catalogue_entry{"cluster-included-and-excluded", false, "a cluster is both in clusterNames and in exclude",
                    "exclude wins, so the cluster is never selected; remove it from one of the lists"},
    catalogue_entry{"unknown-field", false, "a field the CRD does not define (lint --validate=warn)",
                    "the API server drops it; kubectl apply with strict field validation (its default) refuses "
                    "the object. Check spelling and nesting"},
    catalogue_entry{"field-of-later-release", false,
                    "a field the chosen Karmada release does not define; a later release added it",
                    "upgrade Karmada to the release that added it, or remove the field (lint --karmada-version "
                    "names the release the answers are for)"},
    catalogue_entry{"required-masked", false, "a CRD-required field is missing but a live Karmada accepts it",
                    "Karmada's mutating webhook re-emits it as an empty value; set it explicitly"},
    catalogue_entry{"value-masked", false, "a value the CRD refuses as written but a live Karmada admits",
                    "Karmada's mutating webhook re-encodes it through its Go types (an empty enum value is dropped "
                    "and the default applies); write the value you mean, or remove the field"},
    catalogue_entry{"denied-after-decode", false,
                    "the API server would deny this too, once Karmada's mutating webhook can decode the object",
                    "the webhook's decode error is the whole answer; fix it first, then this"},
    catalogue_entry{"denied-after-schema", false,
                    "Karmada's webhook would deny this too, once the API server's own errors are fixed",
                    "kube-apiserver calls validating webhooks only for objects that passed its schema checks; "
                    "fix the errors first, then this"},
    catalogue_entry{"static-weight-cluster-unselected", false,
                    "a static weight names a cluster the cluster affinity does not select",
                    "the weight never applies; add the cluster to clusterAffinity.clusterNames or drop the entry"},
    catalogue_entry{"static-weights-ignored", false, "staticWeightList is ignored because dynamicWeight is set",
                    "remove one of the two; dynamicWeight takes precedence"},
    catalogue_entry{"weight-preference-ignored", false,
                    "weightPreference only applies to Divided scheduling with the Weighted preference",
                    "remove weightPreference or set replicaDivisionPreference: Weighted"},
    catalogue_entry{"toleration-seconds-ignored", false, "tolerationSeconds only applies to NoExecute tolerations",
                    "set effect: NoExecute or remove tolerationSeconds"},
    catalogue_entry{"purge-mode-deprecated", false, "a deprecated purgeMode (Immediately, Graciously)",
                    "use Directly for Immediately and Gracefully for Graciously; Karmada treats them alike"},
    catalogue_entry{"toleration-value-ignored", false, "an Exists toleration ignores its value",
                    "remove the value or use operator: Equal"},
    catalogue_entry{"affinity-matches-no-cluster", false,
                    "an affinity group matches no cluster of the cluster snapshot",
                    "the scheduler skips the group; check the cluster names and selectors against "
                    "`kubectl get clusters --show-labels`"},
    catalogue_entry{"policy-claims-nothing", false, "a policy matches none of the given workloads",
                    "check its resourceSelectors (apiVersion, kind, namespace, name, labels) against the workloads"},
    catalogue_entry{"binding-owned-by-another", false,
                    "the workload's binding is controlled by another object, so the detector cannot update it",
                    "delete the stale binding (or wait for the garbage collector); karmada#2090"},
    catalogue_entry{"binding-crashes-scheduler", false,
                    "karmada-scheduler panics on a binding as it stands (a cluster spread constraint with maxGroups "
                    "below 0, which Karmada's webhook denies) and crash-loops",
                    "correct the claiming policy and apply it through karmada-apiserver, or delete the binding"},
    catalogue_entry{"template-not-interpretable", false,
                    "Karmada's resource interpreter fails on a claimed template (its replicaResource or "
                    "componentResource script errs), so the detector builds no binding and nothing is propagated",
                    "correct the field the message names (a CloneSet needs a numeric spec.replicas, ...)"},
    catalogue_entry{"priority-class-not-found", false,
                    "with the PriorityBasedScheduling gate on, the detector reads the claiming policy's "
                    "spec.schedulePriority; a PriorityClass karmada-apiserver does not hold fails "
                    "BuildResourceBinding, so the template gets no binding and an existing one is not updated",
                    "create the PriorityClass on karmada-apiserver (give it to the dry run with --workloads), or "
                    "name one that exists"},
    catalogue_entry{"workload-affinity-not-predicted", false,
                    "with the WorkloadAffinity gate on, karmada-scheduler keeps a workload of an affinity group to "
                    "(away from) the clusters other bindings of the group hold; the dry run schedules each alone",
                    "read the prediction as the gate-off answer; the binding's group is in the message"},
    catalogue_entry{"assumed-workloads-not-predicted", false,
                    "with the SchedulingOvercommitProtection gate on, the general estimator subtracts replicas "
                    "assigned to other bindings that cluster status does not show yet; the dry run estimates each "
                    "workload alone",
                    "read capacity-bound predictions of several workloads on the same clusters as upper bounds"},
    catalogue_entry{"policy-shadowed", false, "every workload a policy matches is claimed by another policy",
                    "raise spec.priority, select by name, or remove the policy; the message names the winners"},
    catalogue_entry{"claim-decided-by-name", false,
                    "two policies tie on priority and selector match: only the name order picks the claimer",
                    "set spec.priority on the policy that should win"},
    catalogue_entry{"claim-not-preempted", false,
                    "a policy would win a workload that another policy already holds, but does not take it over",
                    "claims are sticky: set spec.preemption: Always, a strictly higher spec.priority, and enable "
                    "the PropagationPolicyPreemption feature gate, or remove the claim from the workload"},
    catalogue_entry{"lazy-activation", false,
                    "an activationPreference: Lazy policy's changes wait for each template's next change",
                    "edit the templates (or restart karmada-controller-manager) to apply the change, or drop "
                    "activationPreference"},
    // Multi-component jobs (lint --workloads, day2-semantics §6; scheduling/component_pitfalls.hpp).
    catalogue_entry{"components-gate-off", false, "a multi-component job while MultiplePodTemplatesScheduling is off",
                    "turn the gate on in karmada-controller-manager and karmada-scheduler to keep the job together"},
    catalogue_entry{"components-not-applicable", false,
                    "a multi-component job whose policy has no cluster spread constraint with minGroups 1, maxGroups 1",
                    "add spreadConstraints: [{spreadByField: cluster, minGroups: 1, maxGroups: 1}]"},
    catalogue_entry{"components-sent-to-every-candidate", false,
                    "a multi-component job sent whole to every candidate (no spread constraints, or static weight)",
                    "use dynamic weight or Aggregated with a cluster spread constraint 1/1"},
    catalogue_entry{"components-split-by-region", false,
                    "a multi-component job whose region spread constraint selects a cluster in each of several regions",
                    "drop the region constraint, or give it maxGroups 1, to keep the job on one cluster"},
    catalogue_entry{"components-notation-mismatch", false,
                    "a request and an allocatable quantity in different notations: Karmada's estimate is 1000x off",
                    "write the request in the allocatable's notation (binary suffixes for memory: 2Gi, not 2G)"},
    catalogue_entry{"components-fragmented", false,
                    "no cluster holds one complete set although the clusters together could",
                    "free capacity in one cluster, or split the job"},
    catalogue_entry{"components-memory-tiny", false, "a component's memory request below 1Mi",
                    "check the unit (Flink's 2048m means 2048 MB to Flink, 2.048 bytes to Karmada)"},
    catalogue_entry{"components-negative-replicas", false, "a component with negative replicas",
                    "set replicas to 0 or more"},
    catalogue_entry{"sidecar-request-not-counted", false,
                    "a pod template with sidecar init containers (restartPolicy: Always) under a policy that divides "
                    "replicas by capacity: Karmada's estimators take the init containers' maximum, the members' "
                    "kube-scheduler adds each sidecar, so a replica needs more than Karmada counts",
                    "leave headroom on the clusters (or cap replicas with static weights); the message gives both "
                    "requests"},
    catalogue_entry{"duplicate-key", false,
                    "a key written twice in one mapping: kubectl reads the last value and drops the others silently",
                    "keep one of them (every YAML linter flags this; the earlier value is easily the one meant)"},
    catalogue_entry{"selector-label-ignored", false, "a resource selector with a name ignores its labelSelector",
                    "remove name or labelSelector"},
};

} // namespace

std::span<const catalogue_entry> catalogue() { return entries; }

const catalogue_entry* find_catalogue_entry(std::string_view id)
{
    for (const auto& e : entries)
        if (e.id == id)
            return &e;
    return nullptr;
}

} // namespace kpw::rules
