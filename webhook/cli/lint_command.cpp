// SPDX-License-Identifier: Apache-2.0
// `lint`: the CI dry-run face of the webhook.
#include "cli/command.hpp"

#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "lint/lint.hpp"
#include "lint/render.hpp"

namespace kpw::cli {
namespace {

struct lint_flags {
    std::vector<std::string> paths;
    std::string output = "text";
    lint::lint_options options;
};

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
    const lint::input_set inputs = lint::collect_inputs(flags.paths.empty() ? std::vector<std::string>{"-"} : flags.paths);
    const lint::report report = lint::run_lint(inputs, flags.options);
    format->render(report, std::cout);
    std::cout.flush();
    // Broken inputs also go to stderr, whatever the format, so a CI log always shows them.
    if (flags.output != "text")
        for (const auto& e : report.file_errors)
            std::cerr << e.str() << '\n';
    return lint::exit_code(report);
}

} // namespace

command add_lint_command(CLI::App& parent)
{
    auto flags = std::make_shared<lint_flags>();
    auto* sub = parent.add_subcommand(
        "lint", "Validate PropagationPolicy/ClusterPropagationPolicy manifests as kubectl apply to Karmada would.\n"
                "Exit 0: all allowed; 1: a policy is denied; 2: usage, I/O or parse error.");
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
    sub->add_flag("--allow-aggregated-overflow", flags->options.validation.allow_aggregated_overflow,
                  "also accept overflowAffinities with Divided + Aggregated scheduling (newer Karmada)");
    return {sub, [flags] { return run_lint_command(*flags); }};
}

} // namespace kpw::cli
