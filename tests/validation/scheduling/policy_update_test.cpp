// SPDX-License-Identifier: Apache-2.0
// Whether the detector reconciles a rewritten policy: a spec change always, labels alone before v1.18 only
// (pkg/detector/detector.go OnPropagationPolicyUpdate's generation check, v1.18.0).
#include <doctest/doctest.h>

#include "doc/load.hpp"
#include "model/kubectl_apply.hpp"
#include "model/well_known.hpp"
#include "scheduling/deprioritised.hpp"
#include "scheduling/policy_update.hpp"

using namespace kpw;
using settings::karmada_release;

TEST_CASE("labels alone: reconciled on v1.16 and v1.17, skipped on v1.18; the spec: always")
{
    model::policy before;
    before.kind = std::string(model::kind_propagation_policy);
    before.metadata.name = "web";
    before.metadata.labels[std::string(model::pp_permanent_id_label)] = "0b7c-uuid";
    model::policy relabelled = before;
    relabelled.metadata.labels.erase(std::string(model::pp_permanent_id_label)); // the file has no id
    relabelled.metadata.labels["team"] = "platform";
    for (auto r : {karmada_release::v1_16_0, karmada_release::v1_17_1})
        CHECK(scheduling::reconciled_on_update(before, relabelled, r));
    CHECK_FALSE(scheduling::reconciled_on_update(before, relabelled, karmada_release::v1_18_2));

    model::policy same = before;
    same.metadata.labels.erase(std::string(model::pp_permanent_id_label));
    same.metadata.annotations[std::string(model::last_applied_annotation)] = "{}"; // kubectl's, not the file's
    CHECK_FALSE(scheduling::reconciled_on_update(before, same, karmada_release::v1_16_0));

    model::policy respecced = before;
    respecced.spec.priority = 3;
    CHECK(scheduling::reconciled_on_update(before, respecced, karmada_release::v1_18_2));
}

TEST_CASE("what kubectl applied differs (an explicit default written): reconciled before v1.18 only")
{
    // seed 2302 sub-case c12-25: the new file adds `preemption: Never`, the default, so the stored spec is
    // the same; kubectl apply still patches its last-applied annotation, and v1.16/v1.17 reconcile that
    // update (a relabelled template is then released). Key order is no difference (JSON objects).
    model::policy p;
    p.kind = std::string(model::kind_propagation_policy);
    auto base = doc::load_yaml("kind: PropagationPolicy\nspec: {priority: 2}\n");
    auto explicit_default = doc::load_yaml("kind: PropagationPolicy\nspec: {priority: 2, preemption: Never}\n");
    auto reordered = doc::load_yaml("spec: {priority: 2}\nkind: PropagationPolicy\n");
    REQUIRE((base && explicit_default && reordered));
    const doc::value& a = (*base)[0].root;
    for (auto r : {karmada_release::v1_16_0, karmada_release::v1_17_1}) {
        CHECK(scheduling::reconciled_on_update(p, p, r, &a, &(*explicit_default)[0].root));
        CHECK_FALSE(scheduling::reconciled_on_update(p, p, r, &a, &(*reordered)[0].root));
        CHECK_FALSE(scheduling::reconciled_on_update(p, p, r)); // not known: the policies alone
    }
    CHECK_FALSE(scheduling::reconciled_on_update(p, p, karmada_release::v1_18_2, &a, &(*explicit_default)[0].root));
}

namespace {

model::policy pp(std::string ns, std::string name, std::optional<std::int32_t> priority, std::string preemption)
{
    model::policy p;
    p.kind = std::string(model::kind_propagation_policy);
    p.metadata.ns = std::move(ns);
    p.metadata.name = std::move(name);
    p.spec.priority = priority;
    p.spec.preemption = std::move(preemption);
    return p;
}

} // namespace

TEST_CASE("a priority cut re-queues the Always-preempting policies of its namespace strictly between old and new")
{
    const model::policy before = pp("shop", "holder", 10, "Never");
    const model::policy after = pp("shop", "holder", std::nullopt, "Always"); // priority removed: 0
    const auto cut = scheduling::lowered(before, after);
    REQUIRE(cut);
    CHECK(cut->before == 10);
    const scheduling::lowered_priority cuts[] = {*cut};
    CHECK(scheduling::requeued_by_priority_cut(pp("shop", "p6", 6, "Always"), cuts));
    CHECK_FALSE(scheduling::requeued_by_priority_cut(pp("shop", "p6", 6, "Never"), cuts));    // no preemption
    CHECK_FALSE(scheduling::requeued_by_priority_cut(pp("shop", "p10", 10, "Always"), cuts)); // not below the old
    CHECK_FALSE(scheduling::requeued_by_priority_cut(pp("shop", "p0", 0, "Always"), cuts));   // not above the new
    CHECK_FALSE(scheduling::requeued_by_priority_cut(pp("shop", "unset", std::nullopt, "Always"), cuts));
    CHECK_FALSE(scheduling::requeued_by_priority_cut(pp("other", "p6", 6, "Always"), cuts)); // another namespace
    model::policy cluster = pp("", "c6", 6, "Always");
    cluster.kind = std::string(model::kind_cluster_propagation_policy);
    CHECK_FALSE(scheduling::requeued_by_priority_cut(cluster, cuts)); // another kind
    CHECK_FALSE(scheduling::lowered(after, before)); // a raise cuts nothing
}
