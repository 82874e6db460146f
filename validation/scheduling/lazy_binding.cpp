// SPDX-License-Identifier: Apache-2.0
#include "scheduling/lazy_binding.hpp"

#include "scheduling/binding_pairing.hpp"
#include "scheduling/reschedule.hpp"

namespace kpw::scheduling {

namespace {

// The holder's version the detector last built from, or nullptr.
const model::policy* holder_before(std::optional<std::size_t> holder, const version_before& before)
{
    return holder && before ? before(*holder) : nullptr;
}

} // namespace

bool leave_lazily(binding_update& u, const model::binding& b, const model::workload& w, const claim_explanation& c,
                  const model::binding* recorded, std::span<const policy_view> views, const version_before& before,
                  const settings::feature_gates& gates, const template_events& events)
{
    if (!u.policy || !lazy_skips_binding(c, views, events))
        return false;
    // karmada: pkg/detector/detector.go ApplyPolicy "Skip refresh Binding" (v1.18.2 :463), after
    // ClaimPolicyForObject: the claim goes on the template only.
    const bool written = !(u.applied == b);
    u.policy = view_named(c.holder, views);
    const model::policy* built_from = holder_before(u.policy, before);
    u.applied = built_from == nullptr || !written ? b
                                                  : apply_policy(b, *built_from, &w, live_template_uid(w, recorded), gates);
    u.build_error.reset();
    return true;
}

std::optional<binding_source> first_binding_source(const claim_explanation& c, std::span<const policy_view> views,
                                                   const version_before& before, const template_events& events)
{
    if (!c.policy)
        return std::nullopt;
    if (!lazy_skips_binding(c, views, events))
        return binding_source{*c.policy, views[*c.policy].spec};
    const auto holder = view_named(c.holder, views);
    const model::policy* built_from = holder_before(holder, before);
    if (built_from == nullptr)
        return std::nullopt;
    return binding_source{*holder, &built_from->spec};
}

} // namespace kpw::scheduling
