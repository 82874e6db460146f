// SPDX-License-Identifier: Apache-2.0
#include "server/live_config.hpp"

#include <cstdlib>
#include <string>

namespace kpw::server {
namespace {

std::string env_or_empty(const char* name)
{
    const char* v = std::getenv(name);
    return v != nullptr ? v : "";
}

} // namespace

result<kube::rest_config> live_rest_config(const serve_options& o)
{
    auto config = o.in_cluster
                      ? kube::in_cluster_config()
                      : kube::load_kubeconfig({o.kubeconfig, env_or_empty("KUBECONFIG"), env_or_empty("HOME"), o.context});
    if (!config)
        return failure{(o.in_cluster ? "--in-cluster: " : "--kubeconfig: ") + config.error().message, {}};
    return config;
}

} // namespace kpw::server
