// SPDX-License-Identifier: Apache-2.0
// The router: (port, method, target) -> what to serve, as a pure function.
#pragma once

#include <string_view>

#include <boost/beast/http/verb.hpp>

#include "server/metrics.hpp"

namespace kpw::server {

// Which listener a request arrived on; each serves its own paths.
enum class port_role { webhook, health, metrics };

enum class endpoint { review, readyz, healthz, metrics, not_found, method_not_allowed };

struct route {
    endpoint what = endpoint::not_found;
    webhook_path webhook = webhook_path::validate; // meaningful for endpoint::review
    std::string_view allow;                        // the Allow header for method_not_allowed
};

// Routes on the path only: the query string (kube-apiserver's ?timeout=3s) is ignored, paths match
// exactly (no redirects). Webhook paths take POST only; probes and /metrics take GET and HEAD.
// The webhook port also answers GET /readyz and /readyz/ (Karmada's readiness probe targets it).
route route_request(port_role role, boost::beast::http::verb method, std::string_view target);

} // namespace kpw::server
