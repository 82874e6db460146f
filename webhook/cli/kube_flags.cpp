// SPDX-License-Identifier: Apache-2.0
#include "cli/kube_flags.hpp"

#include <cstdlib>

#include "model/time.hpp"

namespace kpw::cli {

namespace {

std::string env_or_empty(const char* name)
{
    const char* v = std::getenv(name);
    return v != nullptr ? v : "";
}

} // namespace

void add_kube_flags(CLI::App& sub, kube_flags& flags)
{
    sub.add_option("--kubeconfig", flags.kubeconfig,
                   "read what was not given as a file (Clusters, bindings, the selected resource templates) from "
                   "karmada-apiserver with this kubeconfig (else $KUBECONFIG, else ~/.kube/config when --context is set)");
    sub.add_option("--context", flags.context, "the kubeconfig context to use (default: its current-context)");
    sub.add_option("--request-timeout", flags.request_timeout,
                   "how long one API request may take, as kubectl's flag (30s, 1m, 500ms; 0: no limit)")
        ->capture_default_str();
}

result<kube::rest_config> load_rest_config(const kube_flags& flags)
{
    return kube::load_kubeconfig({flags.kubeconfig, env_or_empty("KUBECONFIG"), env_or_empty("HOME"), flags.context});
}

result<kube::client_options> client_options_of(const kube_flags& flags)
{
    kube::client_options options;
    if (flags.request_timeout == "0")
        options.request_timeout = std::chrono::milliseconds::max();
    else {
        auto d = model::parse_go_duration(flags.request_timeout);
        if (!d || *d <= 0)
            return failure{"--request-timeout " + flags.request_timeout + ": not a duration (30s, 1m, 500ms, or 0)", {}};
        options.request_timeout = std::chrono::milliseconds(*d / 1'000'000);
    }
    return options;
}

} // namespace kpw::cli
