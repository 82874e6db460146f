// SPDX-License-Identifier: Apache-2.0
// live_config: where serve's live reads go (--kubeconfig/--context, or --in-cluster), resolved as kubectl does.
#pragma once

#include "base/result.hpp"
#include "kube/kubeconfig.hpp"
#include "server/options.hpp"

namespace kpw::server {

// The connection for options.live(); a failure names the flag ("--kubeconfig: ...").
result<kube::rest_config> live_rest_config(const serve_options& o);

} // namespace kpw::server
