// SPDX-License-Identifier: Apache-2.0
// `lint`: the CI dry-run face of the webhook.
#include "cli/command.hpp"
#include "cli/exit_codes.hpp"

#include <algorithm>
#include <fstream>
#include <ctime>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "lint/diff_report.hpp"
#include "lint/lint.hpp"
#include "lint/render.hpp"
#include "settings/feature_gates.hpp"

namespace kpw::cli {
namespace {

struct lint_flags {
    std::vector<std::string> paths;
    std::string output = "text";
    lint::lint_options options;
    std::vector<std::string> clusters;  // --clusters: the snapshot for the dry-run scheduling check
    std::vector<std::string> workloads; // --workloads: the resource templates the policies claim
    std::vector<std::string> bindings;  // --bindings: today's ResourceBindings (day two)
    std::string unschedulable = "error";
    bool legacy_tolerations = false;
    std::vector<std::string> base; // --base: the policies to diff placements against
    std::string fail_on = "unschedulable";
    std::string link_base; // --link-base URL
    std::string html_report; // --report FILE.html
    std::string feature_gates; // --feature-gates
    std::string validate = "strict"; // --validate, kubectl's names
};

// --base needs a dry run (a diff of placements), and the flags that only make sense with it.
bool check_diff_flags(const lint_flags& flags)
{
    if (!flags.base.empty() && (flags.clusters.empty() || flags.workloads.empty())) {
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

// --base: the same dry run over the base policies; its placements diffed against the report's.
void add_base_diff(const lint_flags& flags, const lint::lint_options& options, lint::report& report)
{
    if (flags.base.empty())
        return;
    const lint::report base = lint::run_lint(lint::collect_inputs(flags.base), options);
    lint::attach_diff(report, base);
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
    std::cerr << "lint: cannot write --report " << file << '\n';
    return false;
}

lint::fail_on fail_on_of(const std::string& name)
{
    return name == "move" ? lint::fail_on::move : name == "none" ? lint::fail_on::none : lint::fail_on::unschedulable;
}

std::string formats_help()
{
    std::string help = "output format:";
    for (const auto& f : lint::output_formats())
        help.append(" ").append(f.name);
    return help;
}

int run_lint_command(const lint_flags& flags)
{
    const lint::output_format* format = lint::find_output_format(flags.output);
    if ((!flags.workloads.empty() || !flags.bindings.empty()) && flags.clusters.empty()) {
        std::cerr << "lint: --workloads and --bindings need --clusters (the snapshot to schedule them on)\n";
        return exit_usage;
    }
    if (!check_diff_flags(flags))
        return exit_usage;
    lint::input_set inputs = lint::collect_inputs(flags.paths.empty() ? std::vector<std::string>{"-"} : flags.paths);
    lint::lint_options options = flags.options;
    options.unschedulable_is_error = flags.unschedulable == "error";
    options.field_validation = *schema::parse_field_validation(flags.validate); // checked by CLI11
    auto gates = settings::parse_feature_gates(flags.feature_gates);
    if (!gates) {
        std::cerr << "lint: --feature-gates: " << gates.error().message << '\n';
        return exit_usage;
    }
    options.feature_gates = *gates;
    std::unique_ptr<lint::dry_run_context> dry_run;
    if (!flags.clusters.empty()) {
        dry_run = lint::load_dry_run(flags.clusters, flags.workloads, flags.bindings, options.default_namespace,
                                     inputs.errors);
        dry_run->options.legacy_default_tolerations = flags.legacy_tolerations;
        dry_run->gates = options.feature_gates;
        dry_run->options.gates = &dry_run->gates;
        // Every considered cluster is part of -o json and --explain; the short text output counts the
        // clusters each group left out, so the rows are always computed.
        dry_run->options.explain = true;
        // A successful re-schedule writes lastScheduledTime = now; nothing else reads the clock.
        dry_run->now = static_cast<model::timestamp>(std::time(nullptr));
        options.dry_run = dry_run.get();
    }
    lint::report report = lint::run_lint(inputs, options);
    add_base_diff(flags, options, report);
    report.link_base = flags.link_base;
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

} // namespace

command add_lint_command(CLI::App& parent)
{
    auto flags = std::make_shared<lint_flags>();
    auto* sub = parent.add_subcommand(
        "lint", "Validate PropagationPolicy/ClusterPropagationPolicy manifests as kubectl apply to Karmada would.\n"
                "With --clusters/--workloads, also predicts karmada-scheduler's decision for every claimed workload.\n"
                "Exit 0: all allowed; 1: a policy is denied or a workload unschedulable; 2: usage, I/O or parse error.");
    sub->add_option("paths", flags->paths, "files, directories (recursive *.yaml *.yml *.json) or - for stdin");
    std::vector<std::string> names;
    for (const auto& f : lint::output_formats())
        names.emplace_back(f.name);
    sub->add_option("-o,--output", flags->output, formats_help())
        ->check(CLI::IsMember(names))
        ->capture_default_str();
    sub->add_option("-n,--namespace", flags->options.default_namespace,
                    "namespace of PropagationPolicies that set none (kubectl's default)")
        ->capture_default_str();
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
    sub->add_option("--unschedulable", flags->unschedulable,
                    "an unschedulable workload is an error (exit 1) or only a warning")
        ->check(CLI::IsMember({"error", "warn"}))
        ->capture_default_str();
    sub->add_flag("--explain", flags->options.explain,
                  "dry run: for every affinity group tried, every cluster considered and why it got what it got "
                  "(always present in -o json)");
    sub->add_flag("--legacy-default-tolerations", flags->legacy_tolerations,
                  "dry run as Karmada v1.3-v1.14, whose webhook added NoExecute tolerations for "
                  "not-ready/unreachable clusters");
    sub->add_option("--base", flags->base,
                    "diff placements: the base policies (e.g. the target branch's; file, directory or -), "
                    "scheduled on the same snapshot; repeat the flag for several")
        ->allow_extra_args(false);
    sub->add_option("--fail-on", flags->fail_on,
                    "exit 1 on: unschedulable (a denial or an unschedulable workload), move (also any placement "
                    "change against --base), none (denials only)")
        ->check(CLI::IsMember({"unschedulable", "move", "none"}))
        ->capture_default_str();
    sub->add_option("--link-base", flags->link_base,
                    "-o markdown and --report: link file:line to URL/<file>#L<line> (e.g. a blob URL at the PR head)");
    sub->add_option("--report", flags->html_report,
                    "also write a self-contained HTML report (placement bars, the diff, findings) to this file");
    sub->add_option("--feature-gates", flags->feature_gates,
                    "Karmada feature gates the dry run assumes, as karmada-scheduler takes them "
                    "(MultiplePodTemplatesScheduling=true,...); others keep Karmada's defaults");
    sub->add_option("--validate", flags->validate,
                    "field validation as kubectl apply's flag of that name: strict (kubectl's default) refuses a "
                    "policy with a field the CRD does not define, as the API server does (error, exit 1); warn "
                    "only warns (the server drops the field); ignore says nothing. true and false are strict "
                    "and ignore")
        ->check(CLI::IsMember({"strict", "warn", "ignore", "true", "false"}))
        ->capture_default_str();
    sub->add_flag("--allow-aggregated-overflow", flags->options.validation.allow_aggregated_overflow,
                  "also accept overflowAffinities with Divided + Aggregated scheduling (newer Karmada)");
    return {sub, [flags] { return run_lint_command(*flags); }};
}

} // namespace kpw::cli
