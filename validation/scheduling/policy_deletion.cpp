// SPDX-License-Identifier: Apache-2.0
#include "scheduling/policy_deletion.hpp"

#include <algorithm>
#include <map>

#include "model/binding_decode.hpp"
#include "scheduling/binding_pairing.hpp"
#include "scheduling/claim.hpp"

namespace kpw::scheduling {

namespace {

bool is_cluster_policy(const model::policy& p) { return p.kind == model::kind_cluster_propagation_policy; }

// claim.go: the claim labels and annotations of a PP, or of a CPP.
template <class Map>
void erase_claim_keys(Map& labels, Map& annotations, bool cluster_policy)
{
    if (cluster_policy) {
        labels.erase(std::string(model::cpp_permanent_id_label));
        annotations.erase(std::string(model::cpp_name_annotation));
    } else {
        labels.erase(std::string(model::pp_permanent_id_label));
        annotations.erase(std::string(model::pp_namespace_annotation));
        annotations.erase(std::string(model::pp_name_annotation));
    }
}

} // namespace

bool is_claim_of(const model::policy& p, const model::policy_claim& claim)
{
    const bool cpp = is_cluster_policy(p);
    if (claim.cluster_policy != cpp)
        return false;
    const auto& labels = p.metadata.labels;
    if (auto id = labels.find(std::string(cpp ? model::cpp_permanent_id_label : model::pp_permanent_id_label));
        id != labels.end())
        return claim.permanent_id == id->second;
    return claim.name == p.metadata.name && (cpp || claim.namespace_ == p.metadata.ns);
}

bool deletion_reaches(const model::policy& p, const model::workload& w)
{
    return std::any_of(p.spec.resource_selectors.begin(), p.spec.resource_selectors.end(), [&](const auto& s) {
        return s.api_version == w.api_version && s.kind == w.kind && (s.ns.empty() || s.ns == w.namespace_);
    });
}

void remove_claim_metadata(model::workload& w, bool cluster_policy)
{
    erase_claim_keys(w.labels, w.annotations, cluster_policy);
}

void remove_claim_metadata(model::binding& b, bool cluster_policy)
{
    erase_claim_keys(b.labels, b.annotations, cluster_policy);
    if (b.claim && b.claim->cluster_policy == cluster_policy)
        b.claim = model::decode_claim(b.labels, b.annotations);
}

std::vector<released_template> delete_policies(std::span<const model::policy> deleted,
                                               std::vector<model::workload>& workloads,
                                               std::vector<model::binding>& bindings)
{
    std::vector<released_template> out;
    if (deleted.empty())
        return out;
    std::map<binding_key, std::vector<std::size_t>> by_key; // the bindings by their name: one lookup a template
    for (std::size_t k = 0; k < bindings.size(); ++k)
        by_key[key_of(bindings[k])].push_back(k);
    for (std::size_t i = 0; i < workloads.size(); ++i) {
        model::workload& w = workloads[i];
        for (const auto& p : deleted) {
            if (!deletion_reaches(p, w))
                continue;
            const bool cpp = is_cluster_policy(p);
            std::optional<model::policy_claim> lost;
            bool binding = false;
            if (auto named = by_key.find(detector_binding_key(w)); named != by_key.end())
                for (std::size_t k : named->second)
                    if (auto& b = bindings[k]; b.claim && is_claim_of(p, *b.claim)) {
                        lost = *b.claim;
                        binding = true;
                        remove_claim_metadata(b, cpp);
                    }
            if (auto recorded = recorded_claim(w); recorded && is_claim_of(p, *recorded)) {
                lost = std::move(recorded);
                remove_claim_metadata(w, cpp);
            }
            if (lost)
                out.push_back({i, std::move(*lost), binding});
        }
    }
    return out;
}

} // namespace kpw::scheduling
