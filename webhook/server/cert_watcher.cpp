// SPDX-License-Identifier: Apache-2.0
// Certificate file polling and context swapping.
#include "server/cert_watcher.hpp"

#include <sys/stat.h>

#include <boost/asio/dispatch.hpp>

namespace kpw::server {

namespace net = boost::asio;

cert_watcher::cert_watcher(net::io_context& ioc, tls_files files, int min_version, std::chrono::milliseconds interval,
                           metrics& stats, const logger& log)
    : files_(std::move(files)), min_version_(min_version), interval_(interval), stats_(stats), log_(log),
      strand_(net::make_strand(ioc)), timer_(strand_)
{
}

std::vector<cert_watcher::file_stamp> cert_watcher::stamps() const
{
    std::vector<file_stamp> out;
    for (const auto* p : {&files_.cert_file, &files_.key_file, &files_.client_ca_file}) {
        file_stamp s;
        struct stat st {};
        if (!p->empty() && ::stat(p->c_str(), &st) == 0) {
            s = {static_cast<unsigned long long>(st.st_dev), static_cast<unsigned long long>(st.st_ino),
                 static_cast<unsigned long long>(st.st_size),
                 static_cast<long long>(st.st_mtim.tv_sec) * 1000000000LL + st.st_mtim.tv_nsec, true};
        }
        out.push_back(s);
    }
    return out;
}

result<bool> cert_watcher::load()
{
    seen_ = stamps();
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
    net::dispatch(strand_, [this] { schedule(); });
}

void cert_watcher::stop()
{
    net::dispatch(strand_, [this] {
        stopped_ = true;
        timer_.cancel();
    });
}

void cert_watcher::schedule()
{
    if (stopped_)
        return;
    timer_.expires_after(interval_);
    timer_.async_wait([this](boost::system::error_code ec) { on_tick(ec); });
}

void cert_watcher::on_tick(boost::system::error_code ec)
{
    if (ec || stopped_)
        return;
    auto now = stamps();
    if (now != seen_) {
        seen_ = std::move(now);
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
    schedule();
}

} // namespace kpw::server
