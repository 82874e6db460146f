// SPDX-License-Identifier: Apache-2.0
// What the detector leaves when a Lazy claim keeps a change from a template's binding (lazy_activation.hpp):
// the binding as the holder's earlier version left it, or no binding at all. lint's dry run and simulate's
// steps take the detector's pass through this one place after update_binding.
#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <span>

#include "model/binding.hpp"
#include "model/policy.hpp"
#include "model/workload.hpp"
#include "scheduling/claim.hpp"
#include "scheduling/detector_update.hpp"
#include "scheduling/lazy_activation.hpp"
#include "settings/feature_gates.hpp"

namespace kpw::scheduling {

// The version of view `v`'s policy that the detector last built the template's binding from (the side
// before the change; nullptr: the change created the policy). Empty: the bindings given are the ones the
// detector itself wrote last (simulate's world), so one left alone stays exactly as it is, and a template
// without one stays without.
using version_before = std::function<const model::policy*(std::size_t view)>;

// `u` is update_binding's answer for binding `b` of template `w` (claim `c`, `recorded` the binding that
// records the template). When lazy_skips_binding (under `events`), ApplyPolicy claims the template and returns
// before BuildResourceBinding: nothing fails and nothing is written. `u` then becomes that: the binding keeps
// its claim (the policy its holder names), and stays as the holder's version before the change left it where
// the detector would write it at all (the detector built it from that one); an unclaimed one stays unclaimed.
// False (`u` untouched) when the change reaches the binding.
bool leave_lazily(binding_update& u, const model::binding& b, const model::workload& w, const claim_explanation& c,
                  const model::binding* recorded, std::span<const policy_view> views, const version_before& before,
                  const settings::feature_gates& gates, const template_events& events);

// Where the first binding of template `w`, which has none and which claim `c` gives a policy, comes from:
// the claiming policy's view and spec. When lazy_skips_binding (under `events`), the change does not reach
// the binding: the side before it had the template claimed by its holder, whose detector built the binding
// from the holder's version then (its initial list reconciles every template without
// ResourceChangeByKarmada); a template nothing held has none until a user's change (nullopt).
struct binding_source {
    std::size_t view = 0;
    const model::propagation_spec* spec = nullptr;
};
std::optional<binding_source> first_binding_source(const claim_explanation& c, std::span<const policy_view> views,
                                                   const version_before& before, const template_events& events);

} // namespace kpw::scheduling
