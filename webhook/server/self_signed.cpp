// SPDX-License-Identifier: Apache-2.0
// Development certificate generation on top of kpw::certs.
#include "server/self_signed.hpp"

#include <system_error>

#include "certs/certs.hpp"

namespace kpw::server {

result<self_signed_result> ensure_self_signed(const serve_options& o, const boost::asio::ip::tcp::endpoint& webhook)
{
    const std::filesystem::path dir = o.cert_dir;
    std::error_code ec;
    if (std::filesystem::exists(dir / o.tls_cert_file_name, ec) &&
        std::filesystem::exists(dir / o.tls_private_key_file_name, ec)) {
        const auto ca = dir / "ca.crt";
        return self_signed_result{false, std::filesystem::exists(ca, ec) ? ca : std::filesystem::path()};
    }
    certs::serving_options leaf;
    leaf.dns_names = {"localhost"};
    leaf.ip_addresses = {"127.0.0.1", "::1"};
    const auto addr = webhook.address();
    if (!addr.is_unspecified() && !addr.is_loopback())
        leaf.ip_addresses.push_back(addr.to_string());
    certs::authority_options ca;
    ca.common_name = "karmada-policy-webhook development CA";
    ca.validity_days = 365;
    auto bundle = certs::generate(ca, leaf);
    if (!bundle)
        return bundle.error();
    certs::write_options w;
    w.cert_file_name = o.tls_cert_file_name;
    w.key_file_name = o.tls_private_key_file_name;
    auto written = certs::write_bundle(*bundle, dir, w);
    if (!written)
        return written.error();
    return self_signed_result{true, written->ca_crt};
}

} // namespace kpw::server
