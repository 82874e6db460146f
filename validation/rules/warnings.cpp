// SPDX-License-Identifier: Apache-2.0
// Findings that never deny: valid policies that are almost certainly not what was meant (rules/catalogue.hpp).
#include "rules/rules.hpp"

#include <algorithm>
#include <map>

namespace kpw::rules {
namespace {

bool contains(const std::vector<std::string>& list, std::string_view s)
{
    return std::find(list.begin(), list.end(), s) != list.end();
}

struct warner {
    field::warning_list& out;
    void add(std::string_view id, const field::path& at, std::string message)
    {
        out.push_back({std::string(id), at.str(), std::move(message)});
    }

    // purge-mode-deprecated: the CRD still admits the old names of Directly and Gracefully.
    void purge_mode(std::string_view mode, const field::path& at)
    {
        const std::string_view now = mode == model::purge_mode_immediately  ? model::purge_mode_directly
                                     : mode == model::purge_mode_graciously ? model::purge_mode_gracefully
                                                                            : std::string_view();
        if (!now.empty())
            add("purge-mode-deprecated", at,
                field::go_quote(mode) + " is deprecated, use " + field::go_quote(now) + " (the same behaviour)");
    }

    // cluster-included-and-excluded
    void affinity(const model::cluster_affinity& a, const field::path& at)
    {
        for (std::size_t k = 0; k < a.exclude.size(); ++k)
            if (contains(a.cluster_names, a.exclude[k]))
                add("cluster-included-and-excluded", at.child("exclude").index(k),
                    "cluster " + field::go_quote(a.exclude[k]) + " is also in clusterNames; exclude wins");
    }

    // overflow-cluster-repeated: tier 0 is the primary; a cluster belongs to the first tier naming it.
    void tiers(const model::cluster_affinity_term& term, const field::path& at)
    {
        std::map<std::string_view, std::string_view> owner; // cluster -> tier name
        for (const auto& c : term.cluster_affinity.cluster_names)
            owner.emplace(c, term.affinity_name);
        for (std::size_t j = 0; j < term.overflow_affinities.size(); ++j) {
            const auto& tier = term.overflow_affinities[j];
            const auto& names = tier.cluster_affinity.cluster_names;
            for (std::size_t k = 0; k < names.size(); ++k) {
                auto [it, fresh] = owner.emplace(names[k], tier.affinity_name);
                if (!fresh && it->second != tier.affinity_name)
                    add("overflow-cluster-repeated",
                        at.child("overflowAffinities").index(j).child("clusterNames").index(k),
                        "cluster " + field::go_quote(names[k]) + " already belongs to tier " +
                            field::go_quote(it->second) + "; this entry has no effect");
            }
        }
    }

    void terms(const std::vector<model::cluster_affinity_term>& terms, const field::path& at);
    void weights(const model::placement& p, const field::path& at);
    void tolerations(const std::vector<model::toleration>& list, const field::path& at);
    void selectors(const std::vector<model::resource_selector>& list, const field::path& at);
};

// Same inline affinity and same overflow affinities (names aside): the same candidate clusters.
bool same_selection(const model::cluster_affinity_term& a, const model::cluster_affinity_term& b)
{
    if (a.cluster_affinity != b.cluster_affinity || a.overflow_affinities.size() != b.overflow_affinities.size())
        return false;
    for (std::size_t j = 0; j < a.overflow_affinities.size(); ++j)
        if (a.overflow_affinities[j].cluster_affinity != b.overflow_affinities[j].cluster_affinity)
            return false;
    return true;
}

void warner::terms(const std::vector<model::cluster_affinity_term>& list, const field::path& at)
{
    for (std::size_t i = 0; i < list.size(); ++i) {
        const field::path term = at.index(i);
        affinity(list[i].cluster_affinity, term);
        for (std::size_t j = 0; j < list[i].overflow_affinities.size(); ++j)
            affinity(list[i].overflow_affinities[j].cluster_affinity, term.child("overflowAffinities").index(j));
        tiers(list[i], term);
        for (std::size_t e = 0; e < i; ++e) {
            if (!same_selection(list[e], list[i]))
                continue;
            add("unreachable-affinity-term", term,
                "selects the same clusters as term " + field::go_quote(list[e].affinity_name) +
                    ", which is tried first; this term can never be chosen");
            break;
        }
    }
}

void warner::weights(const model::placement& p, const field::path& at)
{
    if (!p.replica_scheduling || !p.replica_scheduling->weight_preference)
        return;
    const auto& rs = *p.replica_scheduling;
    const auto& wp = *rs.weight_preference;
    const field::path wp_path = at.child("replicaScheduling").child("weightPreference");
    if (rs.replica_scheduling_type != model::replica_scheduling_divided ||
        rs.replica_division_preference != model::division_preference_weighted)
        add("weight-preference-ignored", wp_path, "has no effect without Divided scheduling and Weighted preference");
    if (!wp.dynamic_weight.empty() && !wp.static_weight_list.empty())
        add("static-weights-ignored", wp_path.child("staticWeightList"), "ignored because dynamicWeight is set");
    // Only an explicit list is certain: selectors may match clusters this linter does not know.
    const auto& ca = p.cluster_affinity;
    if (!ca || ca->cluster_names.empty() || ca->label_selector || ca->field_selector)
        return;
    for (std::size_t k = 0; k < wp.static_weight_list.size(); ++k) {
        const auto& names = wp.static_weight_list[k].target_cluster.cluster_names;
        for (std::size_t m = 0; m < names.size(); ++m)
            if (!contains(ca->cluster_names, names[m]) || contains(ca->exclude, names[m]))
                add("static-weight-cluster-unselected",
                    wp_path.child("staticWeightList").index(k).child("targetCluster").child("clusterNames").index(m),
                    "cluster " + field::go_quote(names[m]) + " is not selected by clusterAffinity; this weight never applies");
    }
}

void warner::tolerations(const std::vector<model::toleration>& list, const field::path& at)
{
    for (std::size_t i = 0; i < list.size(); ++i) {
        const auto& t = list[i];
        if (t.toleration_seconds && t.effect != "NoExecute")
            add("toleration-seconds-ignored", at.index(i).child("tolerationSeconds"),
                "only applies to effect NoExecute; it is ignored here");
        if (t.op == "Exists" && !t.value.empty())
            add("toleration-value-ignored", at.index(i).child("value"), "operator Exists matches any value");
    }
}

void warner::selectors(const std::vector<model::resource_selector>& list, const field::path& at)
{
    for (std::size_t i = 0; i < list.size(); ++i)
        if (!list[i].name.empty() && list[i].label_selector)
            add("selector-label-ignored", at.index(i).child("labelSelector"),
                "ignored because name is set; the selector matches by name only");
}

} // namespace

field::warning_list spec_warnings(const model::propagation_spec& spec)
{
    field::warning_list out;
    warner w{out};
    const field::path spec_path = field::path::root("spec");
    const field::path at = spec_path.child("placement");
    const auto& p = spec.placement;
    if (p.cluster_affinity)
        w.affinity(*p.cluster_affinity, at.child("clusterAffinity"));
    w.terms(p.cluster_affinities, at.child("clusterAffinities"));
    w.weights(p, at);
    w.tolerations(p.cluster_tolerations, at.child("clusterTolerations"));
    w.selectors(spec.resource_selectors, spec_path.child("resourceSelectors"));
    if (spec.failover && spec.failover->application)
        w.purge_mode(spec.failover->application->purge_mode,
                     spec_path.child("failover").child("application").child("purgeMode"));
    return out;
}

} // namespace kpw::rules
