// SPDX-License-Identifier: Apache-2.0
// `plan`: against the control plane as it is now, what applying PATH would move (`terraform plan` for
// placement policies). The base side is the server's policies and today's spec.clusters of every
// binding; the new side is PATH applied over the server's policies, scheduled as karmada-scheduler would.
#include "cli/command.hpp"
#include "cli/exit_codes.hpp"

#include <iostream>
#include <memory>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "cli/lint_flags.hpp"
#include "lint/diff_report.hpp"
#include "live/reader.hpp"
#include "plan/policy_changes.hpp"
#include "plan/policy_set.hpp"
#include "plan/workload_set.hpp"

namespace kpw::cli {
namespace {

// `a` followed by `b`'s files and errors.
lint::input_set joined(lint::input_set a, const lint::input_set& b)
{
    a.files.insert(a.files.end(), b.files.begin(), b.files.end());
    a.errors.insert(a.errors.end(), b.errors.begin(), b.errors.end());
    return a;
}

// PATH's verdicts alone (the dry run changes no verdict).
lint::report validated(const lint::input_set& applied, lint::lint_options options)
{
    options.dry_run = nullptr;
    return lint::run_lint(applied, options);
}

// Whether kubectl apply would apply every object of PATH: no policy denied, no file it cannot read.
bool applies_cleanly(const lint::report& validated) { return validated.file_errors.empty() && validated.totals.denied == 0; }

int run_plan_command(const lint_flags& flags)
{
    auto options = lint_options_of(flags, "plan");
    if (!options || !check_member_state_flags(flags, true, "plan"))
        return exit_usage;
    auto client = connect(flags.kube, flags.namespace_given, "plan", options->default_namespace);
    if (!client ||
        !answer_for_release(*options, flags, karmada_version_with_server(flags.karmada_version, *client, "plan"), "plan"))
        return exit_usage;
    const lint::input_set applied = lint::collect_inputs(flags.paths.empty() ? std::vector<std::string>{"-"} : flags.paths);
    auto server = live::reader(*client).policies();
    if (!server) {
        std::cerr << "plan: " << server.error().message << '\n';
        return exit_usage;
    }
    // Both sides are scheduled on one snapshot holding every template either side's policies select.
    std::vector<lint::file_error> load_errors;
    auto dry_run = load_live_dry_run("plan", *client, flags.clusters, flags.workloads, flags.bindings,
                                     joined(applied, *server), options->default_namespace, load_errors);
    if (!dry_run)
        return exit_usage;
    load_member_state(*dry_run, flags, client.get(), "plan", load_errors);
    prepare_dry_run(*dry_run, flags, *options);

    // The server side first (today: nothing changes). PATH's version of one of its policies is an UPDATE
    // to Karmada's validating webhook.
    std::vector<lint::typed_policy> after_admitted, server_admitted;
    dry_run->settled = [](const lint::typed_policy&) { return true; };
    const lint::report base = lint::run_lint(*server, *options, server_admitted);
    const auto stored = plan::stored_policies(base, server_admitted);
    lint::lint_options change = *options;
    change.stored = &stored;

    // kubectl apply: a policy of PATH replaces the server's of the same kind, namespace and name.
    const auto applied_keys = plan::policy_keys(applied, options->default_namespace, options->enforce_namespace);
    const auto server_keys = plan::policy_keys(*server, options->default_namespace);
    const lint::report verdicts = validated(applied, change);
    plan::prune_outcome prune;
    if (flags.prune) {
        prune = plan::pruned_keys(server_keys, plan::last_applied_keys(*server, options->default_namespace),
                                  applied_keys, flags.namespace_given ? options->default_namespace : "");
        if (!prune.deleted.empty() && !applies_cleanly(verdicts))
            prune.blocked = std::exchange(prune.deleted, {});
    }
    // A denied policy of PATH replaces nothing: the server keeps its version, which still claims.
    std::set<plan::policy_key> replaced = applied_keys;
    for (const auto& k : plan::refused_keys(verdicts))
        replaced.erase(k);
    replaced.insert(prune.deleted.begin(), prune.deleted.end());
    lint::input_set after = joined(applied, plan::without(*server, replaced));
    after.errors.insert(after.errors.end(), load_errors.begin(), load_errors.end());

    // The pruned policies are deleted as Karmada deletes them (their claims come off the templates and
    // bindings, which keep their clusters) and PATH's side is scheduled on that. PATH's templates are
    // applied too (kubectl apply of the whole directory).
    lint::delete_policies(*dry_run, plan::admitted_policies(base, server_admitted, prune.deleted));
    // The server's objects are not what kubectl applied (that is their last-applied annotation): the
    // policies alone are compared.
    dry_run->settled = plan::unchanged_from(base, server_admitted, dry_run->gates.release(), false);
    dry_run->base_version = plan::base_version_from(base, server_admitted);
    const auto templates = plan::workloads_in_path(applied, options->default_namespace, after.errors);
    const auto applied_templates = lint::apply_workloads(*dry_run, plan::manifests_of(templates));
    lint::report report = lint::run_lint(after, change, after_admitted);
    lint::attach_diff(report, base);
    plan::unskip_applied(report, templates);
    if (!templates.empty())
        report.workload_plan = plan::workload_changes(templates, applied_templates, report.claims);
    std::set<std::string> applied_files;
    for (const auto& f : applied.files)
        applied_files.insert(f.name);
    report.policy_plan = plan::policy_changes(report, after_admitted, applied_files, base, server_admitted, prune);
    plan::drop_untouched_server_results(report, applied_files);
    report.link_base = flags.link_base;
    return finish_report(flags, report);
}

} // namespace

command add_plan_command(CLI::App& parent)
{
    auto flags = std::make_shared<lint_flags>();
    auto* sub = parent.add_subcommand(
        "plan", "What applying PATH to karmada-apiserver would move, against the control plane as it is now:\n"
                "PATH's policies over the server's (kubectl apply), every claimed workload scheduled as karmada-scheduler\n"
                "would, diffed against today's bindings. Reads --kubeconfig/--context (kubectl's defaults otherwise).\n"
                "Exit 0: all allowed; 1: a policy is denied or a workload unschedulable (--fail-on=move: also any move);\n"
                "2: usage, I/O, parse or API error.");
    sub->add_option("paths", flags->paths,
                    "the policies to apply, and the resource templates beside them (applied as kubectl apply "
                    "does): files, directories (recursive *.yaml *.yml *.json) or -");
    sub->add_flag("--prune", flags->prune,
                  "as kubectl apply --prune --all with the policy kinds allow-listed: the server's policies PATH does "
                  "not hold are deleted if kubectl apply wrote them (last-applied-configuration annotation): "
                  "PropagationPolicies in PATH's namespaces (and -n's), every ClusterPropagationPolicy; nothing "
                  "when a policy of PATH is denied");
    sub->add_option("--clusters", flags->clusters, "plan against these Cluster objects instead of the server's (what-if)")
        ->allow_extra_args(false);
    add_shared_lint_flags(*sub, flags);
    return {sub, [flags] { return run_plan_command(*flags); }};
}

} // namespace kpw::cli
