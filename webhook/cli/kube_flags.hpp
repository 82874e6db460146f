// SPDX-License-Identifier: Apache-2.0
// --kubeconfig / --context: the flags that make a command read karmada-apiserver, kubectl's way.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "base/result.hpp"
#include "kube/client.hpp"

namespace kpw::cli {

struct kube_flags {
    std::string kubeconfig;
    std::string context;
    std::string request_timeout = "30s"; // kubectl's --request-timeout syntax: 30s, 1m, 500ms; 0 = none
    // Live reads are asked for with --kubeconfig or --context; $KUBECONFIG alone never contacts a server.
    bool requested() const { return !kubeconfig.empty() || !context.empty(); }
};

void add_kube_flags(CLI::App& sub, kube_flags& flags);

// The resolved connection: --kubeconfig, else $KUBECONFIG, else ~/.kube/config; --context or current-context.
result<kube::rest_config> load_rest_config(const kube_flags& flags);
result<kube::client_options> client_options_of(const kube_flags& flags);

} // namespace kpw::cli
