// SPDX-License-Identifier: Apache-2.0
// The group loop, filtering with reasons, and turning one term's assignment into a decision.
#include "scheduling/simulator.hpp"

#include <algorithm>
#include <map>

#include "field/path.hpp"
#include "scheduling/assign.hpp"
#include "scheduling/estimator.hpp"
#include "scheduling/filter.hpp"
#include "scheduling/select.hpp"

namespace kpw::scheduling {

namespace {

// One scheduling group as scheduleOnce sees it.
struct term_view {
    std::string name;                                 // affinityName; "" for clusterAffinity / none
    const model::cluster_affinity* primary = nullptr; // nullptr: every cluster matches
    std::span<const model::overflow_cluster_affinity> overflow; // empty unless overflow is active
};

struct filtered {
    std::vector<candidate> feasible;
    std::vector<std::string> rejected; // "name: reason" for clusters of the group that failed a filter
};

struct attempt {
    std::string error;
    std::vector<candidate> feasible; // canonical order
    selection chosen;
    assignment result;
    assignment reversed; // with the other name order, when ties are checked
    bool checked_tie = false;
};

// overflowOrder (spec 3.1); -1 when the cluster is not part of the group at all.
int tier_of(const model::cluster& c, const term_view& term)
{
    if (term.primary == nullptr || cluster_matches(c, *term.primary))
        return 0;
    for (std::size_t i = 0; i < term.overflow.size(); ++i)
        if (cluster_matches(c, term.overflow[i].cluster_affinity))
            return static_cast<int>(i) + 1;
    return -1;
}

// Why a cluster of the group fails the other filters; "" when it passes.
std::string filter_reason(const snapshot& snap, std::size_t i, int api, const model::placement& placement,
                          const model::workload& w, std::span<const model::toleration> tolerations)
{
    const auto& c = snap.clusters()[i];
    if (!snap.api_enabled(i, api))
        return "API " + w.api_version + "/" + w.kind + " not enabled";
    if (const model::taint* t = untolerated_taint(c, tolerations))
        return "taint " + taint_string(*t) + " not tolerated";
    if (auto f = missing_spread_field(c, placement.spread_constraints); !f.empty())
        return "no " + std::string(f) + " for the spread constraint";
    return {};
}

filtered filter_clusters(const term_view& term, const model::placement& placement, const model::workload& w,
                         const snapshot& snap, std::span<const model::toleration> tolerations)
{
    filtered out;
    bool workload = is_workload(w);
    auto request = prepare_request(w, snap.resources());
    int api = snap.api_id(w.api_version, w.kind);
    auto clusters = snap.clusters();
    for (std::size_t i = 0; i < clusters.size(); ++i) {
        const auto& c = clusters[i];
        int tier = tier_of(c, term);
        if (tier < 0)
            continue;
        if (c.deleting) {
            out.rejected.push_back(c.name + ": being deleted");
            continue;
        }
        if (auto why = filter_reason(snap, i, api, placement, w, tolerations); !why.empty()) {
            out.rejected.push_back(c.name + ": " + why);
            continue;
        }
        std::int32_t available = workload ? general_estimate(snap.prepared(i), request).replicas : unlimited_replicas;
        out.feasible.push_back({&c, tier, available, snap.name_rank(i)});
    }
    return out;
}

void add_missing_names(const model::cluster_affinity& a, const snapshot& snap, std::vector<std::string>& out)
{
    for (const auto& name : a.cluster_names)
        if (!snap.contains(name))
            out.push_back(name + ": not in the snapshot");
}

// "no cluster passed the filters (a: not in the snapshot, b: taint x:NoSchedule not tolerated)".
std::string fit_error(const term_view& term, std::vector<std::string> details, const snapshot& snap)
{
    if (term.primary != nullptr)
        add_missing_names(*term.primary, snap, details);
    for (const auto& o : term.overflow)
        add_missing_names(o.cluster_affinity, snap, details);
    std::string s = "no cluster passed the filters";
    if (details.empty())
        return s + (snap.clusters().empty() ? " (the snapshot is empty)" : " (no cluster matches the affinity)");
    constexpr std::size_t shown = 5;
    s += " (";
    for (std::size_t i = 0; i < details.size() && i < shown; ++i)
        s += (i ? ", " : "") + details[i];
    if (details.size() > shown)
        s += ", and " + std::to_string(details.size() - shown) + " more";
    return s + ")";
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

assignment assign(const attempt& a, const model::placement& placement, strategy s, const model::workload& w,
                  bool overflow, name_order order)
{
    if (!is_workload(w)) {
        assignment out;
        for (const auto& c : a.chosen.clusters)
            out.clusters.push_back({&c, 0});
        return out;
    }
    return overflow ? assign_tiers(a.chosen.clusters, placement, s, w.replicas, order)
                    : assign_strategy(a.chosen.clusters, placement, s, w.replicas, order);
}

attempt try_term(const term_view& term, const model::placement& placement, const model::workload& w,
                 const snapshot& clusters, const options& opts)
{
    attempt a;
    auto tolerations = effective_tolerations(placement, opts);
    auto f = filter_clusters(term, placement, w, clusters, tolerations);
    if (f.feasible.empty()) {
        a.error = fit_error(term, std::move(f.rejected), clusters);
        return a;
    }
    canonical_sort(f.feasible);
    a.feasible = std::move(f.feasible);
    strategy s = strategy_of(placement);
    a.chosen = select_clusters(a.feasible, placement, s, is_workload(w) ? w.replicas : 0);
    if (!a.chosen.error.empty()) {
        a.error = a.chosen.error;
        return a;
    }
    bool overflow = !term.overflow.empty();
    name_order order = name_order_for_uid(w.uid);
    a.result = assign(a, placement, s, w, overflow, order);
    a.error = a.result.error;
    if (a.error.empty() && w.uid.empty() && opts.detect_ties && is_workload(w)) {
        a.reversed = assign(a, placement, s, w, overflow, name_order::descending);
        a.checked_tie = true;
    }
    return a;
}

std::string tier_name(const term_view& term, int tier)
{
    return tier == 0 ? term.name : term.overflow[static_cast<std::size_t>(tier - 1)].affinity_name;
}

std::map<std::string_view, std::int32_t> replicas_by_name(const assignment& a)
{
    std::map<std::string_view, std::int32_t> out;
    for (const auto& r : a.clusters)
        out[r.target->cluster->name] = r.replicas;
    return out;
}

std::vector<std::string> tie_clusters(const attempt& a)
{
    std::vector<std::string> out;
    auto one = replicas_by_name(a.result), other = replicas_by_name(a.reversed);
    for (const auto& c : a.chosen.clusters) {
        auto x = one.find(c.cluster->name), y = other.find(c.cluster->name);
        if ((x == one.end() ? 0 : x->second) != (y == other.end() ? 0 : y->second))
            out.push_back(c.cluster->name);
    }
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

void fill(decision& d, const term_view& term, const attempt& a, const model::workload& w)
{
    d.scheduled = true;
    d.affinity_name = term.name;
    auto given = replicas_by_name(a.result);
    for (const auto& c : a.feasible) {
        auto it = given.find(c.cluster->name);
        d.candidates.push_back({c.cluster->name, it == given.end() ? 0 : it->second, tier_name(term, c.tier), c.available});
    }
    std::vector<assigned> rows = a.result.clusters;
    std::stable_sort(rows.begin(), rows.end(),
                     [](const assigned& x, const assigned& y) { return canonical_before(*x.target, *y.target); });
    for (const auto& r : rows)
        d.clusters.push_back({r.target->cluster->name, r.replicas, tier_name(term, r.target->tier), r.target->available});
    if (a.checked_tie) {
        d.tie_between = tie_clusters(a);
        d.tie = !d.tie_between.empty();
    }
    d.message = success_message(d, w.replicas);
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

decision schedule(const model::propagation_spec& spec, const model::workload& workload, const snapshot& clusters,
                  const options& opts, const previous_result* /*previous: implemented by the re-schedule path*/)
{
    const auto& placement = spec.placement;
    decision d;
    d.strategy = strategy_of(placement);
    d.non_workload = !is_workload(workload);
    std::vector<term_view> terms;
    for (const auto& t : placement.cluster_affinities) {
        term_view v{t.affinity_name, &t.cluster_affinity, {}};
        if (!d.non_workload)
            v.overflow = t.overflow_affinities;
        terms.push_back(v);
    }
    if (terms.empty())
        terms.push_back({"", placement.cluster_affinity ? &*placement.cluster_affinity : nullptr, {}});
    for (const auto& term : terms) {
        attempt a = try_term(term, placement, workload, clusters, opts);
        if (a.error.empty()) {
            fill(d, term, a, workload);
            return d;
        }
        d.failures.push_back({term.name, a.error});
    }
    d.message = placement.cluster_affinities.empty() ? d.failures.front().reason
                                                     : "no affinity group can host the workload";
    return d;
}

std::vector<unmatched_affinity> unmatched_terms(const model::propagation_spec& spec,
                                                std::span<const model::cluster> clusters)
{
    return unmatched_terms(spec, snapshot(clusters));
}

std::vector<unmatched_affinity> unmatched_terms(const model::propagation_spec& spec, const snapshot& snap)
{
    std::vector<unmatched_affinity> out;
    auto clusters = snap.clusters();
    auto check = [&](const model::cluster_affinity& a, const std::string& name, std::string field) {
        bool any = std::any_of(clusters.begin(), clusters.end(), [&](const model::cluster& c) { return cluster_matches(c, a); });
        if (any)
            return;
        std::vector<std::string> missing;
        add_missing_names(a, snap, missing);
        std::string what = name.empty() ? "clusterAffinity" : "affinity group " + name;
        std::string msg = what + " matches no cluster of the snapshot";
        if (!missing.empty())
            msg += " (" + join(missing, ", ") + ")";
        out.push_back({name, std::move(field), std::move(msg)});
    };
    const auto& p = spec.placement;
    auto base = field::path::root("spec").child("placement");
    if (p.cluster_affinity)
        check(*p.cluster_affinity, "", base.child("clusterAffinity").str());
    for (std::size_t i = 0; i < p.cluster_affinities.size(); ++i) {
        const auto& t = p.cluster_affinities[i];
        auto at = base.child("clusterAffinities").index(i);
        check(t.cluster_affinity, t.affinity_name, at.str());
        for (std::size_t j = 0; j < t.overflow_affinities.size(); ++j)
            check(t.overflow_affinities[j].cluster_affinity, t.overflow_affinities[j].affinity_name,
                  at.child("overflowAffinities").index(j).str());
    }
    return out;
}

} // namespace kpw::scheduling
