// SPDX-License-Identifier: Apache-2.0
// live_snapshot: serve's cluster snapshot (and, with --live-workloads, the known workloads) kept current by
// list + watch of karmada-apiserver instead of files. It never holds up admission: until the first
// sync, and while the server is unreachable, the last snapshot (or none) stays in use; state changes
// are logged once each and shown in /metrics. Each workload kind is resolved to its resource by discovery
// (never a guessed plural); a kind the server does not serve is an error logged once and shown in /metrics,
// and the snapshot is published without it (discovery is asked again, so a CRD installed later is taken up).
#pragma once

#include <atomic>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "kube/reflector.hpp"
#include "server/logger.hpp"
#include "server/metrics.hpp"
#include "snapshot/holder.hpp"

namespace kpw::server {

struct live_snapshot_options {
    kube::backoff_policy discovery_backoff; // between discovery attempts while the server is unreachable
    std::chrono::milliseconds rediscover{60'000}; // between discovery attempts for kinds the server does not serve
    std::size_t max_objects = 0; // --live-max-objects per watched collection (0: no limit)
};

class live_snapshot {
public:
    // `workload_kinds`: "apps/v1/Deployment" (apiVersion/Kind) per kind to keep as known workloads.
    // `o.max_objects` (0: no limit) bounds each watched collection: over it, the collection's objects and
    // the snapshot are dropped (logged, state over_limit in /metrics) until a list fits again.
    live_snapshot(kube::rest_config config, kube::client_options options, const std::vector<std::string>& workload_kinds,
                  std::shared_ptr<snapshot::holder> target, metrics& stats, const logger& log,
                  live_snapshot_options o = {});
    ~live_snapshot();

    void start();
    void stop(); // thread-safe; joins the watch threads

private:
    struct watched;
    void changed(std::size_t index, const kube::kept_map& objects);
    void state_changed(std::size_t index, const kube::reflector_status& status);
    void degrade(std::size_t index, const std::string& fields);
    void rebuild();
    void resolve_kinds(); // the discovery thread: until every workload kind has its reflector, or stop
    void start_reflector(std::size_t index, bool run);

    std::shared_ptr<snapshot::holder> target_;
    metrics& stats_;
    const logger& log_;
    std::mutex mutex_; // guards the stores and the rebuild (reflector threads call in)
    std::vector<std::unique_ptr<watched>> watched_; // [0] = Clusters, then one per workload kind

    kube::rest_config config_;
    kube::client_options client_options_;
    live_snapshot_options options_;
    std::thread resolver_;
    std::mutex resolver_mutex_;
    std::condition_variable resolver_wake_;
    std::atomic<bool> stopping_{false};
};

// "apps/v1/Deployment" -> group, version and kind; the resource (plural) is left empty: only discovery
// knows it (Gateway is served as gateways, a CRD's kind Foo may be served as anything). A failure names
// the expected form.
result<kube::api_resource> workload_resource(std::string_view api_version_kind);

} // namespace kpw::server
