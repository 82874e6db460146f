// SPDX-License-Identifier: Apache-2.0
#include "cli/command.hpp"

namespace kpw::cli {

command add_lint_command(CLI::App& parent)
{
    auto* sub = parent.add_subcommand("lint", "Validate policy files as the API server and Karmada's webhook would");
    return {sub, [] { return exit_ok; }};
}

} // namespace kpw::cli
