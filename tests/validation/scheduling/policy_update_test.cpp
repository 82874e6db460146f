// SPDX-License-Identifier: Apache-2.0
// Whether the detector reconciles a rewritten policy: a spec change always, labels alone before v1.18 only
// (pkg/detector/detector.go OnPropagationPolicyUpdate's generation check, v1.18.0).
#include <doctest/doctest.h>

#include "model/kubectl_apply.hpp"
#include "model/well_known.hpp"
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
