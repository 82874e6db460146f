// SPDX-License-Identifier: Apache-2.0
// Process setup, the io_context threads and the shutdown sequence.
#include "server/server.hpp"

#include <csignal>
#include <cstdlib>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <thread>

#include "server/address.hpp"
#include "server/http_session.hpp"
#include "server/live_config.hpp"
#include "server/open_files.hpp"
#include "server/plain_transport.hpp"
#include "server/self_signed.hpp"
#include "server/tls_transport.hpp"

namespace kpw::server {

namespace net = boost::asio;
using tcp = net::ip::tcp;

namespace {

// --threads, 0 meaning one per CPU: the number of single-threaded io_contexts.
int thread_count(const serve_options& o)
{
    return o.threads > 0 ? o.threads : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
}

// Descriptors a full server holds: every webhook connection, the probe ports' (the cap is per port), the
// three listeners, the io_contexts' own (epoll, eventfd, timerfd each) and a margin for the certificate,
// snapshot and log files being read.
std::uint64_t descriptors_needed(const serve_options& o)
{
    return o.max_connections + 2 * o.max_probe_connections + 3 + 3 * static_cast<std::uint64_t>(thread_count(o)) + 32;
}

} // namespace

server::server(const serve_options& options, std::string version)
    : state_(options, std::move(version)), pool_(static_cast<std::size_t>(thread_count(options))), ioc_(pool_.main()),
      signals_(ioc_, SIGTERM, SIGINT), drain_timer_(ioc_)
{
}

result<bool> server::prepare()
{
    const auto& o = state_.options();
    check_open_file_limit();
    auto version = parse_tls_version(o.tls_min_version);
    if (!version)
        return version.error();
    auto ep = make_endpoint(o.bind_address, o.secure_port);
    if (!ep)
        return failure{"--bind-address/--secure-port: " + ep.error().message, {}};
    webhook_ep_ = *ep;
    auto health = parse_listen_address(o.health_probe_bind_address);
    if (!health)
        return failure{"--health-probe-bind-address: " + health.error().message, {}};
    health_ep_ = *health;
    auto metrics_addr = parse_listen_address(o.metrics_bind_address);
    if (!metrics_addr)
        return failure{"--metrics-bind-address: " + metrics_addr.error().message, {}};
    metrics_ep_ = *metrics_addr;
    if (o.self_signed) {
        auto dev = ensure_self_signed(o, *webhook_ep_);
        if (!dev)
            return failure{"--self-signed: " + dev.error().message, {}};
        if (dev->generated)
            state_.log().info("generated a self-signed development certificate; clients must trust its CA",
                              "ca=" + logger::quote(dev->ca_file.string()));
    }
    const std::filesystem::path dir = o.cert_dir;
    tls_files files{dir / o.tls_cert_file_name, dir / o.tls_private_key_file_name, o.client_ca_file};
    watcher_.emplace(ioc_, files, *version, o.cert_poll_interval, state_.stats(), state_.log());
    if (auto loaded = watcher_->load(); !loaded)
        return failure{loaded.error().message + (o.self_signed ? "" : " (for a development certificate use --self-signed)"),
                       {}};
    if (o.live()) {
        auto config = live_rest_config(o);
        if (!config)
            return config.error();
        // Not waited for: admission never depends on the API server being reachable.
        live_snapshot_options live;
        live.max_objects = o.live_max_objects;
        live_snapshot_ = std::make_unique<live_snapshot>(std::move(*config), kube::client_options{}, o.live_workloads,
                                                         state_.cluster_snapshot(), state_.stats(), state_.log(), live);
    } else if (state_.cluster_snapshot()) {
        snapshot_watcher_.emplace(ioc_, o.clusters, o.workloads, o.snapshot_poll_interval, state_.cluster_snapshot(),
                                  state_.stats(), state_.log());
        if (auto loaded = snapshot_watcher_->load(); !loaded)
            return loaded.error();
    }
    return open_listeners();
}

// Raises the open-file limit (as Go servers do) and says so when even the raised limit is below what
// --max-connections needs: accepting then fails with EMFILE (the listener backs off and retries) before the
// connection cap is reached.
void server::check_open_file_limit()
{
    const open_file_limit limit = raise_open_file_limit();
    const std::uint64_t needed = descriptors_needed(state_.options());
    const std::string fields = "soft_limit_before=" + std::to_string(limit.before) +
                               " soft_limit=" + std::to_string(limit.now) + " needed=" + std::to_string(needed);
    if (limit.now < needed)
        state_.log().warning("the open-file limit is below what --max-connections needs; raise the hard limit "
                             "(ulimit -Hn, LimitNOFILE=, the container runtime's nofile) or lower --max-connections",
                             fields);
    else if (limit.now != limit.before)
        state_.log().info("raised the open-file limit to the hard limit", fields);
}

result<bool> server::open_listeners()
{
    auto on_tls = [this](tcp_socket&& socket) {
        if (state_.connections().full()) {
            state_.stats().connection_rejected();
            return; // the socket closes here
        }
        boost::system::error_code ignored;
        socket.set_option(tcp::no_delay(true), ignored);
        std::make_shared<http_session<tls_transport>>(tls_transport(std::move(socket), watcher_->current()),
                                                     port_role::webhook, state_)
            ->run();
    };
    auto wl = listener::open(ioc_, *webhook_ep_, on_tls, state_.log(), &pool_);
    if (!wl)
        return wl.error();
    webhook_ = *wl;
    auto plain = [this](port_role role) {
        return [this, role](tcp_socket&& socket) {
            if (state_.probe_connections().full())
                return; // the socket closes here
            std::make_shared<http_session<plain_transport>>(plain_transport(std::move(socket)), role, state_)->run();
        };
    };
    if (health_ep_) {
        auto hl = listener::open(ioc_, *health_ep_, plain(port_role::health), state_.log());
        if (!hl)
            return hl.error();
        health_ = *hl;
    }
    if (metrics_ep_) {
        auto ml = listener::open(ioc_, *metrics_ep_, plain(port_role::metrics), state_.log());
        if (!ml)
            return ml.error();
        metrics_ = *ml;
    }
    return true;
}

// One "listening on" line per listener and, with --port-file, the same facts written atomically.
void server::announce()
{
    std::string lines;
    const std::pair<const char*, listener*> all[] = {
        {"webhook", webhook_.get()}, {"health", health_.get()}, {"metrics", metrics_.get()}};
    for (const auto& [role, l] : all) {
        if (!l)
            continue;
        const std::string where = endpoint_text(l->local_endpoint());
        state_.log().info("listening on " + where,
                          std::string("role=") + role + " scheme=" + (l == webhook_.get() ? "https" : "http"));
        lines += std::string(role) + " " + where + "\n";
    }
    const auto& path = state_.options().port_file;
    if (path.empty())
        return;
    const std::string tmp = path + ".tmp";
    {
        std::ofstream out(tmp, std::ios::trunc);
        out << lines;
    }
    std::error_code ec;
    std::filesystem::rename(tmp, path, ec);
    if (ec)
        state_.log().error("cannot write the port file", "path=" + logger::quote(path) + " error=" + logger::quote(ec.message()));
}

int server::run()
{
    if (auto ok = prepare(); !ok) {
        state_.log().error(ok.error().message);
        return 2;
    }
    // OpenSSL writes to the socket with write(2), not send(MSG_NOSIGNAL): a peer that closed
    // would otherwise kill the process with SIGPIPE instead of failing one write with EPIPE.
    std::signal(SIGPIPE, SIG_IGN);
    webhook_->run();
    if (health_)
        health_->run();
    if (metrics_)
        metrics_->run();
    watcher_->start();
    if (snapshot_watcher_)
        snapshot_watcher_->start();
    if (live_snapshot_)
        live_snapshot_->start();
    signals_.async_wait([this](boost::system::error_code ec, int sig) { on_signal(ec, sig); });
    state_.set_ready();
    announce();
    pool_.run(state_.log());
    state_.log().info("stopped");
    return 0;
}

void server::on_signal(boost::system::error_code ec, int signal)
{
    if (ec)
        return;
    if (state_.draining()) {
        state_.log().warning("second signal: stopping without waiting for open connections");
        return finish();
    }
    state_.log().info("shutting down: no new connections, draining open ones",
                      "signal=" + std::to_string(signal) + " connections=" + std::to_string(state_.connections().size()) +
                          " grace=" + std::to_string(state_.options().shutdown_grace.count()) + "s");
    state_.start_draining();
    webhook_->close();
    watcher_->stop();
    if (snapshot_watcher_)
        snapshot_watcher_->stop();
    if (live_snapshot_)
        live_snapshot_->stop();
    state_.connections().stop_all();
    drain_deadline_ = std::chrono::steady_clock::now() + state_.options().shutdown_grace;
    signals_.async_wait([this](boost::system::error_code sec, int sig) { on_signal(sec, sig); });
    check_drained();
}

void server::check_drained()
{
    const std::size_t open = state_.connections().size();
    if (open == 0)
        return finish();
    if (std::chrono::steady_clock::now() >= drain_deadline_) {
        state_.log().warning("grace period over: closing the remaining connections", "connections=" + std::to_string(open));
        return finish();
    }
    drain_timer_.expires_after(std::chrono::milliseconds(20));
    drain_timer_.async_wait([this](boost::system::error_code ec) {
        if (!ec)
            check_drained();
    });
}

void server::finish()
{
    if (health_)
        health_->close();
    if (metrics_)
        metrics_->close();
    drain_timer_.cancel();
    signals_.cancel();
    pool_.stop();
}

} // namespace kpw::server
