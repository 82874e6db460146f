// SPDX-License-Identifier: Apache-2.0
// serve_options: everything `serve` is configured with (flags map onto it one to one).
#pragma once

#include <chrono>
#include <cstddef>
#include <string>
#include <vector>

#include "settings/karmada_release.hpp"

namespace kpw::server {

struct serve_options {
    // Karmada's karmada-webhook flag names and defaults (cmd/webhook/app/options/options.go).
    std::string bind_address = "0.0.0.0";
    int secure_port = 8443; // 0 = pick a free port (logged, and written to port_file)
    std::string cert_dir = "/tmp/k8s-webhook-server/serving-certs";
    std::string tls_cert_file_name = "tls.crt";
    std::string tls_private_key_file_name = "tls.key";
    std::string tls_min_version = "1.2";
    std::string health_probe_bind_address = ":8000"; // "0" disables
    std::string metrics_bind_address = ":8080";       // "0" disables

    std::string client_ca_file; // non-empty: require and verify client certificates (mTLS)
    int threads = 0;            // 0 = one per CPU
    bool allow_aggregated_overflow = false;
    // --karmada-version, else with a live snapshot the server's release (cli/karmada_version), else the newest.
    settings::karmada_release release = settings::newest_karmada_release;
    bool require_permanent_id = true;
    bool self_signed = false; // generate a development CA + certificate when cert_dir has none
    std::string port_file;    // written once all listeners are bound: "<role> <host>:<port>" lines
    int verbosity = 0;        // 0: failures and non-allowed reviews; 1: every review; 2: connections

    std::size_t max_connections = 1024;
    // The health and metrics ports (kubelet probes, a Prometheus scraper): their own small cap,
    // so that clients there cannot take memory or the webhook port's connection slots.
    std::size_t max_probe_connections = 64;
    std::chrono::seconds shutdown_grace{25}; // below the pod's default terminationGracePeriodSeconds (30)
    std::chrono::milliseconds cert_poll_interval{1000};

    // --clusters / --workloads: the snapshot behind the admission warnings (empty: no snapshot).
    std::vector<std::string> clusters;
    std::vector<std::string> workloads;
    std::chrono::milliseconds snapshot_poll_interval{1000};

    // --kubeconfig / --context / --in-cluster: the same snapshot kept by list + watch of karmada-apiserver.
    std::string kubeconfig;
    std::string context;
    bool in_cluster = false;
    std::vector<std::string> live_workloads; // --live-workloads apps/v1/Deployment ...
    // --live-max-objects: per watched collection; more and the live snapshot is dropped (issue 38). The
    // default, 10,000 Clusters, peaks at about 380 MiB: the live-snapshot overlay's 512Mi limit holds it
    // (BENCHMARKS.md, "serve's live snapshot: memory").
    std::size_t live_max_objects = 10'000;
    bool live() const { return !kubeconfig.empty() || !context.empty() || in_cluster; }
    bool has_snapshot() const { return !clusters.empty() || live(); }

    // Per-step limits (style.md §1.4): a timeout before every step.
    std::chrono::seconds handshake_timeout{10};
    std::chrono::seconds idle_timeout{120}; // above Go's 90 s IdleConnTimeout: the client closes first
    std::chrono::seconds read_timeout{30};
    std::chrono::seconds write_timeout{30};
    std::size_t header_limit = 32 * 1024;
};

} // namespace kpw::server
