// SPDX-License-Identifier: Apache-2.0
// Fuzz target (4): Clusters, workloads and policies (a JSON List or a YAML stream, read as lint reads
// a snapshot: stream_inputs.hpp) -> inventory, snapshot, dry-run
// scheduler for every (policy, workload) pair, and the unmatched-affinity check.
#include "placement_checks.hpp"
#include "scheduling/component_sets.hpp"
#include "scheduling/simulator.hpp"
#include "scheduling/snapshot.hpp"
#include "scheduling/strategy.hpp"
#include "settings/feature_gates.hpp"
#include "stream_inputs.hpp"
#include "targets.hpp"

namespace kpw::fuzz {
namespace {

constexpr std::string_view name = "schedule";
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
    check_clusters(name, d, snap);
    if (d.scheduled && scheduling::multi_template_applicable(spec, w, gates) && !scheduling::spread_ignored(spec.placement) &&
        !scheduling::spread_of(spec.placement).region && d.clusters.size() > 1)
        invariant_failed(name, "a job scheduled as one was placed on " + std::to_string(d.clusters.size()) + " clusters");
}

} // namespace

int schedule(bytes data)
{
    stream_inputs in;
    if (!read_stream_inputs(as_text(data), {.policies = 4, .workloads = 8, .bindings = 0}, in))
        return 0;
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
            check_placement(name, scheduling::schedule(p.spec, w, snap), w, snap);
            if (!w.components.empty())
                check_kept_together(scheduling::schedule(p.spec, w, snap, gated), p.spec, w, multi_template, snap);
        }
    }
    return 0;
}

} // namespace kpw::fuzz
