// SPDX-License-Identifier: Apache-2.0
// File and directory polling on a strand timer.
#include "server/file_watcher.hpp"

#include <sys/stat.h>

#include <algorithm>

#include <boost/asio/dispatch.hpp>

namespace kpw::server {

namespace net = boost::asio;
namespace fs = std::filesystem;

file_watcher::file_watcher(net::io_context& ioc, std::vector<fs::path> paths, std::chrono::milliseconds interval,
                           std::function<void()> on_change)
    : paths_(std::move(paths)), interval_(interval), on_change_(std::move(on_change)), strand_(net::make_strand(ioc)),
      timer_(strand_)
{
}

file_watcher::file_stamp file_watcher::stamp_of(const fs::path& p)
{
    file_stamp s;
    s.path = p.string();
    struct stat st {};
    if (!p.empty() && ::stat(p.c_str(), &st) == 0) {
        s.dev = static_cast<unsigned long long>(st.st_dev);
        s.ino = static_cast<unsigned long long>(st.st_ino);
        s.size = static_cast<unsigned long long>(st.st_size);
        s.mtime_ns = static_cast<long long>(st.st_mtim.tv_sec) * 1000000000LL + st.st_mtim.tv_nsec;
        s.exists = true;
    }
    return s;
}

std::vector<file_watcher::file_stamp> file_watcher::stamps() const
{
    std::vector<file_stamp> out;
    for (const auto& p : paths_) {
        out.push_back(stamp_of(p));
        std::error_code ec;
        if (p.empty() || !fs::is_directory(p, ec))
            continue;
        std::vector<file_stamp> below;
        fs::recursive_directory_iterator it(p, fs::directory_options::skip_permission_denied, ec);
        for (; !ec && it != fs::recursive_directory_iterator(); it.increment(ec))
            below.push_back(stamp_of(it->path()));
        std::sort(below.begin(), below.end(), [](const file_stamp& a, const file_stamp& b) { return a.path < b.path; });
        out.insert(out.end(), below.begin(), below.end());
    }
    return out;
}

void file_watcher::baseline()
{
    seen_ = stamps();
}

void file_watcher::start()
{
    net::dispatch(strand_, [this] { schedule(); });
}

void file_watcher::stop()
{
    net::dispatch(strand_, [this] {
        stopped_ = true;
        timer_.cancel();
    });
}

void file_watcher::schedule()
{
    if (stopped_)
        return;
    timer_.expires_after(interval_);
    timer_.async_wait([this](boost::system::error_code ec) { on_tick(ec); });
}

void file_watcher::on_tick(boost::system::error_code ec)
{
    if (ec || stopped_)
        return;
    auto now = stamps();
    if (now != seen_) {
        seen_ = std::move(now);
        on_change_();
    }
    schedule();
}

} // namespace kpw::server
