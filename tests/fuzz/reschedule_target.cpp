// SPDX-License-Identifier: Apache-2.0
// Fuzz target (7): Clusters, ResourceBindings, workloads and policies (a JSON List or a YAML stream) -> the
// re-schedule path as lint --bindings and simulate run it: the detector's policy apply, should_schedule,
// and reschedule() with the binding's previous result, alone and through the shared filter cache.
#include "placement_checks.hpp"
#include "scheduling/binding_pairing.hpp"
#include "scheduling/filter_cache.hpp"
#include "scheduling/reschedule.hpp"
#include "scheduling/snapshot.hpp"
#include "settings/feature_gates.hpp"
#include "stream_inputs.hpp"
#include "targets.hpp"

namespace kpw::fuzz {
namespace {

constexpr std::string_view name = "reschedule";
constexpr model::timestamp now = 1'796'083'200; // 2026-12-01T00:00:00Z, any fixed instant

std::string placement_text(const scheduling::decision& d)
{
    std::string s = d.scheduled ? "scheduled" : "failed " + d.condition_reason + ": " + d.condition_message;
    for (const auto& c : d.clusters)
        s += " " + c.name + "=" + std::to_string(c.replicas);
    return s + (d.keeps_previous ? " (keeps previous)" : "");
}

// What one pass wrote is what its decision says: nothing when the scheduler did not act, the placement
// (and an annotation the next pass reads as unchanged) when it succeeded, no clusters after a FitError
// that decides (day2-semantics §3.9).
void check_written(const scheduling::reschedule_outcome& out, const model::binding& applied,
                   const scheduling::snapshot& snap, bool admitted)
{
    if (out.before != applied.clusters)
        invariant_failed(name, "reschedule_outcome.before is not the binding's spec.clusters");
    if (!out.acted) {
        if (out.after.clusters != applied.clusters)
            invariant_failed(name, "a pass that did not act changed spec.clusters");
        return;
    }
    if (!out.result.karmada_panic.empty()) {
        // Karmada's scheduler crashes (a placement its webhook denies): the process dies before any patch.
        if (admitted)
            invariant_failed(name, "Karmada's scheduler panics on a placement its webhook admitted");
        if (out.after != applied)
            invariant_failed(name, "a pass that crashed the scheduler changed the binding");
        return;
    }
    if (admitted)
        check_placement(name, out.result, model::workload_of(applied), snap);
    else
        check_clusters(name, out.result, snap);
    if (out.result.scheduled && out.after.clusters.size() != out.result.clusters.size())
        invariant_failed(name, "a successful pass wrote other clusters than it placed");
    // The annotation a pass writes (json.Marshal of spec.placement) must read back as that placement,
    // or every later pass would see "placement changed" and schedule again.
    if (out.result.scheduled && scheduling::placement_changed(out.after))
        invariant_failed(name, "the applied-placement annotation a successful pass wrote reads as a placement change");
    if (!out.result.scheduled && !out.result.keeps_previous && !out.after.clusters.empty())
        invariant_failed(name, "a FitError pass kept clusters in spec.clusters");
    if (!out.result.scheduled && out.result.condition_message.empty())
        invariant_failed(name, "a failed pass has no Scheduled-condition message");
}

// `admitted`: the placement comes from a policy Karmada admitted (not the binding's own as stored).
void reschedule_both_ways(const model::binding& applied, const scheduling::snapshot& snap,
                          scheduling::filter_cache& shared, const settings::feature_gates& gates, bool admitted)
{
    const auto lone = scheduling::reschedule(applied, snap, {}, gates, now);
    check_written(lone, applied, snap, admitted);
    // lint --bindings and simulate share one filter pass per shape and no candidate rows
    // (filter_cache.hpp); the placement must not depend on it.
    scheduling::options opts;
    opts.filters = &shared;
    opts.candidate_rows = false;
    const auto fast = scheduling::reschedule(applied, snap, opts, gates, now);
    if (lone.acted != fast.acted || placement_text(lone.result) != placement_text(fast.result))
        invariant_failed(name, "the shared filter cache changed a re-schedule: " + placement_text(lone.result) +
                                   " | " + placement_text(fast.result));
}

} // namespace

int reschedule(bytes data)
{
    stream_inputs in;
    if (!read_stream_inputs(as_text(data), {.policies = 3, .workloads = 4, .bindings = 4}, in))
        return 0;
    const scheduling::snapshot snap(in.clusters.clusters());
    scheduling::filter_cache shared(snap);
    const settings::feature_gates gates;
    for (const model::binding& b : in.bindings.bindings()) {
        // The binding as stored, then with each policy applied and the replicas of its template when the
        // stream has it.
        reschedule_both_ways(b, snap, shared, gates, false);
        const model::workload* template_now = nullptr;
        for (const model::workload& w : in.workloads)
            if (model::refers_to(b.resource, w))
                template_now = &w;
        const std::string live_uid = template_now ? scheduling::live_template_uid(*template_now, &b) : "";
        for (const model::policy& p : in.policies)
            reschedule_both_ways(scheduling::apply_policy(b, p, template_now, live_uid, gates), snap, shared, gates,
                                 true);
    }
    return 0;
}

} // namespace kpw::fuzz
