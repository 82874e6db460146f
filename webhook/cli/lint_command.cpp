// SPDX-License-Identifier: Apache-2.0
// `lint`: the CI dry-run face of the webhook.
#include "cli/command.hpp"
#include "cli/exit_codes.hpp"

#include <algorithm>
#include <fstream>
#include <ctime>
#include <iostream>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "cli/lint_flags.hpp"
#include "lint/diff_report.hpp"
#include "lint/lint.hpp"
#include "lint/render.hpp"
#include "plan/policy_set.hpp"
#include "settings/feature_gates.hpp"

namespace kpw::cli {
namespace {

// --base needs a dry run (a diff of placements), and the flags that only make sense with it.
bool check_diff_flags(const lint_flags& flags)
{
    if (!flags.base.empty() && (flags.clusters.empty() || flags.workloads.empty()) && !flags.kube.requested()) {
        std::cerr << "lint: --base needs --clusters and --workloads (the snapshot both sides are scheduled on)\n";
        return false;
    }
    const auto reads_stdin = [](const std::vector<std::string>& paths) {
        return paths.empty() || std::find(paths.begin(), paths.end(), "-") != paths.end();
    };
    if (!flags.base.empty() && reads_stdin(flags.base) && reads_stdin(flags.paths)) {
        std::cerr << "lint: --base - and PATH - cannot both read standard input\n";
        return false;
    }
    if (flags.fail_on == "move" && flags.base.empty()) {
        std::cerr << "lint: --fail-on=move needs --base (the placements to compare with)\n";
        return false;
    }
    return true;
}

// --base: the same dry run over the base policies first; the base policies PATH no longer holds are then
// deleted as Karmada deletes them (their claims come off the templates and bindings, which keep their
// clusters), PATH is scheduled on that, and its placements are diffed against the base's.
lint::report run_lint_against_base(const lint_flags& flags, const lint::input_set& inputs,
                                   lint::dry_run_context* dry_run, const lint::lint_options& options)
{
    if (flags.base.empty())
        return lint::run_lint(inputs, options);
    const lint::input_set base_inputs = lint::collect_inputs(flags.base);
    std::vector<lint::typed_policy> base_admitted;
    if (dry_run)
        dry_run->settled = [](const lint::typed_policy&) { return true; }; // the base side: nothing changes
    const lint::report base = lint::run_lint(base_inputs, options, base_admitted);
    // PATH's version of a base policy is an UPDATE to Karmada's validating webhook.
    const auto stored = plan::stored_policies(base, base_admitted);
    lint::lint_options change = options;
    change.stored = &stored;
    change.stored_as_applied = true; // the base files are what kubectl last applied
    if (dry_run) {
        std::set<plan::policy_key> gone = plan::policy_keys(base_inputs, options.default_namespace, options.enforce_namespace);
        for (const auto& kept : plan::policy_keys(inputs, options.default_namespace, options.enforce_namespace))
            gone.erase(kept);
        lint::settle_base_claims(*dry_run, base_admitted, base);
        lint::delete_policies(*dry_run, plan::admitted_policies(base, base_admitted, gone));
        dry_run->settled = plan::unchanged_from(base, base_admitted, dry_run->gates.release(), true);
        dry_run->base_version = plan::base_version_from(base, base_admitted);
        // A policy whose update is denied keeps its base version on the server, and that one still claims.
        lint::lint_options validation_only = change;
        validation_only.dry_run = nullptr;
        dry_run->standing = plan::standing_policies(base, base_admitted,
                                                    plan::refused_keys(lint::run_lint(inputs, validation_only)));
    }
    lint::report report = lint::run_lint(inputs, change);
    lint::attach_diff(report, base);
    return report;
}

int run_lint_command(const lint_flags& flags)
{
    if ((!flags.workloads.empty() || !flags.bindings.empty()) && flags.clusters.empty() && !flags.kube.requested()) {
        std::cerr << "lint: --workloads and --bindings need --clusters (the snapshot to schedule them on)\n";
        return exit_usage;
    }
    if (!flags.member_state.empty() && flags.clusters.empty() && !flags.kube.requested()) {
        std::cerr << "lint: --member-state needs --clusters (the snapshot whose members it describes)\n";
        return exit_usage;
    }
    if (!check_diff_flags(flags) || !check_member_state_flags(flags, flags.kube.requested(), "lint"))
        return exit_usage;
    lint::input_set inputs = lint::collect_inputs(flags.paths.empty() ? std::vector<std::string>{"-"} : flags.paths);
    auto options = lint_options_of(flags, "lint");
    if (!options)
        return exit_usage;
    std::unique_ptr<lint::dry_run_context> dry_run;
    std::unique_ptr<kube::client> client;
    if (flags.kube.requested()) {
        // --kubeconfig / --context: what was not given as a file is read from karmada-apiserver.
        client = connect(flags.kube, flags.namespace_given, "lint", options->default_namespace);
        if (client &&
            !answer_for_release(*options, flags, karmada_version_with_server(flags.karmada_version, *client, "lint"), "lint"))
            return exit_usage;
        if (client)
            dry_run = load_live_dry_run("lint", *client, flags.clusters, flags.workloads, flags.bindings, inputs,
                                        options->default_namespace, inputs.errors);
        if (!dry_run)
            return exit_usage;
    } else if (!flags.clusters.empty()) {
        dry_run = lint::load_dry_run(flags.clusters, flags.workloads, flags.bindings, options->default_namespace,
                                     inputs.errors);
    }
    if (dry_run) {
        load_member_state(*dry_run, flags, client.get(), "lint", inputs.errors);
        prepare_dry_run(*dry_run, flags, *options);
    }
    lint::report report = run_lint_against_base(flags, inputs, dry_run.get(), *options);
    report.link_base = flags.link_base;
    return finish_report(flags, report);
}

} // namespace

command add_lint_command(CLI::App& parent)
{
    auto flags = std::make_shared<lint_flags>();
    auto* sub = parent.add_subcommand(
        "lint", "Validate PropagationPolicy/ClusterPropagationPolicy manifests as kubectl apply to Karmada would.\n"
                "With --clusters/--workloads, also predicts karmada-scheduler's decision for every claimed workload.\n"
                "Exit 0: all allowed; 1: a policy is denied or a workload unschedulable; 2: usage, I/O or parse error.");
    sub->add_option("paths", flags->paths, "files, directories (recursive *.yaml *.yml *.json) or - for stdin");
    sub->add_option("--clusters", flags->clusters,
                    "dry-run scheduling: Cluster objects as `kubectl get clusters -o yaml` prints them "
                    "(file, directory or -); repeat the flag for several")
        ->allow_extra_args(false); // one path per flag: PATH... after it stays positional
    sub->add_option("--workloads", flags->workloads,
                    "dry-run scheduling: the workloads (Deployment, StatefulSet, Job, ...) the policies claim")
        ->allow_extra_args(false); // one path per flag: PATH... after it stays positional
    sub->add_option("--bindings", flags->bindings,
                    "day two: today's ResourceBindings / ClusterResourceBindings (`kubectl get rb -A -o yaml`, "
                    "`kubectl get crb -o yaml`); predicts what the scheduler does to them once PATH is applied")
        ->allow_extra_args(false); // one path per flag: PATH... after it stays positional
    sub->add_option("--base", flags->base,
                    "diff placements: the base policies (e.g. the target branch's; file, directory or -), "
                    "scheduled on the same snapshot; repeat the flag for several")
        ->allow_extra_args(false);
    add_shared_lint_flags(*sub, flags);
    return {sub, [flags] { return run_lint_command(*flags); }};
}

} // namespace kpw::cli
