// SPDX-License-Identifier: Apache-2.0
// karmada-policy-webhook: `serve` (validating admission webhook), `lint` (CI dry run), `plan` (what applying
// policies to a live control plane would move), `simulate` (drills), `certs`.
#include <exception>
#include <iostream>
#include <vector>

#include "cli/command.hpp"
#include "version.hpp"

int main(int argc, char** argv)
{
    CLI::App app{"Validating admission webhook and CI linter for Karmada PropagationPolicy and "
                 "ClusterPropagationPolicy objects",
                 "karmada-policy-webhook"};
    app.require_subcommand(1);
    app.set_version_flag("--version", KPW_VERSION_LINE);

    const std::vector<kpw::cli::command> commands = {
        kpw::cli::add_lint_command(app),
        kpw::cli::add_plan_command(app),
        kpw::cli::add_serve_command(app),
        kpw::cli::add_simulate_command(app),
        kpw::cli::add_certs_command(app),
    };

    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        const int code = app.exit(e); // prints help/version on stdout, usage errors on stderr
        return code == 0 ? kpw::cli::exit_ok : kpw::cli::exit_usage;
    }

    try {
        for (const auto& c : commands)
            if (c.app->parsed())
                return c.run();
    } catch (const std::exception& e) {
        std::cerr << "karmada-policy-webhook: " << e.what() << "\n";
    } catch (...) {
        std::cerr << "karmada-policy-webhook: unexpected error\n";
    }
    return kpw::cli::exit_usage;
}
