// SPDX-License-Identifier: Apache-2.0
#include "simulate/detector.hpp"

#include <algorithm>

#include "scheduling/base_claims.hpp"
#include "scheduling/binding_build.hpp"
#include "scheduling/binding_pairing.hpp"
#include "scheduling/claim.hpp"
#include "scheduling/detector_update.hpp"
#include "scheduling/lazy_binding.hpp"
#include "scheduling/reschedule.hpp"

namespace kpw::simulate {

namespace {

bool is_cluster_policy(const model::policy& p) { return p.kind == model::kind_cluster_propagation_policy; }

// The detector creates a binding only when the one named after the template does not exist.
bool bound(const world& w, const model::workload& wl)
{
    return std::any_of(w.bindings.begin(), w.bindings.end(),
                       [&](const model::binding& b) { return scheduling::is_detector_binding_of(b, wl); });
}

// The world's policies as the detector sees them: views[i] is the view of *policies[i].
struct detector_view {
    std::vector<scheduling::policy_view> views;
    std::vector<const model::policy*> policies;
};

scheduling::policy_view view_of(const model::policy& p)
{
    return {&p.spec, p.metadata.ns, p.metadata.name, is_cluster_policy(p)};
}

detector_view view_of(const world& w, const reconciled_policies& reconciled = {})
{
    detector_view d;
    for (const auto& p : w.policies) {
        d.views.push_back(view_of(p));
        d.views.back().settled = reconciled && !reconciled(p);
        d.policies.push_back(&p);
    }
    return d;
}

// The first binding that records template `wl` (its claim and uid), as lint's binding_inventory::find_for.
const model::binding* recorded_binding(const world& w, const model::workload& wl)
{
    auto it = std::find_if(w.bindings.begin(), w.bindings.end(),
                           [&](const model::binding& x) { return model::refers_to(x.resource, wl); });
    return it == w.bindings.end() ? nullptr : &*it;
}

// explain_claim for template `wl`, with the claim its binding records (sticky) and the preemption gate.
scheduling::claim_explanation explain(const world& w, const detector_view& d, const model::workload& wl,
                                      const settings::feature_gates& gates)
{
    const model::binding* recorded = recorded_binding(w, wl);
    return scheduling::explain_claim(d.views, wl, recorded && recorded->claim ? &*recorded->claim : nullptr,
                                     gates.policy_preemption());
}

model::binding new_binding(const model::workload& wl, const model::policy& p)
{
    model::binding b;
    b.kind = std::string(wl.namespace_.empty() ? model::kind_cluster_resource_binding : model::kind_resource_binding);
    b.namespace_ = wl.namespace_;
    b.name = scheduling::generate_binding_name(wl.kind, wl.name);
    b.generation = 1;
    b.claim = scheduling::claim_of(p);
    b.resource = {wl.api_version, wl.kind, wl.namespace_, wl.name, wl.uid, ""};
    b.replicas = wl.replicas;
    b.has_requirements = wl.has_requirements;
    b.request = wl.request;
    b.node_claim = wl.claim;
    b.components = wl.components;
    return b;
}

// ApplyPolicy claims the template (ClaimPolicyForObject) before it skips a Lazy policy's binding: the claim
// is then on the template only, where explain_claim reads it when no binding carries one. False when the
// template carried that claim already.
bool claim_template(world& w, const model::workload& wl, const model::policy& p)
{
    auto& mine = w.workloads[static_cast<std::size_t>(&wl - w.workloads.data())];
    const auto before = mine.labels;
    scheduling::add_claim_metadata(mine, scheduling::claim_of(p));
    return mine.labels != before;
}

// refresh_binding with the world's detector view at hand and, when known, the claim of the binding's template.
bool refresh(world& w, std::size_t i, const detector_view& d, std::optional<scheduling::claim_explanation> claim,
             const settings::feature_gates& gates, const template_events_of& changes = {})
{
    const model::binding& b = w.bindings[i];
    const model::workload* wl = workload_of_binding(w, b);
    if (wl != nullptr && !claim)
        claim = explain(w, d, *wl, gates);
    const model::binding* recorded = wl ? recorded_binding(w, *wl) : nullptr;
    auto update = scheduling::update_binding(b, wl, wl ? &*claim : nullptr, recorded, d.views, d.policies, gates,
                                             w.workloads, true);
    // The world's bindings are the detector's own: one a Lazy claim leaves alone stays exactly as it is.
    if (wl != nullptr && changes &&
        scheduling::leave_lazily(update, b, *wl, *claim, recorded, d.views, {}, gates, changes(*wl))) {
        claim_template(w, *wl, *d.policies[*claim->policy]);
        return false;
    }
    if (!update.policy || update.refused || update.applied == b)
        return false;
    // The scheduler's update handler skips an update that leaves metadata.generation as it was (a claim
    // written alone): only a spec change reaches its queue.
    const bool spec_changed = update.applied.generation != b.generation;
    w.bindings[i] = std::move(update.applied);
    return spec_changed;
}

} // namespace

std::string policy_label(const model::policy& p)
{
    return p.kind + ' ' + (p.metadata.ns.empty() ? "" : p.metadata.ns + '/') + p.metadata.name;
}

const model::policy* claiming_policy_of(const world& w, const model::binding& b)
{
    if (!b.claim)
        return nullptr;
    for (const auto& p : w.policies)
        if (scheduling::names_policy(*b.claim, view_of(p)))
            return &p;
    return nullptr;
}

void claim_unbound(world& w, const settings::feature_gates& gates, std::vector<std::size_t>& created,
                   std::vector<std::string>& events, const reconciled_policies& reconciled,
                   const template_events_of& changes)
{
    const detector_view d = view_of(w, reconciled);
    for (const auto& wl : w.workloads) {
        if (bound(w, wl))
            continue;
        auto claim = explain(w, d, wl, gates);
        if (!claim.policy)
            continue;
        const model::policy& p = *d.policies[*claim.policy];
        if (changes && !scheduling::first_binding_source(claim, d.views, {}, changes(wl))) {
            if (claim_template(w, wl, p))
                events.push_back(workload_key(wl) + ": claimed by " + policy_label(p) +
                                 ", no binding until a user changes the template (activationPreference: Lazy)");
            continue;
        }
        if (const auto failure = scheduling::binding_build_failure(wl, p.spec, gates, w.workloads)) {
            events.push_back(workload_key(wl) + ": claimed by " + policy_label(p) + ", no binding: " + failure->message);
            continue;
        }
        w.bindings.push_back(new_binding(wl, p));
        w.dispatched.emplace_back();
        created.push_back(w.bindings.size() - 1);
        refresh(w, w.bindings.size() - 1, d, std::move(claim), gates);
        events.push_back(workload_key(wl) + ": claimed by " + policy_label(p) + ", binding " + w.bindings.back().name +
                         " created");
    }
}

bool refresh_binding(world& w, std::size_t i, const settings::feature_gates& gates, const reconciled_policies& reconciled,
                     const template_events_of& changes)
{
    return refresh(w, i, view_of(w, reconciled), std::nullopt, gates, changes);
}

bool none_reconciled(const model::policy&) { return false; }

} // namespace kpw::simulate
