// SPDX-License-Identifier: Apache-2.0
// Affinities that match no cluster of the snapshot, whatever the workload (a lint warning's input).
#include <algorithm>

#include "field/path.hpp"
#include "scheduling/filter.hpp"
#include "scheduling/filter_stage.hpp"
#include "scheduling/simulator.hpp"

namespace kpw::scheduling {

namespace {

std::string joined(const std::vector<std::string>& items)
{
    std::string s;
    for (const auto& n : items)
        s.append(s.empty() ? "" : ", ").append(n);
    return s;
}

} // namespace

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
            msg += " (" + joined(missing) + ")";
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
