// SPDX-License-Identifier: Apache-2.0
#include "live/workload_queries.hpp"

#include <algorithm>
#include <set>
#include <tuple>

#include "doc/load.hpp"

namespace kpw::live {

namespace {

void add_policy_queries(const doc::value& policy, const std::string& default_namespace,
                        std::vector<workload_query>& out)
{
    const std::string_view kind = policy.string_at("kind");
    const bool namespaced = kind == "PropagationPolicy";
    if (!namespaced && kind != "ClusterPropagationPolicy")
        return;
    std::string policy_namespace;
    if (namespaced) {
        const doc::value* meta = policy.find("metadata");
        policy_namespace = meta != nullptr ? std::string(meta->string_at("namespace")) : std::string();
        if (policy_namespace.empty())
            policy_namespace = default_namespace;
    }
    const doc::value* selectors = policy.find_path({"spec", "resourceSelectors"});
    if (selectors == nullptr)
        return;
    for (const doc::value& s : selectors->items()) {
        workload_query q{std::string(s.string_at("apiVersion")), std::string(s.string_at("kind")),
                         std::string(s.string_at("namespace")), std::string(s.string_at("name"))};
        if (q.api_version.empty() || q.kind.empty())
            continue; // invalid: lint denies the policy, nothing to read for it
        // A PropagationPolicy only ever claims objects of its own namespace.
        if (namespaced)
            q.namespace_ = policy_namespace;
        out.push_back(std::move(q));
    }
}

// Drops the reads another read already covers.
std::vector<workload_query> merge(std::vector<workload_query> all)
{
    using key = std::tuple<std::string, std::string, std::string>;
    std::set<std::pair<std::string, std::string>> every_namespace; // (apiVersion, kind) read everywhere
    std::set<key> whole_namespace;                                  // (apiVersion, kind, ns) read whole
    for (const auto& q : all) {
        if (q.namespace_.empty() && q.name.empty())
            every_namespace.insert({q.api_version, q.kind});
        else if (q.name.empty())
            whole_namespace.insert({q.api_version, q.kind, q.namespace_});
    }
    std::vector<workload_query> out;
    for (auto& q : all) {
        const bool broader_all = every_namespace.contains({q.api_version, q.kind}) && !(q.namespace_.empty() && q.name.empty());
        const bool broader_ns = !q.name.empty() && whole_namespace.contains({q.api_version, q.kind, q.namespace_});
        if (!broader_all && !broader_ns)
            out.push_back(std::move(q));
    }
    std::sort(out.begin(), out.end(), [](const workload_query& a, const workload_query& b) {
        return std::tie(a.api_version, a.kind, a.namespace_, a.name) < std::tie(b.api_version, b.kind, b.namespace_, b.name);
    });
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

} // namespace

std::vector<workload_query> workload_queries(const lint::input_set& policies, const std::string& default_namespace)
{
    std::vector<workload_query> all;
    for (const auto& file : policies.files) {
        auto docs = doc::load_documents(file.text);
        if (!docs)
            continue;
        for (const auto& d : *docs) {
            // `kind: List` (kubectl get -o yaml): its items are the policies.
            const doc::value* items = d.root.find("items");
            if (items != nullptr && items->is_sequence()) {
                for (const auto& item : items->items())
                    add_policy_queries(item, default_namespace, all);
            } else {
                add_policy_queries(d.root, default_namespace, all);
            }
        }
    }
    return merge(std::move(all));
}

} // namespace kpw::live
