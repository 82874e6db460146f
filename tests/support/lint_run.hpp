// SPDX-License-Identifier: Apache-2.0
// Runs `karmada-policy-webhook lint` (the built binary) and reads its JSON report, for end-to-end tests.
#pragma once

#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "doc/load.hpp"
#include "support/process.hpp"

namespace kpw::test {

inline process_result run_lint(std::vector<std::string> args, const std::string& stdin_text = {})
{
    args.insert(args.begin(), {KPW_BINARY, "lint"});
    return run_process(args, stdin_text);
}

// The parsed JSON of a report; fails the test (showing the text) when it is not JSON.
inline doc::value json_of(const std::string& out)
{
    auto parsed = doc::parse_json(out);
    REQUIRE_MESSAGE(parsed.ok(), out);
    return *parsed;
}

} // namespace kpw::test
