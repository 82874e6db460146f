// SPDX-License-Identifier: Apache-2.0
// kpw::certs: a development / in-cluster CA and a serving certificate signed by it (OpenSSL 3).
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.hpp"

namespace kpw::certs {

enum class key_algorithm { ecdsa_p256, rsa };

struct key_spec {
    key_algorithm algorithm = key_algorithm::ecdsa_p256;
    int rsa_bits = 2048; // only for rsa; 2048..8192
};

// The self-signed root: basicConstraints critical CA:TRUE pathlen:0, keyCertSign + cRLSign.
struct authority_options {
    std::string common_name = "karmada-policy-webhook-ca";
    int validity_days = 3650;
    key_spec key;
};

// The leaf the webhook serves. kube-apiserver (Go >= 1.15) ignores the CN and verifies only the SANs,
// so at least one DNS name or IP address is required.
struct serving_options {
    std::string common_name = "karmada-policy-webhook";
    std::vector<std::string> dns_names;    // e.g. svc.ns.svc; a leading "*." wildcard is accepted
    std::vector<std::string> ip_addresses; // IPv4 or IPv6 literals
    int validity_days = 365;
    key_spec key;
};

// A certificate and its private key, both PEM (the key as PKCS#8 "PRIVATE KEY").
struct key_pair {
    std::string crt;
    std::string key;
};

// What a webhook deployment needs: ca_crt goes into the caBundle, tls_* into the serving Secret.
struct bundle {
    std::string ca_crt;
    std::string ca_key; // keep it to issue the next serving certificate; never written by default
    std::string tls_crt;
    std::string tls_key;
};

// A new self-signed CA. Fails on bad options or an OpenSSL error (message names the step).
result<key_pair> make_authority(const authority_options& options);

// A serving certificate (SHA-256, SANs, extendedKeyUsage serverAuth) signed by `authority`,
// which must hold a matching certificate and key in PEM.
result<key_pair> issue_serving(const key_pair& authority, const serving_options& options);

// make_authority + issue_serving in one go.
result<bundle> generate(const authority_options& authority, const serving_options& serving);

// The DNS names a Service `<service>` in `<ns>` is reached by: svc, svc.ns, svc.ns.svc,
// svc.ns.svc.<cluster_domain> (kube-apiserver verifies `<service>.<ns>.svc`).
std::vector<std::string> service_dns_names(std::string_view service, std::string_view ns,
                                           std::string_view cluster_domain = "cluster.local");

struct write_options {
    std::string ca_file_name = "ca.crt";
    std::string cert_file_name = "tls.crt";
    std::string key_file_name = "tls.key";
    bool include_ca_key = false; // also writes ca.key (0600)
};

struct written_files {
    std::filesystem::path ca_crt, tls_crt, tls_key, ca_key; // ca_key empty unless written
};

// Writes the bundle into `dir` (created if missing). Each file is written to a temporary name and
// renamed into place, so a watcher never reads half a file; keys are 0600, certificates 0644.
// The key is renamed before the certificate: a reader seeing the new certificate finds its key.
result<written_files> write_bundle(const bundle& b, const std::filesystem::path& dir,
                                   const write_options& options = {});

} // namespace kpw::certs
