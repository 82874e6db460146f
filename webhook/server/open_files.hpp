// SPDX-License-Identifier: Apache-2.0
// The process's open-file limit, raised as Go programs raise theirs.
#pragma once

#include <cstdint>

namespace kpw::server {

struct open_file_limit {
    std::uint64_t before = 0; // the soft RLIMIT_NOFILE the process started with
    std::uint64_t now = 0;    // the soft limit after raising it (equal to `before` when it could not be raised)
};

// Raises the soft RLIMIT_NOFILE to the hard limit. Every Go program does this at start (Go 1.19 and later,
// karmada-webhook and kube-apiserver among them); a C++ server keeps the stock soft limit of 1024 otherwise,
// below what --max-connections=1024 plus the probe ports need on a machine or container as users have it.
open_file_limit raise_open_file_limit();

} // namespace kpw::server
