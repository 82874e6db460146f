// SPDX-License-Identifier: Apache-2.0
// Fuzz target (12): a member's Nodes and Pods (YAML/JSON, Lists or documents) -> member state decoding ->
// karmada-scheduler-estimator's estimate, for no request, a small one, and every Pod's spec as a template
// (its requests and node claim).
#include "doc/load.hpp"
#include "model/member_state_decode.hpp"
#include "model/workload_decode.hpp"
#include "scheduling/accurate_estimator.hpp"
#include "targets.hpp"

namespace kpw::fuzz {
namespace {

constexpr std::string_view name = "member_state";

void check(const scheduling::prepared_member& m, const model::replica_request& request, const model::node_claim* claim)
{
    auto a = scheduling::estimate_accurate(m, request, claim);
    auto b = scheduling::estimate_accurate(m, request, claim);
    if (a.replicas != b.replicas || a.bound != b.bound || a.first_excluded != b.first_excluded)
        invariant_failed(name, "the estimate is not deterministic");
    if (a.matching > a.nodes || a.nodes != m.nodes.size())
        invariant_failed(name, "more matching nodes than nodes");
    if (a.matching == 0 && a.replicas != 0)
        invariant_failed(name, "replicas without a matching node");
    if (a.matching < a.nodes && a.first_excluded.empty())
        invariant_failed(name, "a node was excluded without a reason");
    if (scheduling::describe(a).empty())
        invariant_failed(name, "an empty description");
}

} // namespace

int member_state(bytes data)
{
    auto docs = doc::load_yaml(as_text(data));
    if (!docs)
        return 0;
    model::member_state state;
    state.cluster = "member1";
    std::vector<model::member_issue> issues;
    for (const doc::document& d : *docs)
        model::add_member_objects(state, d.root, issues);
    model::seal_member(state, issues);
    for (const auto& i : issues)
        if (i.message.empty())
            invariant_failed(name, "an issue without a message");
    for (const auto& p : state.pods)
        for (std::size_t i = 1; i < p.requests.size(); ++i)
            if (!(p.requests[i - 1].first < p.requests[i].first))
                invariant_failed(name, "pod requests not sorted by name");
    const auto member = scheduling::prepare_member(state);
    for (const auto& n : member.nodes)
        if (n.milli_cpu < 0 || n.memory < 0 || n.ephemeral_storage < 0 || n.pods < 0)
            invariant_failed(name, "a free amount below zero after SubResource");
    check(member, {}, nullptr);
    check(member, {{"cpu", 250}, {"memory", 1 << 28}}, nullptr);
    // Each pod's spec as a pod template: its requests and node claim against the member.
    for (const doc::document& d : *docs) {
        const doc::value* items = doc::list_items(d.root);
        const std::vector<doc::value> one{d.root};
        for (const auto& object : items != nullptr ? items->items() : one) {
            const doc::value* spec = object.is_mapping() ? object.find("spec") : nullptr;
            if (spec == nullptr || !spec->is_mapping() || object.string_at("kind") != "Pod")
                continue;
            field::error_list errors;
            const auto at = field::path::root("spec");
            auto request = model::pod_request(*spec, at, errors);
            auto claim = model::decode_node_claim(*spec, at, errors);
            check(member, request, claim ? &*claim : nullptr);
        }
    }
    return 0;
}

} // namespace kpw::fuzz
