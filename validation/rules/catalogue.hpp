// SPDX-License-Identifier: Apache-2.0
// The catalogue of finding ids (warnings by id, errors by reason) for SARIF/GitHub renderers and docs.
#pragma once

#include <span>
#include <string_view>

namespace kpw::rules {

// One documented finding. Warnings never deny; errors are keyed by their apimachinery reason (field
// error types, and BadRequest for the API server's strict decoding error).
//
// Warnings (valid policies that almost certainly do not do what was meant):
//  overflow-cluster-repeated      a term's overflow tier lists a cluster the primary or an earlier tier
//                                 already lists; the cluster belongs to the first tier naming it.
//  unreachable-affinity-term      a clusterAffinities term selects exactly what an earlier term selects;
//                                 the scheduler only falls through on failure, so it can never be chosen.
//  cluster-included-and-excluded  a cluster is in clusterNames and exclude of the same affinity; exclude wins.
//  unknown-field                  (lint --validate=warn) a field the CRD does not know: the API server
//                                 drops it (with --validate=strict, lint's default, it is a BadRequest error).
//  field-of-later-release         (lint --karmada-version) a field that a later Karmada release added: the
//                                 chosen release's API server refuses it (strict) or drops it.
//  required-masked                (lint) a field the CRD requires but a live Karmada accepts when absent,
//                                 because its mutating webhook re-emits it as an empty value.
//  value-masked                   (lint) a value the CRD refuses as written ("" for an enum) that a live
//                                 Karmada admits: its mutating webhook's Go re-encoding drops it.
//  denied-after-decode            (lint) an API server error behind Karmada's mutating webhook's decode error.
//  static-weight-cluster-unselected  a staticWeightList entry names a cluster the clusterAffinity's
//                                 explicit clusterNames do not include; that weight never applies.
//  static-weights-ignored         staticWeightList next to dynamicWeight: the dynamic weight wins.
//  weight-preference-ignored      weightPreference without Divided + Weighted scheduling has no effect.
//  toleration-seconds-ignored     tolerationSeconds on a toleration whose effect is not NoExecute.
//  purge-mode-deprecated          failover.application.purgeMode Immediately or Graciously (the CRD still
//                                 admits them): Directly and Gracefully are the current names.
//  toleration-value-ignored       a value on an Exists toleration (Exists matches any value).
//  selector-label-ignored         a resource selector with both name and labelSelector; the name wins.
//  policy-claims-nothing          (lint --workloads) a policy matches none of the given workloads.
//  policy-shadowed                (lint --workloads) every workload the policy matches goes to another policy.
//  claim-decided-by-name          (lint --workloads) two policies tie on priority and match: the name decides.
//  claim-not-preempted            (lint --workloads) a policy that would win a workload does not take it over
//                                 from the policy that already holds it (preemption Never, gate off, priority).
//  lazy-activation                (lint --workloads) an activationPreference: Lazy policy's changes reach its
//                                 templates only at their next change.
struct catalogue_entry {
    std::string_view id;       // warning id, or the error reason (FieldValueInvalid, ...)
    bool is_error = false;
    std::string_view summary;  // one line, for a SARIF rule's shortDescription
    std::string_view help;     // what to do about it
};

// Every entry, errors first, in a stable order.
std::span<const catalogue_entry> catalogue();

// The entry of an id or reason; nullptr when unknown.
const catalogue_entry* find_catalogue_entry(std::string_view id);

} // namespace kpw::rules
