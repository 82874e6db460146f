// SPDX-License-Identifier: Apache-2.0
// Snapshot warnings for one policy: unmatched affinities and unschedulable claimed workloads.
#include "snapshot/policy_warnings.hpp"

#include "field/error.hpp"
#include "model/object_label.hpp"
#include "scheduling/claim.hpp"
#include "scheduling/binding_build.hpp"

namespace kpw::snapshot {
namespace {

// "Deployment shop/web unschedulable: local-idc: failed to scale up: Clusters available replicas 6 are not enough to schedule."
// The docs ask warnings to keep to 120 characters where possible, so the reason comes right after the
// workload's name.
std::string unschedulable_text(const model::workload& w, const scheduling::decision& d)
{
    // With one term its reason is the whole story; with several the first group's reason says most.
    const std::string why = d.failures.empty() ? d.message : d.failures.front().str();
    const std::string name = w.namespace_.empty() ? w.name : w.namespace_ + "/" + w.name;
    return w.kind + " " + name + " unschedulable: " + why;
}

} // namespace

std::vector<std::string> policy_warnings(const state& known, const model::policy& policy,
                                         std::string_view policy_namespace, const scheduling::options& options)
{
    std::vector<std::string> out;
    if (!known.snapshot)
        return out;
    for (const auto& u : scheduling::unmatched_terms(policy.spec, *known.snapshot))
        out.push_back(field::warning{"affinity-matches-no-cluster", u.field, u.message}.str());
    const bool cluster_scoped = policy.kind == model::kind_cluster_propagation_policy;
    const scheduling::policy_view self{&policy.spec, cluster_scoped ? std::string_view() : policy_namespace,
                                       policy.metadata.name, cluster_scoped};
    for (const auto& w : known.workloads) {
        if (!scheduling::claiming_policy(std::span(&self, 1), w))
            continue;
        if (const auto failure =
                scheduling::binding_build_failure(w, policy.spec, options.gates_or_defaults(), known.workloads)) {
            out.push_back(field::warning{failure->id, failure->field,
                                         model::object_label(w.kind, w.namespace_, w.name) +
                                             ": the detector builds no binding for it: " + failure->message}
                              .str());
            continue;
        }
        // A policy naming another scheduler is left to it on purpose: nothing to warn about here.
        auto d = scheduling::first_schedule(policy.spec, w, *known.snapshot, options);
        if (!d.scheduled && d.ignored.empty())
            out.push_back(unschedulable_text(w, d));
    }
    return out;
}

} // namespace kpw::snapshot
