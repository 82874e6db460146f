// SPDX-License-Identifier: Apache-2.0
// release_fields: what a Karmada release's API server keeps of a placement its CRDs do not fully define.
#pragma once

#include "model/binding.hpp"
#include "settings/karmada_release.hpp"

namespace kpw::model {

// Drops what the release's CRD does not define (overflow tiers before v1.18.0, workloadAffinity before
// v1.17.0), as kube-apiserver prunes it on every write; true when something was dropped.
bool drop_fields_of_later_releases(placement& p, settings::karmada_release release);

// A binding as the release stores and reads it: spec.placement pruned by the ResourceBinding CRD, and the
// applied-placement annotation as karmada-scheduler's Go types decode it (they have no such fields either;
// the annotation is rewritten only when a field was dropped, so an unchanged one keeps its exact text).
void as_stored_by(binding& b, settings::karmada_release release);

} // namespace kpw::model
