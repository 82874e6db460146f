// SPDX-License-Identifier: Apache-2.0
// credentials: what a request carries to prove who it is: a static or file token (the file re-read every
// 50 s and after a 401, as client-go), basic auth, a client certificate, or an exec plugin's ExecCredential
// (cached until its expirationTimestamp, re-run on 401).
// As client-go, the exec plugin runs only for a user with no token, token file, basic auth or certificate.
#pragma once

#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "base/result.hpp"
#include "kube/kubeconfig.hpp"

namespace kpw::kube {

struct client_certificate {
    std::string cert_pem;
    std::string key_pem;
};

// How an exec plugin is run and a token file re-read (tests shorten the timeout, move the clock and
// collect the warnings).
struct credentials_options {
    std::chrono::milliseconds exec_timeout{60'000}; // then the plugin (its process group) is killed
    std::size_t exec_max_output = 1u << 20;         // stdout beyond this is a failure
    std::function<std::chrono::system_clock::time_point()> now; // empty: system_clock::now
    std::function<void(const std::string&)> warn;               // empty: "warning: ..." on stderr
};

class credentials {
public:
    explicit credentials(const rest_config& config);
    credentials(const rest_config& config, credentials_options options);
    ~credentials();
    credentials(const credentials&) = delete;
    credentials& operator=(const credentials&) = delete;

    // The Authorization header value ("Bearer ...", "Basic ..."), or "" when the config has none.
    // Runs the exec plugin when no unexpired token is cached; a plugin that fails, times out or prints
    // anything but an ExecCredential of its apiVersion is a failure naming the command (never its output's
    // secrets) and the install hint. A token with a control character in it is a failure too (never echoed).
    result<std::string> authorization();

    // The client certificate to present: the kubeconfig's, or the exec plugin's
    // (status.clientCertificateData / clientKeyData); nullopt when there is none.
    result<std::optional<client_certificate>> certificate();

    // After a 401: forget cached tokens (the token file is re-read, the plugin re-run on next use; a token
    // file that cannot be read then is not covered by its last token).
    // False when nothing could change on a retry (a static token or certificate): do not retry.
    bool invalidate();

private:
    struct impl;
    std::unique_ptr<impl> impl_;
};

// Pure: decodes an exec plugin's stdout (an ExecCredential of `api_version`). `now` decides nothing here;
// expiry is returned for the caller to compare.
struct exec_credential {
    std::string token;
    std::string client_cert_pem, client_key_pem;
    std::optional<std::chrono::system_clock::time_point> expires; // status.expirationTimestamp
};
result<exec_credential> decode_exec_credential(std::string_view stdout_text, std::string_view api_version);

} // namespace kpw::kube
