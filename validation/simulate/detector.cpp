// SPDX-License-Identifier: Apache-2.0
#include "simulate/detector.hpp"

#include <algorithm>

#include "scheduling/binding_pairing.hpp"
#include "scheduling/claim.hpp"
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
    b.components = wl.components;
    return b;
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
        if (is_cluster_policy(p) == b.claim->cluster_policy && p.metadata.name == b.claim->name &&
            (b.claim->cluster_policy || p.metadata.ns == b.claim->namespace_))
            return &p;
    return nullptr;
}

void claim_unbound(world& w, const settings::feature_gates& gates, std::vector<std::size_t>& created,
                   std::vector<std::string>& events)
{
    std::vector<scheduling::policy_view> views;
    for (const auto& p : w.policies)
        views.push_back({&p.spec, p.metadata.ns, p.metadata.name, is_cluster_policy(p)});
    for (const auto& wl : w.workloads) {
        if (bound(w, wl))
            continue;
        auto claim = scheduling::claiming_policy(views, wl);
        if (!claim)
            continue;
        const model::policy& p = w.policies[*claim];
        w.bindings.push_back(new_binding(wl, p));
        w.dispatched.emplace_back();
        created.push_back(w.bindings.size() - 1);
        refresh_binding(w, w.bindings.size() - 1, gates);
        events.push_back(workload_key(wl) + ": claimed by " + policy_label(p) + ", binding " + w.bindings.back().name +
                         " created");
    }
}

bool refresh_binding(world& w, std::size_t i, const settings::feature_gates& gates)
{
    model::binding& b = w.bindings[i];
    const model::policy* p = claiming_policy_of(w, b);
    if (p == nullptr)
        return false;
    const model::workload* wl = workload_of_binding(w, b);
    std::string live_uid;
    if (wl != nullptr) {
        auto recorded = std::find_if(w.bindings.begin(), w.bindings.end(),
                                     [&](const model::binding& x) { return model::refers_to(x.resource, *wl); });
        live_uid = scheduling::live_template_uid(*wl, recorded == w.bindings.end() ? nullptr : &*recorded);
        if (!scheduling::detector_may_update(b, live_uid))
            return false; // another object controls it (karmada#2090): the detector leaves it alone
    }
    model::binding updated = scheduling::apply_policy(b, *p, wl, live_uid, gates);
    if (updated == b)
        return false;
    ++updated.generation;
    b = std::move(updated);
    return true;
}

} // namespace kpw::simulate
