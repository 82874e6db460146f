// SPDX-License-Identifier: Apache-2.0
// A subcommand of the karmada-policy-webhook binary: its CLI11 definition and what runs it.
#pragma once

#include <functional>

#include <CLI/CLI.hpp>

namespace kpw::cli {

// Exit codes shared by every subcommand (lint's contract: 0 clean, 1 findings, 2 broken run).
inline constexpr int exit_ok = 0;
inline constexpr int exit_findings = 1;
inline constexpr int exit_usage = 2;

struct command {
    CLI::App* app = nullptr;
    std::function<int()> run;
};

command add_lint_command(CLI::App& parent);
command add_serve_command(CLI::App& parent);
command add_certs_command(CLI::App& parent);

} // namespace kpw::cli
