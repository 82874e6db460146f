// SPDX-License-Identifier: Apache-2.0
#include "cli/lint_flags.hpp"

#include <ctime>
#include <fstream>
#include <iostream>

#include "cli/exit_codes.hpp"
#include "lint/diff_report.hpp"
#include "lint/render.hpp"
#include "live/dry_run_inputs.hpp"
#include "live/reader.hpp"
#include "model/release_fields.hpp"
#include "settings/feature_gates.hpp"
#include "snapshot/member_state.hpp"

namespace kpw::cli {

namespace {

std::string formats_help()
{
    std::string help = "output format:";
    for (const auto& f : lint::output_formats())
        help.append(" ").append(f.name);
    return help;
}

lint::fail_on fail_on_of(const std::string& name)
{
    return name == "move" ? lint::fail_on::move : name == "none" ? lint::fail_on::none : lint::fail_on::unschedulable;
}

// --report FILE.html; false (and a message) when the file cannot be written.
bool write_html_report(const std::string& file, const lint::report& report)
{
    if (file.empty())
        return true;
    std::ofstream out(file, std::ios::binary | std::ios::trunc);
    if (out)
        lint::render_html(report, out);
    if (out.flush())
        return true;
    std::cerr << "cannot write --report " << file << '\n';
    return false;
}

} // namespace

void add_shared_lint_flags(CLI::App& sub, const std::shared_ptr<lint_flags>& flags)
{
    std::vector<std::string> names;
    for (const auto& f : lint::output_formats())
        names.emplace_back(f.name);
    sub.add_option("-o,--output", flags->output, formats_help())->check(CLI::IsMember(names))->capture_default_str();
    sub.add_option("-n,--namespace", flags->options.default_namespace,
                   "namespace of PropagationPolicies that set none (kubectl's default; with --kubeconfig the "
                   "context's namespace)")
        ->capture_default_str()
        ->each([flags](const std::string&) {
            flags->namespace_given = true;
            flags->options.enforce_namespace = true; // kubectl apply -n: another namespace is refused
        });
    sub.add_option("--unschedulable", flags->unschedulable, "an unschedulable workload is an error (exit 1) or only a warning")
        ->check(CLI::IsMember({"error", "warn"}))
        ->capture_default_str();
    sub.add_flag("--explain", flags->options.explain,
                 "dry run: for every affinity group tried, every cluster considered and why it got what it got "
                 "(text; -o json gets the `considered` rows)");
    sub.add_flag("--legacy-default-tolerations", flags->legacy_tolerations,
                 "dry run as Karmada v1.3-v1.14, whose webhook added NoExecute tolerations for "
                 "not-ready/unreachable clusters");
    sub.add_option("--fail-on", flags->fail_on,
                   "exit 1 on: unschedulable (a denial or an unschedulable workload), move (also any placement "
                   "change against the base), none (denials only)")
        ->check(CLI::IsMember({"unschedulable", "move", "none"}))
        ->capture_default_str();
    sub.add_option("--link-base", flags->link_base,
                   "-o markdown and --report: link file:line to URL/<file>#L<line> (e.g. a blob URL at the PR head)");
    sub.add_option("--report", flags->html_report,
                   "also write a self-contained HTML report (placement bars, the diff, findings) to this file");
    sub.add_option("--feature-gates", flags->feature_gates,
                   "Karmada feature gates the dry run assumes, as karmada-scheduler takes them "
                   "(MultiplePodTemplatesScheduling=true,...); others keep Karmada's defaults");
    sub.add_option("--validate", flags->validate,
                   "field validation as kubectl apply's flag of that name: strict (kubectl's default) refuses a "
                   "policy with a field the CRD does not define, as the API server does (error, exit 1); warn "
                   "only warns (the server drops the field); ignore says nothing. true and false are strict "
                   "and ignore")
        ->check(CLI::IsMember({"strict", "warn", "ignore", "true", "false"}))
        ->capture_default_str();
    sub.add_flag("--allow-aggregated-overflow", flags->options.validation.allow_aggregated_overflow,
                 "also accept overflowAffinities with Divided + Aggregated scheduling (newer Karmada)");
    sub.add_option("--member-state", flags->member_state,
                   "dry run with karmada-scheduler-estimator: DIR holds one subdirectory per member cluster (named "
                   "as its Cluster) with that member's Nodes and Pods (`kubectl get nodes,pods -A -o yaml`); a "
                   "cluster without one has no estimator (docs/estimator.md)");
    sub.add_flag("--members-through-proxy", flags->members_through_proxy,
                 "with --kubeconfig/--context: the member state of --member-state read live, each member cluster's "
                 "Nodes and Pods through karmada-apiserver's cluster proxy (/apis/cluster.karmada.io/v1alpha1/"
                 "clusters/NAME/proxy); a member that cannot be read has no estimator");
    add_karmada_version_flag(sub, flags->karmada_version);
    add_kube_flags(sub, flags->kube);
}

void load_member_state(lint::dry_run_context& ctx, const lint_flags& flags, kube::client* client, const char* command,
                       std::vector<lint::file_error>& errors)
{
    if (!flags.member_state.empty())
        snapshot::load_member_states(ctx, flags.member_state, errors);
    if (flags.members_through_proxy && client != nullptr)
        load_members_through_proxy(ctx, *client, command, errors);
}

void load_members_through_proxy(lint::dry_run_context& ctx, kube::client& client, const char* command,
                                std::vector<lint::file_error>& errors)
{
    live::reader read(client);
    std::vector<snapshot::member_inputs> members;
    for (const auto& c : ctx.clusters.clusters()) {
        auto state = read.member_state(c.name);
        if (!state) {
            std::cerr << command << ": note: member cluster " << c.name << ": " << state.error().message
                      << " (its karmada-scheduler-estimator is not predicted: the general estimator alone for it)\n";
            continue;
        }
        members.push_back({c.name, live::cluster_proxy_path(c.name), std::move(*state)});
    }
    snapshot::load_member_inputs(ctx, std::move(members), errors);
}

bool check_member_state_flags(const lint_flags& flags, bool has_server, const char* command)
{
    return check_member_state_flags(flags.member_state, flags.members_through_proxy, has_server, command);
}

bool check_member_state_flags(const std::string& member_state, bool through_proxy, bool has_server, const char* command)
{
    if (through_proxy && !member_state.empty()) {
        std::cerr << command << ": --member-state and --members-through-proxy are two sources of the same member "
                                "state: give one\n";
        return false;
    }
    if (through_proxy && !has_server) {
        std::cerr << command << ": --members-through-proxy reads through karmada-apiserver: give --kubeconfig or "
                                "--context (or --member-state DIR with the members' exports)\n";
        return false;
    }
    return true;
}

bool answer_for_release(lint::lint_options& options, const lint_flags& flags, const karmada_version_choice& choice,
                        const char* command)
{
    options.validation.release = choice.release;
    options.release_decided_by = choice.decided_by;
    auto gates = settings::parse_feature_gates(flags.feature_gates, choice.release);
    if (!gates) {
        std::cerr << command << ": --feature-gates: " << gates.error().message << '\n';
        return false;
    }
    options.feature_gates = *gates;
    return true;
}

std::optional<lint::lint_options> lint_options_of(const lint_flags& flags, const char* command)
{
    lint::lint_options options = flags.options;
    options.unschedulable_is_error = flags.unschedulable == "error";
    options.field_validation = *schema::parse_field_validation(flags.validate); // checked by CLI11
    auto choice = karmada_version_of(flags.karmada_version);
    if (!choice) {
        std::cerr << command << ": " << choice.error().message << '\n';
        return std::nullopt;
    }
    if (!answer_for_release(options, flags, *choice, command))
        return std::nullopt;
    return options;
}

void prepare_dry_run(lint::dry_run_context& ctx, const lint_flags& flags, lint::lint_options& options)
{
    ctx.options.legacy_default_tolerations = flags.legacy_tolerations;
    ctx.gates = options.feature_gates;
    ctx.options.gates = &ctx.gates;
    // Every output counts the clusters each group left out and why, so the rows are always computed;
    // the report keeps them only for --explain (lint/dry_run.cpp).
    ctx.options.explain = true;
    // A successful re-schedule writes lastScheduledTime = now; nothing else reads the clock.
    ctx.now = static_cast<model::timestamp>(std::time(nullptr));
    // Today's bindings as the chosen release stores them (no overflow tiers before v1.18.0, ...).
    for (auto& b : ctx.bindings.mutable_bindings())
        model::as_stored_by(b, options.validation.release);
    options.dry_run = &ctx;
}

std::unique_ptr<kube::client> connect(const kube_flags& flags, bool namespace_given, const char* command,
                                      std::string& default_namespace)
{
    auto config = load_rest_config(flags);
    auto client_options = client_options_of(flags);
    if (!config || !client_options) {
        std::cerr << command << ": " << (config ? client_options.error().message : config.error().message) << '\n';
        return nullptr;
    }
    if (!namespace_given)
        default_namespace = config->default_namespace;
    return std::make_unique<kube::client>(std::move(*config), *client_options);
}

std::unique_ptr<lint::dry_run_context> load_live_dry_run(const char* command, kube::client& client,
                                                         const std::vector<std::string>& cluster_paths,
                                                         const std::vector<std::string>& workload_paths,
                                                         const std::vector<std::string>& binding_paths,
                                                         const lint::input_set& selecting,
                                                         const std::string& default_namespace,
                                                         std::vector<lint::file_error>& errors)
{
    live::live_wants wants{cluster_paths.empty(), workload_paths.empty(), binding_paths.empty()};
    auto live = live::read_live_inputs(client, wants, selecting, default_namespace);
    if (!live) {
        std::cerr << command << ": " << live.error().message << '\n';
        return nullptr;
    }
    for (const auto& note : live->notes)
        std::cerr << command << ": note: " << note << '\n';
    const auto given_or_live = [](const std::vector<std::string>& paths, std::optional<lint::input_set>& read) {
        return paths.empty() ? std::move(read) : snapshot::read_paths(paths);
    };
    return lint::load_dry_run(given_or_live(cluster_paths, live->clusters), given_or_live(workload_paths, live->workloads),
                              given_or_live(binding_paths, live->bindings), default_namespace, errors);
}

int finish_report(const lint_flags& flags, const lint::report& report)
{
    const lint::output_format* format = lint::find_output_format(flags.output);
    format->render(report, std::cout);
    std::cout.flush();
    // Broken inputs also go to stderr, whatever the format, so a CI log always shows them.
    if (flags.output != "text")
        for (const auto& e : report.file_errors)
            std::cerr << e.str() << '\n';
    if (!write_html_report(flags.html_report, report))
        return exit_usage;
    return lint::exit_code(report, fail_on_of(flags.fail_on));
}

} // namespace kpw::cli
