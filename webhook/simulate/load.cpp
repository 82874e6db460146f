// SPDX-License-Identifier: Apache-2.0
#include "simulate/load.hpp"

#include <filesystem>

#include "doc/load.hpp"
#include "lint/dry_run.hpp"
#include "lint/inputs.hpp"
#include "lint/lint.hpp"
#include "lint/render.hpp"
#include "model/release_fields.hpp"
#include "model/time.hpp"
#include "simulate/scenario_decode.hpp"
#include "snapshot/member_state.hpp"

namespace kpw::simulate_cli {

namespace {

namespace fs = std::filesystem;

// The policies of `paths` as lint admits them; a denial or an unreadable file is an error here.
std::vector<model::policy> admitted_policies(const std::vector<std::string>& paths, const lint::dry_run_context& ctx,
                                             const simulate_flags& flags, std::vector<lint::file_error>& errors)
{
    lint::lint_options options;
    options.default_namespace = flags.default_namespace;
    options.validation.release = flags.release;
    options.dry_run = &ctx;
    std::vector<lint::typed_policy> admitted;
    lint::report r = lint::run_lint(lint::collect_inputs(paths), options, admitted);
    errors.insert(errors.end(), r.file_errors.begin(), r.file_errors.end());
    for (const auto& p : r.results)
        for (const auto& e : p.errors)
            errors.push_back({p.file, e.where.known() ? e.where : p.start,
                              lint::policy_label(p) + " is denied (fix it first; see `lint`): " + e.str()});
    std::vector<model::policy> out;
    for (auto& t : admitted) {
        t.policy.metadata.ns = r.results[t.result].namespace_name;
        out.push_back(std::move(t.policy));
    }
    return out;
}

struct scenario_file {
    simulate::scenario value;
    bool ok = false;
};

scenario_file read_scenario(const std::string& path, std::vector<lint::file_error>& errors)
{
    auto in = lint::collect_inputs({path});
    errors.insert(errors.end(), in.errors.begin(), in.errors.end());
    if (in.files.empty())
        return {};
    auto docs = doc::load_yaml(in.files.front().text);
    if (!docs) {
        errors.push_back({path, docs.error().where, docs.error().message});
        return {};
    }
    if (docs->size() != 1) {
        errors.push_back({path, {1, 1}, "a scenario file holds exactly one Scenario document, found " +
                                            std::to_string(docs->size())});
        return {};
    }
    auto decoded = simulate::decode_scenario(docs->front().root);
    for (const auto& e : decoded.errors)
        errors.push_back({path, e.where, e.message});
    return {std::move(decoded.value), decoded.errors.empty()};
}

// A step's file, relative to the scenario file.
std::string relative_to(const std::string& scenario, const std::string& path)
{
    fs::path p(path);
    return p.is_absolute() ? path : (fs::path(scenario).parent_path() / p).lexically_normal().string();
}

std::vector<simulate::step_inputs> step_files(simulate::scenario& sc, const lint::dry_run_context& ctx,
                                              const simulate_flags& flags, std::vector<lint::file_error>& errors)
{
    const std::string& file = flags.scenario;
    const std::string& ns = flags.default_namespace;
    std::vector<simulate::step_inputs> out(sc.steps.size());
    for (std::size_t i = 0; i < sc.steps.size(); ++i) {
        if (auto* add = std::get_if<simulate::add_cluster_step>(&sc.steps[i].what); add && !add->path.empty()) {
            lint::dry_run_context extra;
            snapshot::load(extra, {relative_to(file, add->path)}, {}, ns, errors);
            add->clusters.assign(extra.clusters.clusters().begin(), extra.clusters.clusters().end());
        }
        if (auto* apply = std::get_if<simulate::apply_policy_step>(&sc.steps[i].what))
            out[i].policies = admitted_policies({relative_to(file, apply->path)}, ctx, flags, errors);
    }
    return out;
}

// The newest time the inputs mention, plus one second: a drill starts after what the bindings record.
model::timestamp start_time(const lint::dry_run_context& ctx)
{
    model::timestamp t = 0;
    for (const auto& b : ctx.bindings.bindings()) {
        t = std::max(t, b.last_scheduled_time.value_or(0));
        t = std::max(t, b.reschedule_triggered_at.value_or(0));
        for (const auto& task : b.graceful_eviction_tasks)
            t = std::max(t, task.creation_timestamp.value_or(0));
    }
    for (const auto& c : ctx.clusters.clusters())
        for (const auto& taint : c.taints)
            t = std::max(t, taint.time_added.value_or(0));
    // No time in the inputs: a fixed, documented origin keeps the drill's output reproducible.
    return t == 0 ? *model::parse_rfc3339("2026-01-01T00:00:00Z") : t + 1;
}

bool read_settings(const simulate_flags& flags, simulate::settings_in_force& s, std::vector<lint::file_error>& errors)
{
    auto gates = settings::parse_feature_gates(flags.feature_gates, flags.release);
    if (!gates) {
        errors.push_back({"--feature-gates", {}, gates.error().message});
        return false;
    }
    s.controllers.gates = *gates;
    s.controllers.enable_no_execute_taint_eviction = flags.enable_no_execute_taint_eviction;
    s.controllers.enable_taint_manager = flags.enable_taint_manager;
    s.controllers.no_execute_taint_eviction_purge_mode = flags.purge_mode;
    auto timeout = model::parse_go_duration(flags.graceful_eviction_timeout);
    if (!timeout) {
        errors.push_back({"--graceful-eviction-timeout", {}, timeout.error().message});
        return false;
    }
    s.controllers.graceful_eviction_timeout = *timeout / 1'000'000'000; // nanoseconds → the settings' seconds
    for (const auto& e : settings::validate(s.controllers))
        errors.push_back({"flags", {}, e.str()});
    return true;
}

} // namespace

loaded_drill load_drill(const simulate_flags& flags, std::unique_ptr<lint::dry_run_context> live)
{
    loaded_drill out;
    if (!read_settings(flags, out.settings, out.errors))
        return out;
    auto ctx = live ? std::move(live)
                    : lint::load_dry_run(flags.clusters, flags.workloads, flags.bindings, flags.default_namespace, out.errors);
    auto policies = admitted_policies(flags.policies, *ctx, flags, out.errors);
    auto sc = read_scenario(flags.scenario, out.errors);
    if (!out.errors.empty() || !sc.ok)
        return out;
    out.scenario = std::move(sc.value);
    // karmada-scheduler-estimator's view of the members: the flag, else the scenario's memberState.
    const std::string members = !flags.member_state.empty()      ? flags.member_state
                                : out.scenario.member_state.empty() ? std::string()
                                                                    : relative_to(flags.scenario, out.scenario.member_state);
    if (!members.empty() && !flags.members_through_proxy) // read live already (the command did)
        snapshot::load_member_states(*ctx, members, out.errors);
    out.inputs = step_files(out.scenario, *ctx, flags, out.errors);
    std::vector<std::string> names;
    for (const auto& c : ctx->clusters.clusters())
        names.push_back(c.name);
    std::vector<simulate::workload_ref> refs;
    for (const auto& w : ctx->workloads)
        refs.push_back({w.kind, w.namespace_, w.name, {}});
    for (const auto& b : ctx->bindings.bindings())
        refs.push_back({b.resource.kind, b.resource.namespace_, b.resource.name, {}});
    for (const auto& e : simulate::validate_references(out.scenario, names, refs))
        out.errors.push_back({flags.scenario, e.where, e.message});
    out.start.now = flags.now.empty() ? start_time(*ctx) : model::parse_rfc3339(flags.now).value_or(0);
    if (!flags.now.empty() && out.start.now == 0)
        out.errors.push_back({"--now", {}, "not an RFC3339 time: " + flags.now + " (e.g. 2026-08-20T09:00:00Z)"});
    out.start.clusters.assign(ctx->clusters.clusters().begin(), ctx->clusters.clusters().end());
    out.start.taint_policies = ctx->taint_policies;
    out.start.workloads = ctx->workloads;
    out.start.bindings.assign(ctx->bindings.bindings().begin(), ctx->bindings.bindings().end());
    for (auto& b : out.start.bindings) // as the chosen release stores them (no overflow tiers before v1.18.0, ...)
        model::as_stored_by(b, flags.release);
    out.start.policies = std::move(policies);
    out.start.members = ctx->members;
    out.header.scenario_file = flags.scenario;
    out.header.scenario_name = out.scenario.name;
    out.header.settings = settings::describe(out.settings.controllers);
    if (!members.empty())
        out.header.settings.push_back("karmada-scheduler-estimator for " + std::to_string(ctx->members.members.size()) +
                                      " member(s) (" + members + ")");
    if (!flags.release_decided_by.empty())
        out.header.settings.insert(out.header.settings.begin(), "Karmada " +
                                                                   std::string(settings::release_name(flags.release)) +
                                                                   " (" + flags.release_decided_by + ")");
    return out;
}

} // namespace kpw::simulate_cli
