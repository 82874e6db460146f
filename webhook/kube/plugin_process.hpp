// SPDX-License-Identifier: Apache-2.0
// plugin_process: runs a credential plugin the way client-go's exec authenticator does through Go's os/exec:
// stdin /dev/null, stdout captured, stderr shared, and no other descriptor of ours (Go opens every descriptor
// close-on-exec; here libraries open their own, so the child closes everything from 3 up). Bounded in time
// and output; past either, its whole process group is killed.
#pragma once

#include <chrono>
#include <cstddef>
#include <string>
#include <vector>

namespace kpw::kube {

struct plugin_run {
    enum class ending { exited, timed_out, too_large, read_failed };
    int spawn_error = 0; // errno of starting it (ENOENT: no such executable); then nothing ran
    ending end = ending::exited;
    int wait_status = 0; // as waitpid reports it, when it exited
    std::string out;     // its stdout
};

// `argv[0]` is looked up in PATH as execvp does; `env` is its whole environment ("NAME=value").
plugin_run run_plugin_process(const std::vector<std::string>& argv, std::vector<std::string> env,
                              std::chrono::milliseconds timeout, std::size_t max_output);

} // namespace kpw::kube
