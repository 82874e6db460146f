// SPDX-License-Identifier: Apache-2.0
#include "scheduling/policy_update.hpp"

#include "model/kubectl_apply.hpp"
#include "model/well_known.hpp"

namespace kpw::scheduling {

namespace {

// Labels and annotations as the file sets them: without what Karmada and kubectl write themselves.
std::map<std::string, std::string> as_written(std::map<std::string, std::string> m)
{
    m.erase(std::string(model::pp_permanent_id_label));
    m.erase(std::string(model::cpp_permanent_id_label));
    m.erase(std::string(model::last_applied_annotation));
    return m;
}

} // namespace

bool reconciled_on_update(const model::policy& before, const model::policy& after, settings::karmada_release release,
                          const doc::value* before_applied, const doc::value* after_applied)
{
    if (!(before.spec == after.spec))
        return true;
    // v1.18.0 added the generation check (detector.go:1003 "Skip enqueue PropagationPolicy ... since
    // generation is not changed"); v1.18.2 is the first supported release with it.
    if (release >= settings::karmada_release::v1_18_2)
        return false;
    if (before_applied && after_applied && !doc::same_content(*before_applied, *after_applied))
        return true;
    return as_written(before.metadata.labels) != as_written(after.metadata.labels) ||
           as_written(before.metadata.annotations) != as_written(after.metadata.annotations);
}

} // namespace kpw::scheduling
