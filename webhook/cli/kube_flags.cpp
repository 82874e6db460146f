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
                   "how long one API request may take, as kubectl's flag (30s, 1m, 500ms, 5 = 5s; 0: no limit)")
        ->capture_default_str();
}

result<kube::rest_config> load_rest_config(const kube_flags& flags)
{
    return kube::load_kubeconfig({flags.kubeconfig, env_or_empty("KUBECONFIG"), env_or_empty("HOME"), flags.context});
}

result<kube::client_options> client_options_of(const kube_flags& flags)
{
    // clientcmd.ParseTimeout (client-go tools/clientcmd/helpers.go): a bare integer is seconds, else a Go
    // duration; zero ("0", "0s") is no limit.
    kube::client_options options;
    const std::string& text = flags.request_timeout;
    const bool integer = !text.empty() && text.size() <= 9 && text.find_first_not_of("0123456789") == std::string::npos;
    if (integer)
        options.request_timeout = std::chrono::seconds(std::stol(text));
    else {
        auto d = model::parse_go_duration(text);
        if (!d || *d < 0)
            return failure{"--request-timeout " + text + ": not a duration (30s, 1m, 500ms, a number of seconds, or 0 "
                                                         "for no limit)", {}};
        options.request_timeout = std::chrono::ceil<std::chrono::milliseconds>(std::chrono::nanoseconds(*d));
    }
    if (options.request_timeout == std::chrono::milliseconds::zero())
        options.request_timeout = std::chrono::milliseconds::max(); // no limit (the connect timeout stays)
    return options;
}

} // namespace kpw::cli
