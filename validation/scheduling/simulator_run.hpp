// SPDX-License-Identifier: Apache-2.0
// Inside schedule(): the context one call shares across its affinity groups, one group's attempt, and the
// steps simulator.cpp calls (fit errors, candidate lists, the decision's rows and texts).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "model/policy.hpp"
#include "model/workload.hpp"
#include "scheduling/assign.hpp"
#include "scheduling/available.hpp"
#include "scheduling/component_sets.hpp"
#include "scheduling/diagnosis.hpp"
#include "scheduling/estimator.hpp"
#include "scheduling/filter_stage.hpp"
#include "scheduling/previous_view.hpp"
#include "scheduling/select.hpp"
#include "scheduling/simulator.hpp"
#include "settings/feature_gates.hpp"

namespace kpw::scheduling::detail {

struct attempt {
    failure_stage stage = failure_stage::fit;
    std::string error;               // Karmada's error of the stage, unwrapped ("" when scheduled)
    bool unschedulable = false;      // the error is an UnschedulableError (assignment capacity)
    fit_diagnosis diagnosis;         // stage fit only
    std::vector<candidate> feasible; // canonical order
    selection chosen;
    // Before v1.17, a scale-down also deals to the previous clusters that are not chosen (simulator.cpp
    // previous_outside): they live here, so that `result` may point at them.
    std::vector<candidate> scaled_down;
    assignment result;
    assignment reversed; // with the other name order, when ties are checked
    bool checked_tie = false;
    estimator_use estimators; // whether karmada-scheduler-estimator's answers count (available.hpp)
};

// The context every group of one schedule() call shares.
struct run {
    const model::placement& placement;
    const model::workload& w;
    const snapshot& snap;
    const options& opts;
    std::vector<model::toleration> tolerations;
    previous_view previous;
    prepared_request request;
    int api = -1;
    division_mode mode = division_mode::first;
    bool workload = true;
    // A multi-component job scheduled as one (day2-semantics §6.2): available replicas are component
    // sets, selection needs 1, nothing is divided. nullptr otherwise.
    job_sets* sets = nullptr;

    // karmada: core/util.go calAvailableReplicas estimates nothing when spec.replicas is 0 and there are no
    // components (a non-workload, or a workload of 0 replicas with requests): every cluster answers
    // MaxInt32, not capped at spec.replicas. Only a Fresh division then sees it (the int32 sum can wrap:
    // two such clusters make -2, "Clusters available replicas -2 are not enough to schedule.").
    bool estimates() const { return workload && !(w.replicas == 0 && w.components.empty()); }

    filter_scope scope(const group_scope& g) const
    {
        return {g, tolerations, placement.spread_constraints, w.api_version, w.kind, api, previous.targets,
                previous.evicting};
    }
};

// simulator_fit_error.cpp
// The project's own FitError line: "no cluster passed the filters (a: not in the snapshot, b: taint
// x:NoSchedule not tolerated)", over the clusters the group's affinity selects; text for the first few only.
std::string project_fit_error(const run& r, const filter_scope& scope, const group_filter& f);
// Karmada's FitError over every cluster of the snapshot (N = all Cluster objects).
fit_diagnosis karmada_fit_error(const run& r, const filter_scope& scope);

// simulator_candidates.cpp: the feasible clusters as candidates, in canonical order (tier, score,
// available, name); the second form merges the targets into a filter cache's shared first-schedule order.
// `accurate`: karmada-scheduler-estimator's answers count (estimator_use).
std::vector<candidate> candidates_of(const run& r, const group_filter& f, bool accurate);
std::vector<candidate> candidates_of(const run& r, const group_filter& f, const std::vector<group_filter::pass>& order,
                                     std::vector<std::int32_t>& memo, bool accurate);

// simulator_outcome.cpp: a scheduled group's rows and message; a tried group's outcome (with --explain
// rows); a multi-component job's components on the chosen clusters.
void fill(decision& d, const group_scope& term, const attempt& a, const model::workload& w, bool candidate_rows);
group_outcome outcome_of(const run& r, const filter_scope& scope, const attempt& a);
void add_components(decision& d, const model::propagation_spec& spec, const model::workload& w,
                    const settings::feature_gates& gates, bool applicable, const estimator_use& use);

} // namespace kpw::scheduling::detail
