// SPDX-License-Identifier: Apache-2.0
#include "model/release_fields.hpp"

#include "model/binding_decode.hpp"
#include "model/encode.hpp"

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

void as_stored_by(binding& b, settings::karmada_release release)
{
    if (b.placement)
        drop_fields_of_later_releases(*b.placement, release);
    auto applied = decode_applied_placement(b);
    if (!applied || !*applied)
        return; // absent, or not JSON: the scheduler reads it as it is (placementChanged)
    if (drop_fields_of_later_releases(**applied, release))
        b.annotations[std::string(applied_placement_annotation)] = go_json(**applied);
}

} // namespace kpw::model
