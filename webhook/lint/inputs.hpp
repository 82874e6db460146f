// SPDX-License-Identifier: Apache-2.0
// Collects lint inputs: files, directories (recursive, sorted) and "-" for standard input.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "doc/value.hpp"
#include "lint/report.hpp"

namespace kpw::lint {

struct input_file {
    std::string name; // as shown in reports: the path as given/walked, or "<stdin>"
    std::string text;
    bool is_stdin = false;
    // Read from the API server (plan, --kubeconfig), not a file kubectl apply would send: kubectl's
    // checks of what it sends (-n) do not apply to it.
    bool from_server = false;
};

struct input_set {
    std::vector<input_file> files;
    std::vector<file_error> errors; // unreadable paths; the run still lints the rest
};

// Largest file lint reads; anything bigger is an error, not a memory spike. As large as a list the
// live client accepts (kube::client_options::max_body_bytes): `kubectl get clusters -o yaml` of 5,000
// Clusters is 119 MiB, and an export must load wherever the live read of the same objects does.
inline constexpr std::size_t max_input_bytes = 512u << 20;

// Directories are walked recursively for *.yaml, *.yml and *.json in sorted order; symlinked
// directories are not followed (no loops). A named file is read whatever its extension.
input_set collect_inputs(const std::vector<std::string>& paths);

} // namespace kpw::lint
