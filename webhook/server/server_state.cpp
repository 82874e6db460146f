// SPDX-License-Identifier: Apache-2.0
// One policy handler per webhook path, configured from the serve options.
#include "server/server_state.hpp"

namespace kpw::server {
namespace {

std::unique_ptr<admission::policy_handler> make_handler(const serve_options& o, std::optional<policy_kind> kind,
                                                        const std::shared_ptr<snapshot::holder>& known)
{
    admission::policy_handler_options h;
    h.require_permanent_id = o.require_permanent_id;
    h.validation.allow_aggregated_overflow = o.allow_aggregated_overflow;
    h.validation.release = o.release;
    h.only_kind = kind;
    h.cluster_snapshot = known;
    return std::make_unique<admission::policy_handler>(std::move(h));
}

} // namespace

server_state::server_state(const serve_options& options, std::string version)
    : options_(options),
      snapshot_(options.has_snapshot() ? std::make_shared<snapshot::holder>() : nullptr),
      handlers_{make_handler(options, std::nullopt, snapshot_),
                make_handler(options, policy_kind::propagation_policy, snapshot_),
                make_handler(options, policy_kind::cluster_propagation_policy, snapshot_)},
      metrics_(std::move(version)),
      log_(options.verbosity),
      connections_(options.max_connections, &metrics_),
      probe_connections_(options.max_probe_connections, nullptr)
{
}

} // namespace kpw::server
