// SPDX-License-Identifier: Apache-2.0
// Metric bookkeeping and the Prometheus text exposition.
#include "server/metrics.hpp"

#include <cstdio>

#include <boost/version.hpp>
#include <openssl/opensslv.h>

namespace kpw::server {
namespace {

std::string number(double v)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.9g", v);
    return buf;
}

void header(std::string& out, const char* name, const char* type, const char* help)
{
    out.append("# HELP ").append(name).append(" ").append(help).append("\n");
    out.append("# TYPE ").append(name).append(" ").append(type).append("\n");
}

std::string label(webhook_path w)
{
    return "webhook=\"" + std::string(path_of(w)) + "\"";
}

} // namespace

std::string_view path_of(webhook_path w)
{
    switch (w) {
    case webhook_path::validate: return "/validate";
    case webhook_path::propagation_policy: return "/validate-propagationpolicy";
    case webhook_path::cluster_propagation_policy: return "/validate-clusterpropagationpolicy";
    }
    return "";
}

void metrics::begin_request(webhook_path w)
{
    in_flight_[static_cast<std::size_t>(w)].fetch_add(1, std::memory_order_relaxed);
}

void metrics::abandon_request(webhook_path w)
{
    in_flight_[static_cast<std::size_t>(w)].fetch_sub(1, std::memory_order_relaxed);
}

void metrics::end_request(webhook_path w, unsigned http_status, std::chrono::nanoseconds latency,
                          const std::vector<std::string>& denial_causes)
{
    const auto i = static_cast<std::size_t>(w);
    // First: whatever fails below (a map insert out of memory), the request is no longer in flight.
    in_flight_[i].fetch_sub(1, std::memory_order_relaxed);
    const double seconds = std::chrono::duration<double>(latency).count();
    std::size_t bucket = 0;
    while (bucket < latency_buckets.size() && seconds > latency_buckets[bucket])
        ++bucket;
    {
        std::lock_guard lock(mutex_);
        ++requests_[i][http_status];
        histogram& h = latency_[i];
        if (bucket < h.counts.size())
            ++h.counts[bucket];
        ++h.count;
        h.sum += seconds;
        for (const auto& cause : denial_causes)
            ++denials_[{i, cause}];
    }
}

void metrics::certificate_reload(bool ok)
{
    (ok ? reloads_ok_ : reloads_failed_).fetch_add(1, std::memory_order_relaxed);
}

void metrics::snapshot_loaded(std::size_t clusters, std::size_t workloads)
{
    snapshot_clusters_.store(clusters, std::memory_order_relaxed);
    snapshot_workloads_.store(workloads, std::memory_order_relaxed);
    snapshot_enabled_.store(true, std::memory_order_release);
}

void metrics::live_watch(const std::string& resource, const std::string& state, std::size_t objects, double last_sync)
{
    const std::lock_guard lock(mutex_);
    live_[resource] = {state, objects, last_sync};
}

void metrics::snapshot_reload(bool ok)
{
    (ok ? snapshot_reloads_ok_ : snapshot_reloads_failed_).fetch_add(1, std::memory_order_relaxed);
}

void metrics::connection_rejected()
{
    rejected_.fetch_add(1, std::memory_order_relaxed);
}

void metrics::render_requests(std::string& out) const
{
    header(out, "controller_runtime_webhook_requests_total", "counter",
           "Total number of admission requests by HTTP status code.");
    for (std::size_t i = 0; i < webhook_path_count; ++i)
        for (const auto& [code, n] : requests_[i])
            out += "controller_runtime_webhook_requests_total{code=\"" + std::to_string(code) + "\"," +
                   label(webhook_path(i)) + "} " + std::to_string(n) + "\n";
    header(out, "controller_runtime_webhook_requests_in_flight", "gauge",
           "Current number of admission requests being served.");
    for (std::size_t i = 0; i < webhook_path_count; ++i)
        out += "controller_runtime_webhook_requests_in_flight{" + label(webhook_path(i)) + "} " +
               std::to_string(in_flight_[i].load(std::memory_order_relaxed)) + "\n";
    header(out, "karmada_policy_webhook_denials_total", "counter",
           "Admission requests not allowed, by webhook and reason (field error type or rule).");
    for (const auto& [key, n] : denials_)
        out += "karmada_policy_webhook_denials_total{reason=\"" + key.second + "\"," + label(webhook_path(key.first)) +
               "} " + std::to_string(n) + "\n";
}

void metrics::render_latency(std::string& out) const
{
    header(out, "controller_runtime_webhook_latency_seconds", "histogram",
           "Histogram of the latency of processing admission requests");
    for (std::size_t i = 0; i < webhook_path_count; ++i) {
        const histogram& h = latency_[i];
        const std::string name = "controller_runtime_webhook_latency_seconds";
        const std::string lbl = label(webhook_path(i));
        std::uint64_t cumulative = 0;
        for (std::size_t b = 0; b < latency_buckets.size(); ++b) {
            cumulative += h.counts[b];
            out += name + "_bucket{" + lbl + ",le=\"" + number(latency_buckets[b]) + "\"} " +
                   std::to_string(cumulative) + "\n";
        }
        out += name + "_bucket{" + lbl + ",le=\"+Inf\"} " + std::to_string(h.count) + "\n";
        out += name + "_sum{" + lbl + "} " + number(h.sum) + "\n";
        out += name + "_count{" + lbl + "} " + std::to_string(h.count) + "\n";
    }
}

void metrics::render_other(std::string& out) const
{
    header(out, "karmada_policy_webhook_build_info", "gauge", "Build information; the value is always 1.");
    out += "karmada_policy_webhook_build_info{version=\"" + version_ + "\",boost=\"" BOOST_LIB_VERSION
           "\",openssl=\"" OPENSSL_VERSION_STR "\"} 1\n";
    header(out, "karmada_policy_webhook_certificate_reloads_total", "counter",
           "Serving certificate reloads after the files changed, by result.");
    out += "karmada_policy_webhook_certificate_reloads_total{result=\"success\"} " +
           std::to_string(reloads_ok_.load()) + "\n";
    out += "karmada_policy_webhook_certificate_reloads_total{result=\"failure\"} " +
           std::to_string(reloads_failed_.load()) + "\n";
    header(out, "karmada_policy_webhook_open_connections", "gauge", "Open webhook (TLS) connections.");
    out += "karmada_policy_webhook_open_connections " + std::to_string(open_connections_.load()) + "\n";
    header(out, "karmada_policy_webhook_rejected_connections_total", "counter",
           "Connections closed on accept because the connection cap was reached.");
    out += "karmada_policy_webhook_rejected_connections_total " + std::to_string(rejected_.load()) + "\n";
}

void metrics::live_kind(const std::string& api_version_kind, bool served)
{
    const std::lock_guard lock(mutex_);
    live_kinds_[api_version_kind] = served;
}

void metrics::render_live(std::string& out) const
{
    const std::lock_guard lock(mutex_);
    if (!live_kinds_.empty()) {
        header(out, "karmada_policy_webhook_live_workload_kind_served", "gauge",
               "serve --live-workloads: 1 when discovery found the kind served, 0 when karmada-apiserver does not "
               "serve it (the live snapshot is published without its workloads).");
        for (const auto& [kind, served] : live_kinds_)
            out += "karmada_policy_webhook_live_workload_kind_served{kind=\"" + kind + "\"} " + (served ? "1" : "0") + "\n";
    }
    if (live_.empty())
        return;
    static constexpr const char* states[] = {"starting", "synced", "retrying", "over_limit", "stopped"};
    header(out, "karmada_policy_webhook_live_watch_state", "gauge",
           "serve --kubeconfig: 1 for the state each watched collection is in (list + watch of karmada-apiserver).");
    for (const auto& [resource, l] : live_)
        for (const char* st : states)
            out += "karmada_policy_webhook_live_watch_state{resource=\"" + resource + "\",state=\"" + st + "\"} " +
                   (l.state == st ? "1" : "0") + "\n";
    header(out, "karmada_policy_webhook_live_objects", "gauge", "serve --kubeconfig: objects held per watched collection.");
    for (const auto& [resource, l] : live_)
        out += "karmada_policy_webhook_live_objects{resource=\"" + resource + "\"} " + std::to_string(l.objects) + "\n";
    header(out, "karmada_policy_webhook_live_last_sync_timestamp_seconds", "gauge",
           "serve --kubeconfig: when each watched collection last listed or received an event (0: never).");
    for (const auto& [resource, l] : live_)
        out += "karmada_policy_webhook_live_last_sync_timestamp_seconds{resource=\"" + resource + "\"} " +
               std::to_string(static_cast<std::int64_t>(l.last_sync)) + "\n";
}

void metrics::render_snapshot(std::string& out) const
{
    if (!snapshot_enabled_.load(std::memory_order_acquire))
        return;
    header(out, "karmada_policy_webhook_snapshot_clusters", "gauge", "Clusters in the loaded --clusters snapshot.");
    out += "karmada_policy_webhook_snapshot_clusters " + std::to_string(snapshot_clusters_.load()) + "\n";
    header(out, "karmada_policy_webhook_snapshot_workloads", "gauge", "Known workloads loaded from --workloads.");
    out += "karmada_policy_webhook_snapshot_workloads " + std::to_string(snapshot_workloads_.load()) + "\n";
    header(out, "karmada_policy_webhook_snapshot_reloads_total", "counter",
           "Cluster snapshot reloads after the files changed, by result.");
    out += "karmada_policy_webhook_snapshot_reloads_total{result=\"success\"} " +
           std::to_string(snapshot_reloads_ok_.load()) + "\n";
    out += "karmada_policy_webhook_snapshot_reloads_total{result=\"failure\"} " +
           std::to_string(snapshot_reloads_failed_.load()) + "\n";
}

std::string metrics::render() const
{
    std::string out;
    out.reserve(8192);
    {
        std::lock_guard lock(mutex_);
        render_requests(out);
        render_latency(out);
    }
    render_other(out);
    render_snapshot(out);
    render_live(out);
    return out;
}

} // namespace kpw::server
