// SPDX-License-Identifier: Apache-2.0
// Test fixture: the real `serve` binary on 127.0.0.1 ephemeral ports, certificates made at test time.
#pragma once

#include <sys/types.h>

#include <filesystem>
#include <string>
#include <vector>

#include "certs/certs.hpp"
#include "support/temp_dir.hpp"

namespace kpw::test {

// A CA + serving certificate for localhost / 127.0.0.1 (and svc.ns.svc).
certs::bundle make_test_bundle();

// A client certificate (extendedKeyUsage clientAuth, CN `common_name`) signed by `authority`'s CA,
// as kube-apiserver presents under --client-ca-file; throws on an OpenSSL error.
certs::key_pair issue_client_certificate(const certs::bundle& authority, const std::string& common_name);

class serve_process {
public:
    // Writes `bundle` into <dir>/certs (unless `write_certs` is false), starts
    // `serve --cert-dir <dir>/certs --port-file ...` plus `extra` and waits until the port file appears.
    explicit serve_process(std::vector<std::string> extra = {}, bool write_certs = true);
    ~serve_process(); // SIGKILL if still running
    serve_process(const serve_process&) = delete;
    serve_process& operator=(const serve_process&) = delete;

    unsigned short webhook_port() const { return webhook_; }
    unsigned short health_port() const { return health_; }
    unsigned short metrics_port() const { return metrics_; }
    const certs::bundle& bundle() const { return bundle_; }
    std::filesystem::path cert_dir() const { return dir_.path / "certs"; }
    std::string log() const; // everything the server wrote to stderr

    void signal(int sig) const;
    // Waits (bounded) for exit; returns the exit status, or -1 on timeout / killed by a signal.
    int wait_exit(int timeout_ms = 15000);

private:
    temp_dir dir_;
    certs::bundle bundle_;
    pid_t pid_ = -1;
    unsigned short webhook_ = 0, health_ = 0, metrics_ = 0;
};

// Runs the binary with `args` to completion (bounded); returns {exit status, stderr}.
std::pair<int, std::string> run_binary(const std::vector<std::string>& args, const std::filesystem::path& workdir);

// Polls `condition` every few milliseconds until it holds or `timeout_ms` passes.
template <class F>
bool wait_until(F condition, int timeout_ms = 10000);

} // namespace kpw::test

#include "serve_process_wait.hpp"
