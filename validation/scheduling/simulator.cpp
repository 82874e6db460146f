// SPDX-License-Identifier: Apache-2.0
// The group loop, filtering with reasons, and turning one term's assignment into a decision.
#include "scheduling/simulator.hpp"

#include <algorithm>
#include <limits>
#include <map>
#include <optional>
#include <tuple>

#include "scheduling/assign.hpp"
#include "scheduling/component_sets.hpp"
#include "scheduling/diagnosis.hpp"
#include "scheduling/estimator.hpp"
#include "scheduling/explain.hpp"
#include "scheduling/filter.hpp"
#include "scheduling/filter_cache.hpp"
#include "scheduling/filter_stage.hpp"
#include "scheduling/previous_view.hpp"
#include "scheduling/select.hpp"

namespace kpw::scheduling {

namespace {

struct attempt {
    failure_stage stage = failure_stage::fit;
    std::string error;               // Karmada's error of the stage, unwrapped ("" when scheduled)
    fit_diagnosis diagnosis;         // stage fit only
    std::vector<candidate> feasible; // canonical order
    selection chosen;
    assignment result;
    assignment reversed; // with the other name order, when ties are checked
    bool checked_tie = false;
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

    filter_scope scope(const group_scope& g) const
    {
        return {g, tolerations, placement.spread_constraints, w.api_version, w.kind, api, previous.targets,
                previous.evicting};
    }
};

// The project's own FitError line: "no cluster passed the filters (a: not in the snapshot, b: taint
// x:NoSchedule not tolerated)", over the clusters the group's affinity selects; text for the first few only.
std::string project_fit_error(const run& r, const filter_scope& scope, const group_filter& f)
{
    constexpr std::size_t shown = 5;
    std::vector<std::string> details;
    std::size_t more = 0;
    auto clusters = r.snap.clusters();
    auto rejected = f.rejected.begin();
    for (std::size_t i = 0; i < clusters.size(); ++i) {
        bool failed = rejected != f.rejected.end() && *rejected == i;
        rejected += failed ? 1 : 0;
        if (!failed && !(clusters[i].deleting && tier_of(clusters[i], scope.group) >= 0))
            continue;
        if (details.size() == shown)
            ++more;
        else
            details.push_back(clusters[i].name + ": " +
                              (failed ? plugin_failures(r.snap, i, scope).front().detail : "being deleted"));
    }
    if (scope.group.primary != nullptr)
        add_missing_names(*scope.group.primary, r.snap, details);
    for (const auto& o : scope.group.overflow)
        add_missing_names(o.cluster_affinity, r.snap, details);
    std::string s = "no cluster passed the filters";
    if (details.empty())
        return s + (clusters.empty() ? " (the snapshot is empty)" : " (no cluster matches the affinity)");
    more += details.size() > shown ? details.size() - shown : 0;
    s += " (";
    for (std::size_t i = 0; i < details.size() && i < shown; ++i)
        s += (i ? ", " : "") + details[i];
    if (more > 0)
        s += ", and " + std::to_string(more) + " more";
    return s + ")";
}

// Karmada's FitError over every cluster of the snapshot (N = all Cluster objects). Clusters are counted
// by their cheap failure profile first, so reason strings are built once per distinct profile.
fit_diagnosis karmada_fit_error(const run& r, const filter_scope& scope)
{
    std::map<std::tuple<std::uint8_t, const model::taint*, const char*>, std::pair<failing_plugins, std::size_t>> seen;
    for (std::size_t i = 0; i < r.snap.clusters().size(); ++i) {
        auto f = failing(r.snap, i, scope);
        if (f.mask != 0)
            ++seen.try_emplace({f.mask, f.taint, f.spread_field.data()}, f, 0).first->second.second;
    }
    std::vector<counted_failures> counted;
    for (const auto& [key, entry] : seen) {
        counted_failures c{{}, entry.second};
        for (auto p : all_filter_plugins)
            if (entry.first.fails(p))
                c.failures.push_back({p, plugin_reason(p, entry.first), {}});
        counted.push_back(std::move(c));
    }
    return diagnose_fit(r.snap.clusters().size(), counted);
}

std::vector<model::toleration> effective_tolerations(const model::placement& placement, const options& opts)
{
    std::vector<model::toleration> out = placement.cluster_tolerations;
    if (opts.legacy_default_tolerations) {
        for (const char* key : {"cluster.karmada.io/not-ready", "cluster.karmada.io/unreachable"}) {
            bool present = std::any_of(out.begin(), out.end(), [&](const model::toleration& t) {
                return t.key == key && t.effect == "NoExecute";
            });
            if (!present)
                out.push_back({key, "Exists", "", "NoExecute", 300});
        }
    }
    return out;
}

// availableReplicas = estimate + current replicas; ClusterLocality scores a current target 100
// (plugins/clusterlocality; spreadconstraint/group_clusters.go generateClustersInfo).
struct candidate_maker {
    const run& r;
    // With a filter cache, estimates are shared by every workload of the same per-replica request.
    std::vector<std::int32_t>* memo;
    bool locality = !r.previous.targets.empty();

    explicit candidate_maker(const run& run_of, std::vector<std::int32_t>* shared = nullptr) : r(run_of), memo(shared) {}

    bool targeted(std::uint32_t rank) const
    {
        return locality && std::binary_search(r.previous.targets.begin(), r.previous.targets.end(), rank);
    }

    candidate operator()(const group_filter::pass& p) const
    {
        std::uint32_t rank = r.snap.name_rank(p.index);
        std::int32_t estimate = !r.workload ? unlimited_replicas
                                : r.sets    ? r.sets->sets(p.index)
                                : memo      ? r.opts.filters->estimate_for(*memo, p.index, r.request)
                                            : general_estimate(r.snap.prepared(p.index), r.request).replicas;
        std::int32_t current = locality ? current_of(r.previous, rank) : 0;
        auto available = static_cast<std::int32_t>(
            std::min<std::int64_t>(std::int64_t(estimate) + std::max(current, 0), unlimited_replicas));
        return {&r.snap.clusters()[p.index], p.tier, available, rank, estimate, current, targeted(rank) ? 100 : 0,
                r.snap.region_rank(p.index)};
    }
};

// The feasible clusters as candidates, in canonical order (tier, score, available, name). Without a filter
// cache, or for non-workloads and component sets (which share no per-request estimates).
std::vector<candidate> candidates_of(const run& r, const group_filter& f)
{
    candidate_maker make(r);
    std::vector<candidate> out;
    out.reserve(f.feasible.size());
    for (const auto& p : f.feasible)
        out.push_back(make(p));
    canonical_sort(out);
    return out;
}

// The same list from a filter cache's shared first-schedule order: every untargeted cluster keeps its
// place there (score 0, available = estimate), so only the targets are sorted and merged in.
std::vector<candidate> candidates_of(const run& r, const group_filter& f, const std::vector<group_filter::pass>& order,
                                     std::vector<std::int32_t>& memo)
{
    candidate_maker make(r, &memo);
    std::vector<candidate> targets;
    for (const auto& p : f.feasible)
        if (make.targeted(r.snap.name_rank(p.index)))
            targets.push_back(make(p));
    canonical_sort(targets);
    const auto& evicting = r.previous.evicting;
    std::vector<candidate> out;
    out.reserve(f.feasible.size());
    auto next_target = targets.begin();
    for (const auto& p : order) {
        std::uint32_t rank = r.snap.name_rank(p.index);
        if (make.targeted(rank) || std::binary_search(evicting.begin(), evicting.end(), rank))
            continue;
        candidate c = make(p);
        for (; next_target != targets.end() && canonical_before(*next_target, c); ++next_target)
            out.push_back(*next_target);
        out.push_back(c);
    }
    out.insert(out.end(), next_target, targets.end());
    return out;
}

assignment assign(const run& r, const attempt& a, bool overflow, name_order order)
{
    if (!r.workload || !r.w.components.empty()) { // nothing to divide (common.go AssignReplicas)
        assignment out;
        for (const auto& c : a.chosen.clusters)
            out.clusters.push_back({&c, 0});
        return out;
    }
    strategy s = strategy_of(r.placement);
    return overflow ? assign_tiers(a.chosen.clusters, r.placement, s, r.w.replicas, order, r.mode)
                    : assign_strategy(a.chosen.clusters, r.placement, s, r.w.replicas, order, r.mode);
}

attempt try_term(const run& r, const filter_scope& scope)
{
    attempt a;
    filter_cache* cache = r.opts.filters;
    filter_cache::shape* shape = cache != nullptr ? &cache->shape_of(scope) : nullptr;
    auto f = shape != nullptr ? cache->filter(*shape, scope) : filter_group(r.snap, scope);
    if (f.feasible.empty()) {
        if (shape != nullptr && scope.targets.empty() && scope.evicting.empty()) {
            if (!shape->fit_error)
                shape->fit_error.emplace(project_fit_error(r, scope, f), karmada_fit_error(r, scope));
            a.error = shape->fit_error->first;
            a.diagnosis = shape->fit_error->second;
        } else {
            a.error = project_fit_error(r, scope, f);
            a.diagnosis = karmada_fit_error(r, scope);
        }
        return a;
    }
    if (shape != nullptr && r.workload && !r.sets) {
        auto& memo = cache->estimates_for(r.request);
        a.feasible = candidates_of(r, f, cache->first_order(*shape, memo, r.request), memo);
    } else {
        a.feasible = candidates_of(r, f);
    }
    // karmada: common.go SelectClusters — a multi-component job needs one complete set.
    a.chosen = select_clusters(a.feasible, r.placement, strategy_of(r.placement),
                               r.sets ? 1 : r.workload ? r.w.replicas : 0);
    if (!a.chosen.error.empty()) {
        a.stage = a.chosen.empty ? failure_stage::assignment : failure_stage::selection;
        a.error = a.chosen.error;
        return a;
    }
    bool overflow = !scope.group.overflow.empty();
    a.result = assign(r, a, overflow, name_order_for_uid(r.w.uid));
    a.stage = failure_stage::assignment;
    a.error = a.result.error;
    if (a.error.empty() && r.w.uid.empty() && r.opts.detect_ties && r.workload && r.w.components.empty()) {
        a.reversed = assign(r, a, overflow, name_order::descending);
        a.checked_tie = true;
    }
    return a;
}

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

std::string success_message(const decision& d, std::int32_t replicas)
{
    if (d.non_workload)
        return "not a workload: propagated to " + std::to_string(d.clusters.size()) + " cluster(s) without a replica count";
    std::string s = std::to_string(replicas) + " replica(s) on " + std::to_string(d.clusters.size()) + " cluster(s) by " +
                    std::string(strategy_name(d.strategy));
    if (d.strategy == strategy::dynamic_weight || d.strategy == strategy::aggregated)
        s += "; available replicas from the general estimator (resourceSummary and resource models), "
             "not karmada-scheduler-estimator";
    if (d.tie)
        s += "; the split depends on karmada's tie-breaker (the workload has no metadata.uid): it may differ between " +
             join(d.tie_between, " and ");
    return s;
}

void fill(decision& d, const group_scope& term, const attempt& a, const model::workload& w, bool candidate_rows)
{
    d.scheduled = true;
    d.affinity_name = term.name;
    auto tier = [&](int t) { return tier_name(term, t); };
    if (candidate_rows) {
        replicas_by_rank given(a.result);
        d.candidates.reserve(a.feasible.size());
        for (const auto& c : a.feasible)
            d.candidates.push_back({c.cluster->name, given[c.name_rank], tier(c.tier), c.available, {}});
    }
    std::vector<assigned> rows = a.result.clusters;
    std::stable_sort(rows.begin(), rows.end(),
                     [](const assigned& x, const assigned& y) { return canonical_before(*x.target, *y.target); });
    for (const auto& r : rows)
        d.clusters.push_back({r.target->cluster->name, r.replicas, tier(r.target->tier), r.target->available, {}});
    if (a.checked_tie) {
        d.tie_between = tie_clusters(a);
        d.tie = !d.tie_between.empty();
    }
    d.message = success_message(d, w.replicas);
}

// The scheduling groups in spec order: each clusterAffinities term (with its overflow entries for a
// workload), or the single clusterAffinity / none.
std::vector<group_scope> groups_of(const model::placement& placement, bool non_workload)
{
    std::vector<group_scope> out;
    for (const auto& t : placement.cluster_affinities)
        out.push_back({t.affinity_name, &t.cluster_affinity,
                       non_workload ? std::span<const model::overflow_cluster_affinity>{} : t.overflow_affinities});
    if (out.empty())
        out.push_back({"", placement.cluster_affinity ? &*placement.cluster_affinity : nullptr, {}});
    return out;
}

// karmada: helper.go getAffinityIndex — the observed term's position, 0 when unnamed or not found, and
// 0 when RescheduleRequired holds (scheduler.go scheduleResourceBindingWithClusterAffinities).
std::size_t start_index(const model::placement& placement, const previous_result* previous)
{
    if (previous == nullptr || previous->fresh || previous->observed_affinity_name.empty())
        return 0;
    const auto& terms = placement.cluster_affinities;
    for (std::size_t i = 0; i < terms.size(); ++i)
        if (terms[i].affinity_name == previous->observed_affinity_name)
            return i;
    return 0;
}

division_mode mode_of(const previous_result* previous)
{
    if (previous == nullptr)
        return division_mode::first;
    return previous->fresh ? division_mode::fresh : division_mode::steady;
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
                     a.chosen.clusters, assigned ? &a.result : nullptr, ties, r.sets};
    g.considered = explain_group(in);
    return g;
}

// karmada: common.go AssignReplicas with components: every selected cluster gets {name} plus, when multi-
// template scheduling applies and the job has >= 2 components, the components copied in full.
void add_components(decision& d, const model::propagation_spec& spec, const model::workload& w,
                    const settings::feature_gates& gates, bool applicable)
{
    std::vector<std::string> names;
    for (const auto& c : d.clusters)
        names.push_back(c.name);
    auto targets = component_targets(names, w, spec, gates);
    for (std::size_t i = 0; i < d.clusters.size() && i < targets.size(); ++i)
        d.clusters[i].components = targets[i].components;
    d.message = applicable ? "multi-component job (" + std::to_string(w.components.size()) +
                                 " components) kept together on " + (names.empty() ? "-" : names.front()) +
                                 "; available replicas are complete component sets"
                           : "multi-component job sent whole to " + std::to_string(names.size()) +
                                 " cluster(s): multi-template scheduling does not apply (it needs the "
                                 "MultiplePodTemplatesScheduling gate and a cluster spread constraint with "
                                 "minGroups 1 and maxGroups 1)";
}

} // namespace

std::string term_failure::str() const
{
    return affinity_name.empty() ? reason : affinity_name + ": " + reason;
}

decision schedule(const model::propagation_spec& spec, const model::workload& workload,
                  std::span<const model::cluster> clusters, const options& opts)
{
    return schedule(spec, workload, snapshot(clusters), opts);
}

std::string_view plugin_name(filter_plugin p)
{
    switch (p) {
    case filter_plugin::api_enablement: return "APIEnablement";
    case filter_plugin::taint_toleration: return "TaintToleration";
    case filter_plugin::cluster_affinity: return "ClusterAffinity";
    case filter_plugin::spread_constraint: return "SpreadConstraint";
    case filter_plugin::cluster_eviction: return "ClusterEviction";
    }
    return "";
}

decision schedule(const model::propagation_spec& spec, const model::workload& template_workload,
                  const snapshot& clusters, const options& opts, const previous_result* previous)
{
    static const settings::feature_gates binary_defaults;
    const settings::feature_gates& gates = opts.gates != nullptr ? *opts.gates : binary_defaults;
    // What the detector writes into the binding: components only with MultiplePodTemplatesScheduling.
    const model::workload workload = scheduled_form(template_workload, gates);
    const auto& placement = spec.placement;
    decision d;
    d.strategy = strategy_of(placement);
    d.non_workload = !is_workload(workload);
    run r{placement, workload, clusters, opts, effective_tolerations(placement, opts), view_of(previous, clusters),
          prepare_request(workload, clusters.resources()), clusters.api_id(workload.api_version, workload.kind),
          mode_of(previous), !d.non_workload};
    // Component sets through the run's cache when there is one (jobs of one shape share them).
    std::optional<component_set_cache> own_sets;
    std::optional<job_sets> sets;
    if (multi_template_applicable(spec, workload, gates)) {
        auto& cache = opts.filters != nullptr ? opts.filters->component_sets() : own_sets.emplace();
        r.sets = &sets.emplace(cache, clusters.clusters(), workload.components, gates);
    }
    auto groups = groups_of(placement, d.non_workload);
    std::optional<attempt> first;
    for (std::size_t t = start_index(placement, previous); t < groups.size(); ++t) {
        auto scope = r.scope(groups[t]);
        attempt a = try_term(r, scope);
        d.groups.push_back(outcome_of(r, scope, a));
        if (a.error.empty()) {
            fill(d, groups[t], a, workload, opts.candidate_rows);
            if (!workload.components.empty())
                add_components(d, spec, workload, gates, r.sets != nullptr);
            return d;
        }
        d.failures.push_back({groups[t].name, a.error});
        if (!first)
            first = std::move(a);
    }
    d.message = placement.cluster_affinities.empty() ? d.failures.front().reason
                                                     : "no affinity group can host the workload";
    // The first term's error decides (scheduleResourceBindingWithClusterAffinities: firstErr), unwrapped.
    const group_outcome& decided = d.groups.front();
    d.condition_reason = condition_reason(first->stage, first->error);
    d.condition_message = decided.error;
    d.condition_alternatives = decided.diagnosis_alternatives;
    d.keeps_previous = previous != nullptr && first->stage != failure_stage::fit;
    return d;
}

} // namespace kpw::scheduling
