// SPDX-License-Identifier: Apache-2.0
// Why no cluster passed a group's filters: the project's line and Karmada's FitError.
#include "scheduling/simulator_run.hpp"

#include <cstdint>
#include <map>
#include <tuple>
#include <utility>

namespace kpw::scheduling::detail {

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

} // namespace kpw::scheduling::detail
