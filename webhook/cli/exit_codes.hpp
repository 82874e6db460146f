// SPDX-License-Identifier: Apache-2.0
// Exit codes shared by every subcommand (lint's contract: 0 clean, 1 findings, 2 broken run).
#pragma once

namespace kpw::cli {

inline constexpr int exit_ok = 0;
inline constexpr int exit_findings = 1;
inline constexpr int exit_usage = 2;

} // namespace kpw::cli
