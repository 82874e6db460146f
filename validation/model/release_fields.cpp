// SPDX-License-Identifier: Apache-2.0
#include "model/release_fields.hpp"

#include <vector>

#include "doc/load.hpp"
#include "model/go_names.hpp"

namespace kpw::model {

bool drop_fields_of_later_releases(placement& p, settings::karmada_release release)
{
    bool dropped = false;
    if (!settings::has(release, settings::changes::overflow_affinities))
        for (auto& term : p.cluster_affinities) {
            dropped = dropped || !term.overflow_affinities.empty() || term.overflow_affinities.explicitly_empty;
            term.overflow_affinities = {};
        }
    if (!settings::has(release, settings::changes::workload_affinity) && p.workload_affinity) {
        p.workload_affinity.reset();
        dropped = true;
    }
    return dropped;
}

namespace {

bool erase_field(doc::value& object, std::string_view field)
{
    return std::erase_if(object.members(), [&](const doc::value::member& m) { return json_names_field(m.first, field); }) > 0;
}

} // namespace

void as_stored_by(binding& b, settings::karmada_release release)
{
    if (b.placement)
        drop_fields_of_later_releases(*b.placement, release);
    // The annotation is a string the API server keeps whole; the release's scheduler unmarshals it into its
    // own Placement, which has no member for a later release's field. Those members go; the rest stays as
    // written (re-encoding the decoded placement would turn an explicit `[]` into an absent list, which
    // placementChanged's reflect.DeepEqual tells apart).
    auto it = b.annotations.find(std::string(applied_placement_annotation));
    if (it == b.annotations.end() || it->second.empty())
        return;
    auto json = doc::parse_json(it->second);
    if (!json || !json->is_mapping())
        return; // not a JSON object: the scheduler reads it as it is (placementChanged)
    bool dropped = false;
    if (!settings::has(release, settings::changes::overflow_affinities))
        for (auto& [name, terms] : json->members())
            if (json_names_field(name, "clusterAffinities"))
                for (auto& term : terms.items())
                    dropped = erase_field(term, "overflowAffinities") || dropped;
    if (!settings::has(release, settings::changes::workload_affinity))
        dropped = erase_field(*json, "workloadAffinity") || dropped;
    if (dropped)
        it->second = doc::to_json(*json);
}

} // namespace kpw::model
