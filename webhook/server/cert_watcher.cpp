// SPDX-License-Identifier: Apache-2.0
// Certificate reload on file change and context swapping.
#include "server/cert_watcher.hpp"

namespace kpw::server {

namespace net = boost::asio;

cert_watcher::cert_watcher(net::io_context& ioc, tls_files files, int min_version, std::chrono::milliseconds interval,
                           metrics& stats, const logger& log)
    : files_(std::move(files)), min_version_(min_version), stats_(stats), log_(log),
      watcher_(ioc, {files_.cert_file, files_.key_file, files_.client_ca_file}, interval, [this] { reload(); })
{
}

result<bool> cert_watcher::load()
{
    watcher_.baseline();
    auto ctx = make_tls_context(files_, min_version_);
    if (!ctx)
        return ctx.error();
    std::lock_guard lock(mutex_);
    current_ = std::move(*ctx);
    return true;
}

std::shared_ptr<net::ssl::context> cert_watcher::current() const
{
    std::lock_guard lock(mutex_);
    return current_;
}

void cert_watcher::start()
{
    watcher_.start();
}

void cert_watcher::stop()
{
    watcher_.stop();
}

void cert_watcher::reload()
{
    auto ctx = make_tls_context(files_, min_version_);
    stats_.certificate_reload(ctx.ok());
    if (ctx) {
        {
            std::lock_guard lock(mutex_);
            current_ = std::move(*ctx);
        }
        log_.info("reloaded the serving certificate", "cert=" + logger::quote(files_.cert_file.string()));
    } else {
        log_.warning("certificate files changed but do not load; keeping the previous certificate",
                     "error=" + logger::quote(ctx.error().message));
    }
}

} // namespace kpw::server
