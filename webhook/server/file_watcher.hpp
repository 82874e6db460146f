// SPDX-License-Identifier: Apache-2.0
// file_watcher: polls files and directories and calls back when any of them changed on disk.
#pragma once

#include <chrono>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>

namespace kpw::server {

// Polls (device, inode, size, mtime) — robust with Kubernetes Secret and ConfigMap volumes, whose
// atomic writer swaps a `..data` symlink (stat follows it). A directory counts with every file below
// it (symlinked files followed, symlinked directories not), so adding, removing or rewriting a file
// there is a change. The callback runs on the watcher's strand, never concurrently with itself.
class file_watcher {
public:
    file_watcher(boost::asio::io_context& ioc, std::vector<std::filesystem::path> paths,
                 std::chrono::milliseconds interval, std::function<void()> on_change);

    // Records what "unchanged" means; call right before the first load, and before start().
    void baseline();
    void start();
    void stop(); // thread-safe

private:
    struct file_stamp {
        std::string path;
        unsigned long long dev = 0, ino = 0, size = 0;
        long long mtime_ns = 0;
        bool exists = false;
        friend bool operator==(const file_stamp&, const file_stamp&) = default;
    };

    static file_stamp stamp_of(const std::filesystem::path& p);
    std::vector<file_stamp> stamps() const;
    void schedule();
    void on_tick(boost::system::error_code ec);

    std::vector<std::filesystem::path> paths_;
    std::chrono::milliseconds interval_;
    std::function<void()> on_change_;
    boost::asio::strand<boost::asio::io_context::executor_type> strand_;
    boost::asio::steady_timer timer_;
    std::vector<file_stamp> seen_; // strand only (after baseline())
    bool stopped_ = false;         // strand only
};

} // namespace kpw::server
