// SPDX-License-Identifier: Apache-2.0
#include "plan/policy_set.hpp"

#include "doc/load.hpp"
#include "lint/kubectl_reader.hpp"
#include "lint/lint.hpp"
#include "scheduling/policy_update.hpp"

namespace kpw::plan {

namespace {

// kubectl apply's record of what it last applied (corev1.LastAppliedConfigAnnotation).
constexpr std::string_view last_applied_annotation = "kubectl.kubernetes.io/last-applied-configuration";

bool is_policy(std::string_view kind) { return kind == "PropagationPolicy" || kind == "ClusterPropagationPolicy"; }

policy_key key_of(const doc::value& object, const std::string& default_namespace)
{
    policy_key key{std::string(object.string_at("kind")), {}, {}};
    if (const doc::value* meta = object.find("metadata")) {
        key.name = std::string(meta->string_at("name"));
        if (key.kind == "PropagationPolicy")
            key.namespace_ = std::string(meta->string_at("namespace"));
    }
    if (key.kind == "PropagationPolicy" && key.namespace_.empty())
        key.namespace_ = default_namespace;
    return key;
}

// Calls `take` with every top-level object of the file: a List's items, or the document itself.
template <class F>
void for_each_object(const lint::input_file& file, F&& take)
{
    auto docs = doc::load_documents(file.text);
    if (!docs)
        return;
    for (const auto& d : *docs) {
        if (const doc::value* items = doc::list_items(d.root))
            for (const auto& item : items->items())
                take(item);
        else
            take(d.root);
    }
}

} // namespace

std::set<policy_key> policy_keys(const lint::input_set& inputs, const std::string& default_namespace,
                                 bool enforce_namespace)
{
    std::set<policy_key> keys;
    for (const auto& file : inputs.files)
        for_each_object(file, [&](const doc::value& object) {
            if (!is_policy(object.string_at("kind")))
                return;
            if (enforce_namespace && !file.from_server && lint::namespace_refusal(object, file.name, default_namespace))
                return; // kubectl apply -n refuses it: nothing of it is applied
            keys.insert(key_of(object, default_namespace));
        });
    return keys;
}

std::vector<model::policy> admitted_policies(const lint::report& r, const std::vector<lint::typed_policy>& admitted,
                                             const std::set<policy_key>& keys)
{
    std::vector<model::policy> out;
    for (const auto& t : admitted)
        if (keys.contains(key_of(r.results[t.result])))
            out.push_back(t.policy);
    return out;
}

std::map<policy_key, model::policy> stored_policies(const lint::report& r, const std::vector<lint::typed_policy>& admitted)
{
    std::map<policy_key, model::policy> out;
    for (const auto& t : admitted)
        out.emplace(key_of(r.results[t.result]), t.policy);
    return out;
}

std::set<policy_key> refused_keys(const lint::report& validated)
{
    std::set<policy_key> denied, admitted;
    for (const auto& result : validated.results)
        (result.allowed ? admitted : denied).insert(key_of(result));
    for (const auto& k : admitted)
        denied.erase(k);
    return denied;
}

std::vector<lint::standing_policy> standing_policies(const lint::report& r,
                                                     const std::vector<lint::typed_policy>& admitted,
                                                     const std::set<policy_key>& keys)
{
    std::vector<lint::standing_policy> out;
    for (const auto& t : admitted)
        if (const lint::policy_result& result = r.results[t.result]; keys.contains(key_of(result)))
            out.push_back({t.policy, result.namespace_name});
    return out;
}

namespace {

// `admitted` by key, and the one of them a policy of the change updates (nullptr: it creates one).
class versions_before {
public:
    versions_before(const lint::report& r, const std::vector<lint::typed_policy>& admitted)
    {
        for (const auto& t : admitted)
            by_key_.emplace(key_of(r.results[t.result]), &t);
    }
    const lint::typed_policy* of(const model::policy& p) const
    {
        const bool namespaced = p.kind == model::kind_propagation_policy;
        auto it = by_key_.find({p.kind, namespaced ? p.metadata.ns : std::string(), p.metadata.name});
        return it == by_key_.end() ? nullptr : it->second;
    }

private:
    std::map<policy_key, const lint::typed_policy*> by_key_;
};

} // namespace

std::function<bool(const lint::typed_policy&)> unchanged_from(const lint::report& r,
                                                              const std::vector<lint::typed_policy>& admitted,
                                                              settings::karmada_release release, bool applied)
{
    return [before = versions_before(r, admitted), release, applied](const lint::typed_policy& t) {
        const lint::typed_policy* old = before.of(t.policy);
        return old != nullptr && !scheduling::reconciled_on_update(old->policy, t.policy, release,
                                                                   applied ? &old->object : nullptr,
                                                                   applied ? &t.object : nullptr);
    };
}

std::function<const model::policy*(const lint::typed_policy&)> base_version_from(
    const lint::report& r, const std::vector<lint::typed_policy>& admitted)
{
    return [before = versions_before(r, admitted)](const lint::typed_policy& t) -> const model::policy* {
        const lint::typed_policy* old = before.of(t.policy);
        return old == nullptr ? nullptr : &old->policy;
    };
}

std::set<policy_key> last_applied_keys(const lint::input_set& inputs, const std::string& default_namespace)
{
    std::set<policy_key> keys;
    for (const auto& file : inputs.files)
        for_each_object(file, [&](const doc::value& object) {
            const doc::value* annotations = object.find_path({"metadata", "annotations"});
            // kubectl checks that the key is there (prune.go: `if _, ok := annots[...]; !ok`), whatever its value.
            if (is_policy(object.string_at("kind")) && annotations && annotations->find(last_applied_annotation))
                keys.insert(key_of(object, default_namespace));
        });
    return keys;
}

prune_outcome pruned_keys(const std::set<policy_key>& server, const std::set<policy_key>& last_applied,
                          const std::set<policy_key>& applied, const std::string& enforced_namespace)
{
    std::set<std::string> namespaces;
    if (!enforced_namespace.empty())
        namespaces.insert(enforced_namespace);
    for (const auto& k : applied)
        if (k.kind == "PropagationPolicy")
            namespaces.insert(k.namespace_);
    prune_outcome out;
    for (const auto& k : server) {
        const bool in_scope = k.kind != "PropagationPolicy" || namespaces.contains(k.namespace_);
        if (!in_scope || applied.contains(k))
            continue;
        (last_applied.contains(k) ? out.deleted : out.not_applied).insert(k);
    }
    return out;
}

lint::input_set without(const lint::input_set& server, const std::set<policy_key>& drop)
{
    lint::input_set out;
    out.errors = server.errors;
    for (const auto& file : server.files) {
        auto docs = doc::load_documents(file.text);
        if (!docs || docs->size() != 1) {
            out.files.push_back(file); // not a List from the server: lint reports it as it is
            continue;
        }
        doc::value list = (*docs)[0].root;
        if (doc::value* items = list.find("items"); items != nullptr && items->is_sequence()) {
            auto& all = items->items();
            std::erase_if(all, [&](const doc::value& item) { return drop.contains(key_of(item, {})); });
        }
        out.files.push_back({file.name, doc::to_json(list), false});
    }
    return out;
}

} // namespace kpw::plan
