// SPDX-License-Identifier: Apache-2.0
// `certs`: a CA and a serving certificate for the webhook's Service, written for a Secret; prints the caBundle.
#include "cli/command.hpp"

#include <arpa/inet.h>

#include <algorithm>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include <openssl/evp.h>

#include "certs/certs.hpp"

namespace kpw::cli {
namespace {

struct certs_flags {
    std::string service;
    std::string namespace_name;
    std::string out;
    int days = 365;
    std::vector<std::string> hosts;
};

bool is_ip_literal(const std::string& host)
{
    unsigned char buf[16];
    return ::inet_pton(AF_INET, host.c_str(), buf) == 1 || ::inet_pton(AF_INET6, host.c_str(), buf) == 1;
}

// What goes into a webhook configuration's caBundle: base64 of the PEM, one line.
std::string base64_of(std::string_view data)
{
    std::string out(4 * ((data.size() + 2) / 3) + 1, '\0');
    const int n = EVP_EncodeBlock(reinterpret_cast<unsigned char*>(out.data()),
                                  reinterpret_cast<const unsigned char*>(data.data()), static_cast<int>(data.size()));
    out.resize(n < 0 ? 0 : static_cast<std::size_t>(n));
    return out;
}

certs::serving_options serving_for(const certs_flags& flags)
{
    certs::serving_options leaf;
    leaf.common_name = flags.service + "." + flags.namespace_name + ".svc"; // informational: clients check SANs
    // <svc>.<ns>.svc is what kube-apiserver and the manifests' clientConfig.url verify; the library adds
    // the short forms and <svc>.<ns>.svc.cluster.local.
    leaf.dns_names = certs::service_dns_names(flags.service, flags.namespace_name);
    for (const auto& h : flags.hosts)
        (is_ip_literal(h) ? leaf.ip_addresses : leaf.dns_names).push_back(h);
    leaf.validity_days = flags.days;
    return leaf;
}

int run_certs_command(const certs_flags& flags)
{
    certs::authority_options ca;
    ca.validity_days = std::max(ca.validity_days, flags.days); // the CA never expires before its leaf
    const certs::serving_options leaf = serving_for(flags);
    auto bundle = certs::generate(ca, leaf);
    if (!bundle) {
        std::cerr << "karmada-policy-webhook certs: " << bundle.error().message << '\n';
        return exit_usage;
    }
    auto written = certs::write_bundle(*bundle, flags.out);
    if (!written) {
        std::cerr << "karmada-policy-webhook certs: " << written.error().message << '\n';
        return exit_usage;
    }
    // stdout carries only the bundle, so `$(karmada-policy-webhook certs ...)` is the caBundle value.
    std::cerr << "wrote " << written->ca_crt.string() << ", " << written->tls_crt.string() << ", "
              << written->tls_key.string() << " (valid " << flags.days << " days) for:";
    for (const auto& n : leaf.dns_names)
        std::cerr << ' ' << n;
    for (const auto& ip : leaf.ip_addresses)
        std::cerr << ' ' << ip;
    std::cerr << "\ncaBundle (stdout): base64 of " << written->ca_crt.filename().string() << '\n';
    std::cout << base64_of(bundle->ca_crt) << '\n';
    return exit_ok;
}

} // namespace

command add_certs_command(CLI::App& parent)
{
    auto flags = std::make_shared<certs_flags>();
    auto* sub = parent.add_subcommand(
        "certs", "Create a CA and a serving certificate for the webhook Service: writes ca.crt, tls.crt and\n"
                 "tls.key (0600) into --out and prints the base64 CA bundle for the webhook configuration.");
    sub->add_option("--service", flags->service, "name of the webhook's Service")->required();
    sub->add_option("--namespace", flags->namespace_name, "namespace of the Service")->required();
    sub->add_option("--out", flags->out, "directory for ca.crt, tls.crt and tls.key (created if missing)")
        ->required();
    sub->add_option("--days", flags->days, "validity of the serving certificate in days")
        ->capture_default_str()
        ->check(CLI::Range(1, 36500));
    sub->add_option("--host", flags->hosts, "extra subject alternative name, DNS name or IP address (repeatable)");
    return {sub, [flags] { return run_certs_command(*flags); }};
}

} // namespace kpw::cli
