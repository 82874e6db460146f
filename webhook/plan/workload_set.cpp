// SPDX-License-Identifier: Apache-2.0
#include "plan/workload_set.hpp"

#include <algorithm>

#include "doc/load.hpp"
#include "scheduling/inventory.hpp"

namespace kpw::plan {

std::vector<workload_in_path> workloads_in_path(const lint::input_set& inputs, const std::string& default_namespace,
                                                std::vector<lint::file_error>& errors)
{
    std::vector<workload_in_path> out;
    for (const auto& file : inputs.files) {
        auto docs = doc::load_yaml(file.text);
        if (!docs)
            continue;
        std::vector<model::workload_manifest> manifests;
        std::vector<scheduling::inventory_issue> issues;
        for (const auto& d : *docs)
            scheduling::add_workload_manifests(manifests, d.root, default_namespace, issues);
        for (auto& m : manifests)
            out.push_back({std::move(m), file.name});
        for (auto& issue : issues)
            errors.push_back({file.name, issue.where, std::move(issue.message)});
    }
    return out;
}

std::vector<model::workload_manifest> manifests_of(const std::vector<workload_in_path>& workloads)
{
    std::vector<model::workload_manifest> out;
    out.reserve(workloads.size());
    for (const auto& w : workloads)
        out.push_back(w.manifest);
    return out;
}

std::vector<lint::policy_plan_row> workload_changes(const std::vector<workload_in_path>& workloads,
                                                    const std::vector<lint::applied_template>& applied,
                                                    const std::vector<lint::claim_row>& claims)
{
    std::vector<lint::policy_plan_row> rows;
    for (std::size_t i = 0; i < workloads.size() && i < applied.size(); ++i) {
        const model::workload& w = workloads[i].manifest.decoded;
        lint::policy_plan_row row{{}, {w.kind, w.namespace_, w.name}, workloads[i].file, w.where, {}};
        const auto claim = std::find_if(claims.begin(), claims.end(), [&](const lint::claim_row& c) {
            return c.workload.api_version == w.api_version && c.workload.kind == w.kind &&
                   c.workload.namespace_name == w.namespace_ && c.workload.name == w.name;
        });
        const bool claimed = claim != claims.end() && claim->policy.has_value();
        if (applied[i].existed) {
            row.action = applied[i].changed ? "change" : "unchanged";
        } else if (claimed) {
            row.action = "create"; // a policy selects it, and the server had none to read
        } else {
            row.action = "apply";
            row.note = "no policy selects it, so plan did not read it from the server; it moves nothing";
        }
        rows.push_back(std::move(row));
    }
    return rows;
}

void unskip_applied(lint::report& r, const std::vector<workload_in_path>& workloads)
{
    std::erase_if(r.skipped, [&](const lint::skipped_document& s) {
        const bool applied = std::any_of(workloads.begin(), workloads.end(), [&](const workload_in_path& w) {
            return w.file == s.file && w.manifest.decoded.kind == s.kind && w.manifest.decoded.name == s.name;
        });
        r.totals.skipped -= applied ? 1 : 0;
        return applied;
    });
}

} // namespace kpw::plan
