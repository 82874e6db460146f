// SPDX-License-Identifier: Apache-2.0
// Warnings for multi-component jobs under Karmada's MultiplePodTemplatesScheduling (day2 §6.2, §6.3).
#include "scheduling/component_pitfalls.hpp"

#include <map>

#include "model/components.hpp"
#include "scheduling/component_sets.hpp"
#include "scheduling/strategy.hpp"

namespace kpw::scheduling {

namespace {

std::string names_of(const model::workload& w)
{
    std::string out;
    for (const auto& c : w.components)
        out += (out.empty() ? "" : ", ") + c.name + " ×" + std::to_string(c.replicas);
    return out;
}

std::string job_of(const model::workload& w)
{
    return w.kind + " " + w.name + " (" + names_of(w) + ")";
}

bool whole_units(const model::quantity& q) { return model::stored_notation(q) == model::notation::binary_si; }

// karmada general.go quantityAsInt64 applies each quantity's own notation: a request and an allocatable
// that disagree differ by 1000× (a binary request against a decimal allocatable, or the reverse).
void notation_mismatch(const model::workload& w, const std::vector<model::cluster>& clusters,
                       std::vector<component_warning>& out)
{
    std::map<std::string, bool> reported;
    for (const auto& c : w.components)
        for (const auto& [name, q] : model::request_quantities(c)) {
            if (q.nanos() <= 0 || reported[name])
                continue;
            for (const auto& cl : clusters) {
                if (!cl.resource_summary)
                    continue;
                auto it = cl.resource_summary->allocatable.find(name);
                if (it == cl.resource_summary->allocatable.end() || whole_units(it->second) == whole_units(q))
                    continue;
                reported[name] = true;
                out.push_back(
                    {"components-notation-mismatch",
                     c.name + " requests " + name + " " + model::canonical_text(q) + " (" +
                         (whole_units(q) ? "binary: whole units" : "decimal: thousandths") + ") but cluster " +
                         cl.name + " lists " + model::canonical_text(it->second) + " (" +
                         (whole_units(it->second) ? "binary: whole units" : "decimal: thousandths") +
                         "): Karmada's set estimate is off by 1000× (" +
                         (whole_units(q) ? "far more" : "far fewer") + " sets than really fit); write both "
                         "in binary units (Mi, Gi)"});
                break;
            }
        }
}

// §6.3 per cluster vs the clusters together: a set that no cluster holds although their sum could.
void fragmented(const model::workload& w, const std::vector<model::cluster>& clusters,
                const settings::feature_gates& gates, std::vector<component_warning>& out)
{
    resource_table table;
    std::vector<set_cluster> prepared;
    for (const auto& c : clusters)
        prepared.push_back(prepare_set_cluster(c, table, gates));
    auto job = prepare_set_job(w.components, table);
    if (prepared.empty() || job.pods_per_set <= 0 || !job.unknown.empty())
        return;
    std::int64_t pods = 0;
    std::map<int, std::int64_t> total;
    for (const auto& c : prepared) {
        if (max_available_component_sets(c, job).sets >= 1)
            return;
        if (!c.has_summary)
            continue;
        pods += std::max<std::int64_t>(c.pods_left, 0);
        for (std::size_t id = 0; id < c.available.size(); ++id)
            total[static_cast<int>(id)] += std::max<std::int64_t>(c.available[id], 0);
    }
    if (pods < job.pods_per_set)
        return;
    for (const auto& r : job.per_set)
        if (r.value > 0 && total[r.id] < r.value)
            return;
    out.push_back({"components-fragmented",
                   "capacity exists but is fragmented: no single cluster can hold one complete set of " + job_of(w) +
                       ", although the " + std::to_string(clusters.size()) +
                       " clusters together could; Karmada never splits a multi-component job across clusters. "
                       "Free capacity in one cluster, or use smaller components"});
}

void per_component(const model::workload& w, std::vector<component_warning>& out)
{
    for (const auto& c : w.components) {
        if (c.replicas < 0)
            out.push_back({"components-negative-replicas",
                           c.name + " has " + std::to_string(c.replicas) +
                               " replicas: Karmada writes it into the binding as is and subtracts it from the set"});
        for (const auto& [name, q] : model::request_quantities(c))
            if (name == "memory" && q.nanos() > 0 && q < model::quantity::from_int(1 << 20))
                out.push_back({"components-memory-tiny",
                               c.name + " requests memory " + model::canonical_text(q) +
                                   " (under 1Mi per replica): a Flink size like \"2048m\" means megabytes to Flink "
                                   "but 2.048 bytes to Karmada; write \"2048Mi\" or \"2Gi\""});
    }
}

} // namespace

std::vector<component_warning> component_pitfalls(const model::propagation_spec& spec, const model::workload& w,
                                                  const std::vector<model::cluster>& clusters,
                                                  const settings::feature_gates& gates)
{
    std::vector<component_warning> out;
    if (w.components.empty())
        return out;
    if (!gates.multiple_pod_templates_scheduling()) {
        out.push_back({"components-gate-off",
                       job_of(w) + " has several pod templates, but MultiplePodTemplatesScheduling is off: Karmada "
                                   "reads it through GetReplicas and does not keep the components together; enable "
                                   "the gate (--feature-gates=MultiplePodTemplatesScheduling=true on "
                                   "karmada-controller-manager and karmada-scheduler)"});
        return out;
    }
    bool applicable = multi_template_applicable(spec, w, gates);
    if (!applicable)
        out.push_back({"components-not-applicable",
                       job_of(w) + " is not scheduled as a whole: Karmada needs a spread constraint "
                                   "{spreadByField: cluster, minGroups: 1, maxGroups: 1}; without it the estimate "
                                   "counts free pods only and every selected cluster gets the whole job"});
    if (spread_ignored(spec.placement))
        out.push_back({"components-sent-to-every-candidate",
                       job_of(w) + " is sent, complete, to every candidate cluster: " +
                           (spec.placement.spread_constraints.empty()
                                ? "the placement has no spread constraints"
                                : "static weights make the scheduler ignore the spread constraints") +
                           "; add {spreadByField: cluster, minGroups: 1, maxGroups: 1} and drop the static weights"});
    // estimation.go isMultiTemplateSchedulingApplicable reads the cluster constraint only, but a region
    // constraint selects first: one cluster from each chosen region (select_clusters_by_region.go), and
    // every selected cluster gets the whole job.
    if (const auto region = spread_of(spec.placement).region;
        applicable && !spread_ignored(spec.placement) && region && !(region->min_groups <= 1 && region->max_groups == 1))
        out.push_back({"components-split-by-region",
                       job_of(w) + " can be placed whole on several clusters: the region spread constraint "
                                   "(minGroups " + std::to_string(region->min_groups) + ", maxGroups " +
                           std::to_string(region->max_groups) +
                           ") picks one cluster in each chosen region before the cluster constraint 1/1 "
                           "applies; drop the region constraint (or make it maxGroups 1) to keep the job on "
                           "one cluster"});
    per_component(w, out);
    if (applicable) {
        notation_mismatch(w, clusters, out);
        fragmented(w, clusters, gates, out);
    }
    return out;
}

} // namespace kpw::scheduling
