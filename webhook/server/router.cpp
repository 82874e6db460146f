// SPDX-License-Identifier: Apache-2.0
// Path and method routing for the webhook, health and metrics listeners.
#include "server/router.hpp"

namespace kpw::server {
namespace {

namespace http = boost::beast::http;

bool is_read(http::verb m)
{
    return m == http::verb::get || m == http::verb::head;
}

route read_only(endpoint what, http::verb method)
{
    return is_read(method) ? route{what, {}, {}} : route{endpoint::method_not_allowed, {}, "GET, HEAD"};
}

route review(webhook_path w, http::verb method)
{
    return method == http::verb::post ? route{endpoint::review, w, {}}
                                      : route{endpoint::method_not_allowed, w, "POST"};
}

} // namespace

route route_request(port_role role, http::verb method, std::string_view target)
{
    const std::string_view path = target.substr(0, target.find('?'));
    const bool readyz = path == "/readyz" || path == "/readyz/";
    switch (role) {
    case port_role::webhook:
        if (path == "/validate")
            return review(webhook_path::validate, method);
        if (path == "/validate-propagationpolicy")
            return review(webhook_path::propagation_policy, method);
        if (path == "/validate-clusterpropagationpolicy")
            return review(webhook_path::cluster_propagation_policy, method);
        if (readyz)
            return read_only(endpoint::readyz, method);
        break;
    case port_role::health:
        if (readyz)
            return read_only(endpoint::readyz, method);
        if (path == "/healthz" || path == "/healthz/")
            return read_only(endpoint::healthz, method);
        break;
    case port_role::metrics:
        if (path == "/metrics")
            return read_only(endpoint::metrics, method);
        break;
    }
    return {};
}

} // namespace kpw::server
