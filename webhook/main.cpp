// SPDX-License-Identifier: Apache-2.0
// karmada-policy-webhook: `serve` (validating admission webhook), `lint` (CI dry run), `plan` (what applying
// policies to a live control plane would move), `simulate` (drills), `certs`.
#include <exception>
#include <iostream>
#include <string>
#include <vector>

#include "cli/command.hpp"
#include "settings/karmada_release.hpp"
#include "version.hpp"

namespace {

// "karmada-policy-webhook 0.1.0 (conforms to Karmada v1.18.2; --karmada-version: v1.16.0, v1.17.1, v1.18.2)":
// name and version first (machine-readable), the default release (tests/conformance/go.mod's pin), then
// every release the binary answers for.
std::string version_line()
{
    std::string releases;
    for (auto r : kpw::settings::supported_karmada_releases())
        releases.append(releases.empty() ? "" : ", ").append(kpw::settings::release_name(r));
    return std::string(KPW_VERSION_LINE).insert(std::string(KPW_VERSION_LINE).size() - 1,
                                                "; --karmada-version: " + releases);
}

} // namespace

int main(int argc, char** argv)
{
    CLI::App app{"Validating admission webhook and CI linter for Karmada PropagationPolicy and "
                 "ClusterPropagationPolicy objects",
                 "karmada-policy-webhook"};
    app.require_subcommand(1);
    app.set_version_flag("--version", version_line());

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
