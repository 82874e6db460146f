// SPDX-License-Identifier: Apache-2.0
#include "plan/policy_changes.hpp"

#include <algorithm>
#include <map>
#include <optional>

#include "lint/diff_report.hpp"

namespace kpw::plan {

namespace {

std::map<policy_key, const model::propagation_spec*> specs_of(const lint::report& r,
                                                              const std::vector<lint::typed_policy>& admitted)
{
    std::map<policy_key, const model::propagation_spec*> out;
    for (const auto& t : admitted)
        out.emplace(key_of(r.results[t.result]), &t.policy.spec);
    return out;
}

} // namespace

std::vector<lint::policy_plan_row> policy_changes(const lint::report& applied,
                                                  const std::vector<lint::typed_policy>& applied_admitted,
                                                  const std::set<std::string>& applied_files,
                                                  const lint::report& server,
                                                  const std::vector<lint::typed_policy>& server_admitted,
                                                  const prune_outcome& prune)
{
    const auto before = specs_of(server, server_admitted);
    const auto after = specs_of(applied, applied_admitted);
    std::set<policy_key> on_server;
    for (const auto& r : server.results)
        on_server.insert(key_of(r));
    std::vector<lint::policy_plan_row> rows;
    for (const auto& r : applied.results) {
        if (!applied_files.contains(r.file))
            continue;
        const policy_key key = key_of(r);
        lint::policy_plan_row row{{}, {r.kind, r.namespace_name, r.name}, r.file, r.start, {}};
        if (!r.allowed) {
            row.action = "denied";
        } else if (!on_server.contains(key)) {
            row.action = "create";
        } else {
            const auto b = before.find(key);
            const auto a = after.find(key);
            // A server policy that fails our validation today has no typed form: any apply changes it.
            const bool same = b != before.end() && a != after.end() && *b->second == *a->second;
            row.action = same ? "unchanged" : "change";
        }
        rows.push_back(std::move(row));
    }
    auto server_row = [&](const policy_key& k, std::string action, std::string note) {
        auto it = std::find_if(server.results.begin(), server.results.end(),
                               [&](const lint::policy_result& r) { return key_of(r) == k; });
        rows.push_back({std::move(action), {k.kind, k.namespace_, k.name}, it != server.results.end() ? it->file : "",
                        {}, std::move(note)});
    };
    for (const auto& k : prune.deleted)
        server_row(k, "delete", "");
    for (const auto& k : prune.not_applied)
        server_row(k, "kept",
                   "no kubectl.kubernetes.io/last-applied-configuration annotation: not written by kubectl apply "
                   "(kubectl create, a controller or another tool), which kubectl apply --prune never deletes");
    for (const auto& k : prune.blocked)
        server_row(k, "kept",
                   "kubectl apply --prune deletes nothing when an object of PATH fails to apply (a denied policy, "
                   "a file it cannot read): it returns the error before pruning");
    return rows;
}

void drop_untouched_server_results(lint::report& applied, const std::set<std::string>& applied_files)
{
    std::set<lint::workload_key> moved;
    if (applied.diff)
        for (const auto& c : applied.diff->changes)
            moved.insert(c.workload);
    auto keep = [&](const lint::policy_result& r) {
        if (applied_files.contains(r.file) || !r.allowed)
            return true;
        return std::any_of(r.scheduling.begin(), r.scheduling.end(),
                           [&](const lint::scheduling_result& s) { return moved.contains(lint::key_of(s.workload)); });
    };
    std::vector<lint::policy_result> kept;
    std::vector<std::optional<std::size_t>> new_index(applied.results.size());
    for (std::size_t i = 0; i < applied.results.size(); ++i) {
        lint::policy_result& r = applied.results[i];
        if (keep(r)) {
            new_index[i] = kept.size();
            kept.push_back(std::move(r));
            continue;
        }
        applied.totals.policies -= 1;
        applied.totals.documents -= 1;
        applied.totals.warnings -= static_cast<int>(r.warnings.size());
        for (const auto& s : r.scheduling)
            applied.totals.unschedulable -= s.unschedulable() ? 1 : 0;
    }
    applied.results = std::move(kept);
    // Claims rows point into results by index: a dropped policy's rows keep the policy, lose the index.
    for (auto& c : applied.claims)
        if (c.result)
            c.result = *c.result < new_index.size() ? new_index[*c.result] : std::nullopt;
}

} // namespace kpw::plan
