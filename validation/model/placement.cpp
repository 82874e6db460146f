// SPDX-License-Identifier: Apache-2.0
// Placement values compared as apimachinery's equality.Semantic compares them.
#include "model/placement.hpp"

namespace kpw::model {

namespace {

template <class C>
void forget(go_collection<C>& c)
{
    c.explicitly_empty = false;
}

void forget(label_selector& s)
{
    forget(s.match_labels);
    forget(s.match_expressions);
    for (auto& e : s.match_expressions)
        forget(e.values);
}

void forget(cluster_affinity& a)
{
    if (a.label_selector)
        forget(*a.label_selector);
    if (a.field_selector) {
        forget(a.field_selector->match_expressions);
        for (auto& e : a.field_selector->match_expressions)
            forget(e.values);
    }
    forget(a.cluster_names);
    forget(a.exclude);
}

} // namespace

placement without_explicit_empties(placement p)
{
    if (p.cluster_affinity)
        forget(*p.cluster_affinity);
    forget(p.cluster_affinities);
    for (auto& term : p.cluster_affinities) {
        forget(term.cluster_affinity);
        forget(term.overflow_affinities);
        for (auto& tier : term.overflow_affinities)
            forget(tier.cluster_affinity);
    }
    forget(p.cluster_tolerations);
    forget(p.spread_constraints);
    if (p.replica_scheduling && p.replica_scheduling->weight_preference) {
        auto& prefs = *p.replica_scheduling->weight_preference;
        forget(prefs.static_weight_list);
        for (auto& w : prefs.static_weight_list)
            forget(w.target_cluster);
    }
    return p;
}

bool semantically_equal(const std::optional<placement>& a, const std::optional<placement>& b)
{
    if (!a || !b)
        return a.has_value() == b.has_value();
    return without_explicit_empties(*a) == without_explicit_empties(*b);
}

} // namespace kpw::model
