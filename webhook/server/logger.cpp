// SPDX-License-Identifier: Apache-2.0
// Log line formatting and output.
#include "server/logger.hpp"

#include <unistd.h>

#include <cstdio>
#include <ctime>

#include "field/error.hpp"

namespace kpw::server {
namespace {

std::string timestamp()
{
    const auto now = std::chrono::system_clock::now();
    const std::time_t t = std::chrono::system_clock::to_time_t(now);
    const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(now.time_since_epoch()).count() % 1000;
    std::tm tm{};
    gmtime_r(&t, &tm);
    char buf[96]; // generous: -Wformat-truncation assumes any int width
    std::snprintf(buf, sizeof buf, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", tm.tm_year + 1900, tm.tm_mon + 1,
                  tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, static_cast<int>(ms));
    return buf;
}

} // namespace

std::string logger::quote(std::string_view v)
{
    bool plain = !v.empty();
    for (char c : v)
        if (static_cast<unsigned char>(c) <= ' ' || c == '"' || c == '=' || c == '\\' || c == 0x7F)
            plain = false;
    return plain ? std::string(v) : field::go_quote(v);
}

void logger::write(std::string_view level, std::string_view msg, std::string_view fields) const
{
    std::string line = timestamp();
    line.append(" level=").append(level).append(" msg=").append(quote(msg));
    if (!fields.empty())
        line.append(" ").append(fields);
    line += '\n';
    // One write(2) per line: lines from several threads never interleave.
    for (std::size_t done = 0; done < line.size();) {
        const ssize_t n = ::write(STDERR_FILENO, line.data() + done, line.size() - done);
        if (n <= 0)
            return;
        done += static_cast<std::size_t>(n);
    }
}

void logger::info(std::string_view msg, std::string_view fields) const
{
    write("info", msg, fields);
}

void logger::warning(std::string_view msg, std::string_view fields) const
{
    write("warning", msg, fields);
}

void logger::error(std::string_view msg, std::string_view fields) const
{
    write("error", msg, fields);
}

void logger::review(std::string_view path, const admission::review_outcome& o, std::chrono::nanoseconds latency) const
{
    if (o.res.allowed && verbosity_ < 1)
        return;
    const std::string object = o.ns.empty() ? o.name : o.ns + "/" + o.name;
    char micros[32];
    std::snprintf(micros, sizeof micros, "%.3fms", std::chrono::duration<double, std::milli>(latency).count());
    std::string f = "webhook=" + std::string(path) + " uid=" + quote(o.uid) + " kind=" + quote(o.kind) +
                    " object=" + quote(object) + " operation=" + quote(o.operation) +
                    " allowed=" + (o.res.allowed ? "true" : "false") + " code=" + std::to_string(o.res.code) +
                    " latency=" + micros;
    if (!o.res.allowed)
        f += " message=" + quote(o.res.message.substr(0, 512)); // aggregates can be long
    write(o.res.code >= 500 ? "error" : "info", "admission", f);
}

} // namespace kpw::server
