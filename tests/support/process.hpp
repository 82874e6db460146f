// SPDX-License-Identifier: Apache-2.0
// Runs the built binary as a child process for end-to-end tests: stdin in, stdout/stderr/exit code out.
#pragma once

#include <chrono>
#include <string>
#include <vector>

namespace kpw::test {

struct process_result {
    int exit_code = -1;     // -1 when killed by a signal or the timeout
    bool timed_out = false;
    std::string out, err;
    std::chrono::milliseconds elapsed{0};
};

// Runs argv[0] with the given arguments; kills it (SIGKILL) after `timeout`.
process_result run_process(const std::vector<std::string>& argv, const std::string& stdin_text = {},
                           std::chrono::milliseconds timeout = std::chrono::seconds(20));

} // namespace kpw::test
