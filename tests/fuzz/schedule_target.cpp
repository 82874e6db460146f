// SPDX-License-Identifier: Apache-2.0
// Fuzz target (4): a YAML stream of Clusters, workloads and policies -> inventory, snapshot, dry-run
// scheduler for every (policy, workload) pair, and the unmatched-affinity check.
#include <set>

#include "doc/load.hpp"
#include "model/decode.hpp"
#include "scheduling/component_sets.hpp"
#include "scheduling/inventory.hpp"
#include "scheduling/simulator.hpp"
#include "scheduling/snapshot.hpp"
#include "scheduling/strategy.hpp"
#include "settings/feature_gates.hpp"
#include "targets.hpp"
#include "validate.hpp"

namespace kpw::fuzz {
namespace {

constexpr std::string_view name = "schedule";
// Bounds that keep one input in milliseconds; the interesting shapes are small.
constexpr std::size_t max_policies = 4, max_workloads = 8;

struct inputs {
    scheduling::cluster_inventory clusters;
    std::vector<model::workload> workloads;
    std::vector<model::policy> policies;
};

// Admitted policies as the API server stores them (CRD + mutating defaults), everything else offered to both
// the cluster inventory and the workload reader (each takes its own kinds).
void read_documents(const std::vector<doc::document>& docs, inputs& in)
{
    std::vector<scheduling::inventory_issue> issues;
    for (const doc::document& d : docs) {
        if (!d.root.is_mapping())
            continue;
        if (auto kind = policy_kind_of(d.root.string_at("apiVersion"), d.root.string_at("kind"))) {
            // As lint: only a policy Karmada would admit is scheduled.
            manifest_verdict v = validate_manifest(*kind, d.root, "default", {});
            if (v.errors.empty() && in.policies.size() < max_policies)
                in.policies.push_back(model::decode(v.defaulted));
            continue;
        }
        in.clusters.add(d.root, issues);
        if (in.workloads.size() < max_workloads)
            scheduling::add_workloads(in.workloads, d.root, "default", issues);
    }
    in.clusters.seal(issues);
    if (in.workloads.size() > max_workloads)
        in.workloads.resize(max_workloads);
}

void check_decision(const scheduling::decision& d, const model::workload& w, const scheduling::snapshot& snap)
{
    std::set<std::string> seen;
    std::int64_t total = 0;
    for (const auto& c : d.clusters) {
        if (!snap.contains(c.name) || !seen.insert(c.name).second)
            invariant_failed(name, "a placement names a cluster twice or one outside the snapshot");
        if (c.replicas < 0)
            invariant_failed(name, "a cluster got a negative replica count");
        total += c.replicas;
    }
    if (!d.scheduled || d.non_workload)
        return;
    // A workload of 0 replicas with resource requests goes through replica assignment
    // (pkg/scheduler/core/common.go AssignReplicas): Divided gives it no cluster (assignment.go
    // assignByDynamicStrategy returns the previous result, none on a first schedule). Duplicated gives
    // every candidate 0 replicas (assignByDuplicatedStrategy) and assignReplicasToClusters then drops
    // them (removeZeroReplicasCluster, pkg/scheduler/core/util.go): no cluster either
    // (tests/fuzz/regressions/schedule/duplicated-zero-replicas-with-requests).
    if (d.clusters.empty() && w.replicas > 0)
        invariant_failed(name, "scheduled onto no cluster");
    if (d.strategy == scheduling::strategy::duplicated) {
        for (const auto& c : d.clusters)
            if (c.replicas != w.replicas)
                invariant_failed(name, "Duplicated gave cluster " + c.name + " " + std::to_string(c.replicas) +
                                           " replicas, the workload has " + std::to_string(w.replicas));
    } else if (total != w.replicas) {
        invariant_failed(name, "Divided assigned " + std::to_string(total) + " replicas, the workload has " + std::to_string(w.replicas));
    }
}

// A multi-component job under the gate: valid clusters; kept together (one cluster) when multi-template
// scheduling applies and the spread constraint is not ignored. Static weights make Karmada ignore it
// (spreadconstraint/util.go shouldIgnoreSpreadConstraint): then every feasible cluster is selected and
// gets the whole job (tests/fuzz/regressions/schedule/components-static-weight-every-cluster). A region
// constraint selects by region first (select_clusters_by_region.go: one cluster per chosen region), and
// Karmada's applicability test looks at the cluster constraint only (estimation.go
// isMultiTemplateSchedulingApplicable): minGroups 3 regions place the job on 3 clusters
// (components-region-spread-three-clusters).
void check_kept_together(const scheduling::decision& d, const model::propagation_spec& spec, const model::workload& w,
                         const settings::feature_gates& gates, const scheduling::snapshot& snap)
{
    std::set<std::string> seen;
    for (const auto& c : d.clusters)
        if (!snap.contains(c.name) || !seen.insert(c.name).second)
            invariant_failed(name, "a component job's placement names a cluster twice or one outside the snapshot");
    if (d.scheduled && scheduling::multi_template_applicable(spec, w, gates) && !scheduling::spread_ignored(spec.placement) &&
        !scheduling::spread_of(spec.placement).region && d.clusters.size() > 1)
        invariant_failed(name, "a job scheduled as one was placed on " + std::to_string(d.clusters.size()) + " clusters");
}

} // namespace

int schedule(bytes data)
{
    auto docs = doc::load_yaml(as_text(data));
    if (!docs)
        return 0;
    inputs in;
    read_documents(*docs, in);
    const scheduling::snapshot snap(in.clusters.clusters());
    // Multi-component jobs once more with MultiplePodTemplatesScheduling on (alpha: off by default), so
    // the component-set estimator and the single-cluster pick are reached.
    settings::feature_gates multi_template;
    multi_template.set("MultiplePodTemplatesScheduling", true);
    scheduling::options gated;
    gated.gates = &multi_template;
    for (const model::policy& p : in.policies) {
        (void)scheduling::unmatched_terms(p.spec, snap);
        for (const model::workload& w : in.workloads) {
            check_decision(scheduling::schedule(p.spec, w, snap), w, snap);
            if (!w.components.empty())
                check_kept_together(scheduling::schedule(p.spec, w, snap, gated), p.spec, w, multi_template, snap);
        }
    }
    return 0;
}

} // namespace kpw::fuzz
