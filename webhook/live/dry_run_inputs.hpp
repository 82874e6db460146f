// SPDX-License-Identifier: Apache-2.0
// dry_run_inputs: the dry run's inputs that were not given as files, read from karmada-apiserver.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "base/result.hpp"
#include "kube/client.hpp"
#include "lint/inputs.hpp"

namespace kpw::live {

// What a dry run reads from the server when its file flag was not given (nullopt: given as files, or
// not wanted). Messages from the reads ("no Deployment served ...") go to `notes`.
struct live_dry_run_inputs {
    std::optional<lint::input_set> clusters, workloads, bindings;
    std::vector<std::string> notes;
};
struct live_wants {
    bool clusters = false, workloads = false, bindings = false;
};
// Workloads are the templates `policies` select (workload_queries).
result<live_dry_run_inputs> read_live_inputs(kube::client& client, const live_wants& wants,
                                             const lint::input_set& policies, const std::string& default_namespace);

} // namespace kpw::live
