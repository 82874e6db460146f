// SPDX-License-Identifier: Apache-2.0
// What a tried group reports: the scheduled rows and message, tie detection, --explain rows, components.
#include "scheduling/simulator_run.hpp"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <string_view>
#include <utility>

#include "scheduling/explain.hpp"
#include "scheduling/strategy.hpp"

namespace kpw::scheduling::detail {

namespace {

// An assignment's replicas by name rank, sorted: looked up once per candidate (thousands per group).
class replicas_by_rank {
public:
    explicit replicas_by_rank(const assignment& a)
    {
        for (const auto& c : a.clusters)
            rows_.emplace_back(c.target->name_rank, c.replicas);
        std::sort(rows_.begin(), rows_.end());
    }
    std::int32_t operator[](std::uint32_t rank) const
    {
        auto it = std::lower_bound(rows_.begin(), rows_.end(), std::pair{rank, std::numeric_limits<std::int32_t>::min()});
        return it != rows_.end() && it->first == rank ? it->second : 0;
    }

private:
    std::vector<std::pair<std::uint32_t, std::int32_t>> rows_;
};

std::vector<std::string> tie_clusters(const attempt& a)
{
    std::vector<std::string> out;
    replicas_by_rank one(a.result), other(a.reversed);
    for (const auto& c : a.chosen.clusters)
        if (one[c.name_rank] != other[c.name_rank])
            out.push_back(c.cluster->name);
    return out;
}

std::string join(const std::vector<std::string>& names, std::string_view sep)
{
    std::string s;
    for (const auto& n : names)
        s.append(s.empty() ? "" : std::string(sep)).append(n);
    return s;
}

// Which estimators the available replicas (or complete component sets) come from (calAvailableReplicas;
// available.hpp).
std::string estimator_note(const estimator_use& use, std::string_view what = "available replicas")
{
    const std::string w(what);
    if (use.accurate)
        return "; " + w + " per cluster: the smaller of the general estimator (resourceSummary and "
               "resource models) and karmada-scheduler-estimator (the member's nodes and pods)";
    if (!use.missing.empty() || !use.failed.empty())
        return "; " + w + " from the general estimator (resourceSummary and resource models) only: " +
               (use.missing.empty() ? use.failed
                                    : "cluster " + use.missing + " has no karmada-scheduler-estimator (no member state)") +
               ", and karmada-scheduler drops every karmada-scheduler-estimator answer of a scheduling when one "
               "cluster's call fails";
    return "; " + w + " from the general estimator (resourceSummary and resource models), "
           "not karmada-scheduler-estimator";
}

std::string success_message(const decision& d, std::int32_t replicas, const estimator_use& use)
{
    if (d.non_workload)
        return "not a workload: propagated to " + std::to_string(d.clusters.size()) + " cluster(s) without a replica count";
    std::string s = std::to_string(replicas) + " replica(s) on " + std::to_string(d.clusters.size()) + " cluster(s) by " +
                    std::string(strategy_name(d.strategy));
    if (d.strategy == strategy::dynamic_weight || d.strategy == strategy::aggregated)
        s += estimator_note(use);
    if (d.tie)
        s += "; the split depends on karmada's tie-breaker (the workload has no metadata.uid): it may differ between " +
             join(d.tie_between, " and ");
    return s;
}

} // namespace

void fill(decision& d, const group_scope& term, const attempt& a, const model::workload& w, bool candidate_rows)
{
    d.scheduled = true;
    d.affinity_name = term.name;
    auto tier = [&](int t) { return tier_name(term, t); };
    // Shown as the estimator's answer: a non-workload's MaxInt32 plus its current replicas stays MaxInt32.
    auto shown = [](std::int64_t available) {
        return static_cast<std::int32_t>(std::min<std::int64_t>(available, unlimited_replicas));
    };
    if (candidate_rows) {
        replicas_by_rank given(a.result);
        d.candidates.reserve(a.feasible.size());
        for (const auto& c : a.feasible)
            d.candidates.push_back({c.cluster->name, given[c.name_rank], tier(c.tier), shown(c.available), {}});
    }
    std::vector<assigned> rows = a.result.clusters;
    std::stable_sort(rows.begin(), rows.end(),
                     [](const assigned& x, const assigned& y) { return canonical_before(*x.target, *y.target); });
    for (const auto& r : rows)
        d.clusters.push_back({r.target->cluster->name, r.replicas, tier(r.target->tier), shown(r.target->available), {}});
    if (a.checked_tie) {
        d.tie_between = tie_clusters(a);
        d.tie = !d.tie_between.empty();
    }
    d.message = success_message(d, w.replicas, a.estimators);
}

group_outcome outcome_of(const run& r, const filter_scope& scope, const attempt& a)
{
    group_outcome g;
    g.affinity_name = scope.group.name;
    if (a.error.empty())
        g.outcome = "scheduled";
    else if (a.stage == failure_stage::fit)
        g.outcome = "fit-error";
    else
        g.outcome = a.stage == failure_stage::selection ? "selection" : "assignment";
    if (!a.error.empty())
        g.error = a.stage == failure_stage::fit ? a.diagnosis.text : wrapped_error(a.stage, a.error);
    g.diagnosis = a.diagnosis.text;
    g.diagnosis_alternatives = a.diagnosis.alternatives;
    if (!r.opts.explain)
        return g;
    std::vector<std::string> ties = a.checked_tie ? tie_clusters(a) : std::vector<std::string>{};
    bool assigned = a.error.empty();
    explain_input in{r.snap, scope, r.placement, r.request, r.workload, strategy_of(r.placement), a.feasible,
                     a.chosen.clusters, assigned ? &a.result : nullptr, ties, r.sets, a.estimators.accurate};
    g.considered = explain_group(in);
    return g;
}

// karmada: common.go AssignReplicas with components: every selected cluster gets {name} plus, when multi-
// template scheduling applies and the job has >= 2 components, the components copied in full.
void add_components(decision& d, const model::propagation_spec& spec, const model::workload& w,
                    const settings::feature_gates& gates, bool applicable, const estimator_use& use)
{
    std::vector<std::string> names;
    for (const auto& c : d.clusters)
        names.push_back(c.name);
    auto targets = component_targets(names, w, spec, gates);
    for (std::size_t i = 0; i < d.clusters.size() && i < targets.size(); ++i)
        d.clusters[i].components = targets[i].components;
    d.message = applicable ? "multi-component job (" + std::to_string(w.components.size()) +
                                 " components) kept together on " + (names.empty() ? "-" : names.front()) +
                                 "; available replicas are complete component sets" +
                                 (use.accurate || !use.missing.empty() || !use.failed.empty()
                                      ? estimator_note(use, "complete component sets")
                                      : std::string())
                           : "multi-component job sent whole to " + std::to_string(names.size()) +
                                 " cluster(s): multi-template scheduling does not apply (it needs the "
                                 "MultiplePodTemplatesScheduling gate and a cluster spread constraint with "
                                 "minGroups 1 and maxGroups 1)";
}

} // namespace kpw::scheduling::detail
