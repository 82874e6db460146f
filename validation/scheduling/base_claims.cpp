// SPDX-License-Identifier: Apache-2.0
#include "scheduling/base_claims.hpp"

#include "model/binding_decode.hpp"
#include "scheduling/binding_build.hpp"
#include "scheduling/binding_pairing.hpp"
#include "scheduling/reschedule.hpp"

namespace kpw::scheduling {

namespace {

template <class Map>
void write_claim_keys(Map& labels, Map& annotations, const model::policy_claim& c)
{
    if (c.cluster_policy) {
        labels[std::string(model::cpp_permanent_id_label)] = c.permanent_id;
        annotations[std::string(model::cpp_name_annotation)] = c.name;
    } else {
        labels[std::string(model::pp_permanent_id_label)] = c.permanent_id;
        annotations[std::string(model::pp_namespace_annotation)] = c.namespace_;
        annotations[std::string(model::pp_name_annotation)] = c.name;
    }
}

// BuildResourceBinding's spec.resource for template `w`, the resourceVersion `b` had (lint reads none).
model::object_reference record_of(const model::workload& w, const model::binding& b)
{
    if (model::refers_to(b.resource, w))
        return b.resource;
    return {w.api_version, w.kind, w.namespace_, w.name, w.uid, b.resource.resource_version};
}

} // namespace

void add_claim_metadata(model::workload& w, const model::policy_claim& claim)
{
    write_claim_keys(w.labels, w.annotations, claim);
}

void add_claim_metadata(model::binding& b, const model::policy_claim& claim)
{
    write_claim_keys(b.labels, b.annotations, claim);
    b.claim = model::decode_claim(b.labels, b.annotations);
}

std::vector<std::size_t> claim_unclaimed(std::span<const policy_view> views,
                                         std::span<const model::policy* const> policies,
                                         std::vector<model::workload>& workloads,
                                         std::vector<model::binding>& bindings,
                                         std::span<const std::optional<model::policy_claim>> known,
                                         const settings::feature_gates& gates)
{
    std::vector<std::size_t> out;
    for (std::size_t i = 0; i < workloads.size(); ++i) {
        model::workload& w = workloads[i];
        if ((i < known.size() && known[i]) || recorded_claim(w))
            continue;
        if (auto by = w.labels.find(claimed_by_label); by != w.labels.end() && !by->second.empty())
            continue; // detector.go Reconcile: another controller's template
        const auto winner = claiming_policy(views, w);
        if (!winner)
            continue;
        const model::policy_claim claim = claim_of(*policies[*winner]);
        add_claim_metadata(w, claim);
        // ApplyPolicy claims the template first, then writes the binding: not one another object controls
        // (detector.go: "failed to update binding due to different owner reference UID", karmada#2090), nor
        // one of a template the interpreter fails on (BuildResourceBinding returns the error).
        if (binding_build_failure(w, policies[*winner]->spec, gates, workloads)) {
            out.push_back(i);
            continue;
        }
        // It finds the binding by name and writes the claim and spec.resource (BuildResourceBinding's) into it:
        // a binding named after the template that records another object records this one from then on.
        // ApplyPolicy merges labels and annotations, so the claim keys of a policy of the same kind are
        // overwritten; a binding that carries the other kind's keys (a ClusterPropagationPolicy's beside a
        // PropagationPolicy's) would keep both, which lint does not model: it is left as it is.
        for (auto& b : bindings)
            if ((!b.claim || b.claim->cluster_policy == claim.cluster_policy) && key_of(b) == detector_binding_key(w) &&
                detector_may_update(b, live_template_uid(w, model::refers_to(b.resource, w) ? &b : nullptr))) {
                add_claim_metadata(b, claim);
                b.resource = record_of(w, b);
            }
        out.push_back(i);
    }
    return out;
}

} // namespace kpw::scheduling
