// SPDX-License-Identifier: Apache-2.0
// live_snapshot: serve's cluster snapshot (and, with --live-workloads, the known workloads) kept current by
// list + watch of karmada-apiserver instead of files. It never holds up admission: until the first
// sync, and while the server is unreachable, the last snapshot (or none) stays in use; state changes
// are logged once each and shown in /metrics.
#pragma once

#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "kube/reflector.hpp"
#include "server/logger.hpp"
#include "server/metrics.hpp"
#include "snapshot/holder.hpp"

namespace kpw::server {

class live_snapshot {
public:
    // `workload_kinds`: "apps/v1/Deployment" (apiVersion/Kind) per kind to keep as known workloads.
    // `max_objects` (0: no limit) bounds each watched collection: over it, the collection's objects and
    // the snapshot are dropped (logged, state over_limit in /metrics) until a list fits again.
    live_snapshot(kube::rest_config config, kube::client_options options, const std::vector<std::string>& workload_kinds,
                  std::shared_ptr<snapshot::holder> target, metrics& stats, const logger& log, std::size_t max_objects = 0);
    ~live_snapshot();

    void start();
    void stop(); // thread-safe; joins the watch threads

private:
    struct watched;
    void changed(std::size_t index, const kube::kept_map& objects);
    void state_changed(std::size_t index, const kube::reflector_status& status);
    void degrade(std::size_t index, const std::string& fields);
    void rebuild();

    std::shared_ptr<snapshot::holder> target_;
    metrics& stats_;
    const logger& log_;
    std::size_t max_objects_;
    std::mutex mutex_; // guards the stores and the rebuild (reflector threads call in)
    std::vector<std::unique_ptr<watched>> watched_; // [0] = Clusters, then one per workload kind
};

// "apps/v1/Deployment" -> the resource to watch (plural as client-go's UnsafeGuessKindToResource
// makes it: lower case, "y" -> "ies", "s" -> "ses", else + "s"); a failure names the expected form.
result<kube::api_resource> workload_resource(std::string_view api_version_kind);

} // namespace kpw::server
