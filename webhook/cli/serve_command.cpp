// SPDX-License-Identifier: Apache-2.0
// `serve`: flags (Karmada's karmada-webhook names) -> serve_options -> the HTTPS admission server.
#include "cli/command.hpp"

#include <array>
#include <charconv>
#include <memory>

#include <iostream>

#include "cli/karmada_version.hpp"
#include "kube/client.hpp"
#include "server/live_config.hpp"
#include "server/options.hpp"
#include "server/server.hpp"
#include "version.hpp"


namespace kpw::cli {
namespace {

// "25s", "90", "1m": Go-duration-like whole seconds or minutes.
std::string parse_seconds(const std::string& text, std::chrono::seconds& out)
{
    long long n = 0;
    const char* end = text.data() + text.size();
    const auto [p, ec] = std::from_chars(text.data(), end, n);
    const std::string_view unit(p, static_cast<std::size_t>(end - p));
    if (ec != std::errc() || n < 0 || !(unit.empty() || unit == "s" || unit == "m"))
        return "expected a duration such as 25s or 1m, got \"" + text + "\"";
    out = std::chrono::seconds(unit == "m" ? n * 60 : n);
    return {};
}

void add_karmada_flags(CLI::App& sub, server::serve_options& o)
{
    sub.add_option("--bind-address", o.bind_address, "IP address to serve the webhook on")->capture_default_str();
    sub.add_option("--secure-port", o.secure_port, "HTTPS port of the webhook (0 picks a free port, logged)")
        ->capture_default_str()
        ->check(CLI::Range(0, 65535));
    sub.add_option("--cert-dir", o.cert_dir, "Directory holding the serving certificate and key")
        ->capture_default_str();
    sub.add_option("--tls-cert-file-name", o.tls_cert_file_name, "Certificate file name in --cert-dir")
        ->capture_default_str();
    sub.add_option("--tls-private-key-file-name", o.tls_private_key_file_name, "Private key file name in --cert-dir")
        ->capture_default_str();
    sub.add_option("--tls-min-version", o.tls_min_version, "Minimum TLS version: 1.2 or 1.3")->capture_default_str();
    sub.add_option("--health-probe-bind-address", o.health_probe_bind_address,
                   "host:port for /healthz and /readyz over plain HTTP (\"0\" disables)")
        ->capture_default_str();
    sub.add_option("--metrics-bind-address", o.metrics_bind_address,
                   "host:port for /metrics over plain HTTP (\"0\" disables)")
        ->capture_default_str();
}

void add_own_flags(CLI::App& sub, server::serve_options& o)
{
    sub.add_option("--client-ca-file", o.client_ca_file,
                   "Require client certificates signed by this CA bundle (mTLS; off when empty)");
    sub.add_option("--threads", o.threads, "Worker threads (0 = one per CPU)")->capture_default_str()->check(
        CLI::Range(0, 256));
    sub.add_flag("--allow-aggregated-overflow", o.allow_aggregated_overflow,
                 "Also admit overflow tiers with Divided + Aggregated scheduling (newer Karmada)");
    sub.add_flag("--require-permanent-id", o.require_permanent_id,
                 "Require the permanent-id label Karmada's mutating webhook sets; "
                 "--require-permanent-id=false for clusters without it")
        ->capture_default_str();
    sub.add_flag("--self-signed", o.self_signed,
                 "Generate a development CA + certificate into --cert-dir when it has none "
                 "(addresses not given default to 127.0.0.1)");
    sub.add_option("--port-file", o.port_file, "Write \"<role> <host>:<port>\" lines here once listening");
    sub.add_option("--v", o.verbosity, "Log verbosity: 0 failures and denials, 1 every review, 2 connections")
        ->capture_default_str();
    sub.add_option("--max-connections", o.max_connections, "Concurrent webhook connections; more are closed")
        ->capture_default_str()
        ->check(CLI::Range(1, 1000000));
}

// The dry-run snapshot behind the admission warnings, read as `lint --clusters/--workloads` reads it.
void add_snapshot_flags(CLI::App& sub, server::serve_options& o)
{
    sub.add_option("--clusters", o.clusters,
                   "Cluster snapshot (kubectl get clusters -o yaml; file or directory, reloaded on change): warn "
                   "when an admitted policy's affinity matches no cluster or leaves a known workload unschedulable; "
                   "repeat the flag for several")
        ->allow_extra_args(false);
    sub.add_option("--workloads", o.workloads,
                   "Known workloads (file or directory, reloaded on change) checked against admitted policies; "
                   "needs --clusters")
        ->allow_extra_args(false);
    sub.add_option("--kubeconfig", o.kubeconfig,
                   "keep the Cluster snapshot current by list + watch of karmada-apiserver with this kubeconfig "
                   "instead of --clusters files (never blocks admission; state in /metrics)");
    sub.add_option("--context", o.context, "the kubeconfig context for --kubeconfig (default: its current-context)");
    sub.add_flag("--in-cluster", o.in_cluster,
                 "as --kubeconfig, with the pod's service account (the manifests' live-snapshot RBAC)");
    sub.add_option("--live-workloads", o.live_workloads,
                   "with --kubeconfig/--in-cluster: also keep these kinds (apiVersion/Kind, e.g. apps/v1/Deployment, "
                   "resolved by discovery; repeat the flag) as the known workloads")
        ->allow_extra_args(false);
    sub.add_option("--live-max-objects", o.live_max_objects,
                   "with --kubeconfig/--in-cluster: the most objects kept per watched collection (0: no limit); "
                   "beyond it the live snapshot is dropped, logged and shown in /metrics (state over_limit) while "
                   "admission keeps answering, and listed again until it fits (docs/live.md sizes the memory)")
        ->capture_default_str();
}

// Files only: standard input can be neither watched nor read again on reload.
void check_snapshot_flags(const server::serve_options& o)
{
    if (o.live() && (!o.clusters.empty() || !o.workloads.empty()))
        throw CLI::ValidationError("--kubeconfig", "reads the snapshot from karmada-apiserver: drop --clusters/--workloads");
    if (!o.kubeconfig.empty() && o.in_cluster)
        throw CLI::ValidationError("--in-cluster", "and --kubeconfig are two ways to reach the server: give one");
    if (!o.live_workloads.empty() && !o.live())
        throw CLI::ValidationError("--live-workloads", "needs --kubeconfig or --in-cluster");
    for (const auto& k : o.live_workloads)
        if (auto r = server::workload_resource(k); !r)
            throw CLI::ValidationError("--live-workloads", r.error().message);
    if (!o.workloads.empty() && o.clusters.empty())
        throw CLI::ValidationError("--workloads", "needs --clusters (the snapshot to schedule them on)");
    for (const auto* list : {&o.clusters, &o.workloads})
        for (const auto& p : *list)
            if (p == "-")
                throw CLI::ValidationError("--clusters/--workloads", "serve reads files or directories, not -");
}

// --self-signed is for a local start: listen on loopback unless told otherwise.
void apply_self_signed_defaults(const CLI::App& sub, server::serve_options& o)
{
    if (!o.self_signed)
        return;
    if (sub.count("--bind-address") == 0)
        o.bind_address = "127.0.0.1";
    if (sub.count("--health-probe-bind-address") == 0)
        o.health_probe_bind_address = "127.0.0.1:8000";
    if (sub.count("--metrics-bind-address") == 0)
        o.metrics_bind_address = "127.0.0.1:8080";
}

// --karmada-version, else with a live snapshot the release the server's policy CRD shows (read once at
// start, with short timeouts: a server that cannot be reached leaves the newest release and a warning).
void apply_karmada_version(const std::string& flag, server::serve_options& o)
{
    auto choice = karmada_version_of(flag);
    if (!choice)
        throw CLI::ValidationError("--karmada-version", choice.error().message);
    o.release = choice->release;
    if (!o.live())
        return;
    auto config = server::live_rest_config(o);
    if (!config)
        return; // the server's start reports it
    kube::client_options quick;
    quick.connect_timeout = std::chrono::seconds(5);
    quick.request_timeout = std::chrono::seconds(5);
    kube::client client(std::move(*config), quick);
    const karmada_version_choice live = karmada_version_with_server(flag, client, "serve");
    o.release = live.release;
    if (!live.decided_by.empty())
        std::cerr << "serve: answering for Karmada " << settings::release_name(live.release) << " ("
                  << live.decided_by << ")\n";
}

// The flags that take a duration ("25s", "2m"), each with the serve_options field it sets.
struct duration_flag {
    const char* name;
    const char* help;
    std::chrono::seconds server::serve_options::*field;
    bool may_be_zero;
};
constexpr duration_flag duration_flags[] = {
    {"--shutdown-grace-period", "How long SIGTERM waits for open requests", &server::serve_options::shutdown_grace,
     true},
    {"--handshake-timeout", "A TLS handshake must complete within this", &server::serve_options::handshake_timeout,
     false},
    {"--read-timeout", "A request must arrive completely within this of its first byte",
     &server::serve_options::read_timeout, false},
    {"--write-timeout", "A reply must be written within this", &server::serve_options::write_timeout, false},
    {"--idle-timeout",
     "Keep-alive connections idle for this long are closed (keep it above the API server's 90 s, so that the "
     "client closes first)",
     &server::serve_options::idle_timeout, false},
};
using duration_texts = std::array<std::string, std::size(duration_flags)>;

void add_duration_flags(CLI::App& sub, const server::serve_options& defaults, duration_texts& texts)
{
    for (std::size_t i = 0; i < texts.size(); ++i) {
        texts[i] = std::to_string((defaults.*duration_flags[i].field).count()) + "s";
        sub.add_option(duration_flags[i].name, texts[i], duration_flags[i].help)->capture_default_str();
    }
}

void apply_duration_flags(const duration_texts& texts, server::serve_options& o)
{
    for (std::size_t i = 0; i < texts.size(); ++i) {
        const duration_flag& f = duration_flags[i];
        if (auto e = parse_seconds(texts[i], o.*f.field); !e.empty())
            throw CLI::ValidationError(f.name, e);
        if (!f.may_be_zero && (o.*f.field).count() == 0)
            throw CLI::ValidationError(f.name, "must be at least 1s");
    }
}

} // namespace

command add_serve_command(CLI::App& parent)
{
    auto* sub = parent.add_subcommand("serve", "Run the HTTPS validating admission webhook");
    auto options = std::make_shared<server::serve_options>();
    auto durations = std::make_shared<duration_texts>();
    auto karmada_version = std::make_shared<std::string>();
    add_karmada_flags(*sub, *options);
    add_own_flags(*sub, *options);
    add_karmada_version_flag(*sub, *karmada_version);
    add_snapshot_flags(*sub, *options);
    add_duration_flags(*sub, *options, *durations);
    return {sub, [sub, options, durations, karmada_version] {
                apply_self_signed_defaults(*sub, *options);
                check_snapshot_flags(*options);
                apply_duration_flags(*durations, *options);
                apply_karmada_version(*karmada_version, *options);
                server::server s(*options, KPW_VERSION);
                return s.run();
            }};
}

} // namespace kpw::cli
