// SPDX-License-Identifier: Apache-2.0
// logger: one-line key=value records on stderr, each written with a single write(2).
#pragma once

#include <chrono>
#include <string>
#include <string_view>

#include "admission/review_endpoint.hpp"

namespace kpw::server {

class logger {
public:
    // 0: lifecycle, failures and reviews that were not allowed; 1: every review; 2: connections too.
    explicit logger(int verbosity) : verbosity_(verbosity) {}

    bool enabled(int level) const { return verbosity_ >= level; }

    // level=info|warning|error msg=<msg> <fields>; `fields` is already "k=v k=v".
    void info(std::string_view msg, std::string_view fields = {}) const;
    void warning(std::string_view msg, std::string_view fields = {}) const;
    void error(std::string_view msg, std::string_view fields = {}) const;

    // The per-request line: webhook, uid, kind, object (ns/name), operation, allowed, code, latency.
    // Reviews that were allowed are logged only at verbosity >= 1 (quiet at high request rates).
    void review(std::string_view path, const admission::review_outcome& o, std::chrono::nanoseconds latency) const;

    // A value quoted Go-style when it is empty or has spaces, quotes, '=' or control characters.
    static std::string quote(std::string_view v);

private:
    void write(std::string_view level, std::string_view msg, std::string_view fields) const;

    int verbosity_;
};

} // namespace kpw::server
