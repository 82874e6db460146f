// SPDX-License-Identifier: Apache-2.0
// A subcommand of the karmada-policy-webhook binary: its CLI11 definition and what runs it.
#pragma once

#include <functional>

#include <CLI/CLI.hpp>

#include "cli/exit_codes.hpp"

namespace kpw::cli {

struct command {
    CLI::App* app = nullptr;
    std::function<int()> run;
};

command add_lint_command(CLI::App& parent);
command add_plan_command(CLI::App& parent);
command add_serve_command(CLI::App& parent);
command add_simulate_command(CLI::App& parent);
command add_certs_command(CLI::App& parent);

} // namespace kpw::cli
