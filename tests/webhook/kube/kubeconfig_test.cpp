// SPDX-License-Identifier: Apache-2.0
// kubeconfig: client-go's loading rules, merge, context choice and validation, and the in-cluster config.
#include "kube/kubeconfig.hpp"

#include <cstdlib>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "support/temp_dir.hpp"

using kpw::kube::kubeconfig_location;
using kpw::kube::kubeconfig_text;
using kpw::kube::load_kubeconfig;
using kpw::kube::parse_kubeconfig;
using kpw::test::temp_dir;

namespace {

// "-----BEGIN CERTIFICATE-----\nCA\n-----END CERTIFICATE-----\n" and friends, base64.
const std::string ca_pem = "-----BEGIN CERTIFICATE-----\nCA\n-----END CERTIFICATE-----\n";
const std::string ca_b64 = "LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0tCkNBCi0tLS0tRU5EIENFUlRJRklDQVRFLS0tLS0K";

const std::string basic = R"(apiVersion: v1
kind: Config
clusters:
- name: karmada
  cluster:
    server: https://karmada.example:5443
    certificate-authority-data: )" + ca_b64 + R"(
    tls-server-name: karmada-apiserver
contexts:
- name: karmada-admin
  context:
    cluster: karmada
    user: admin
    namespace: karmada-system
current-context: karmada-admin
users:
- name: admin
  user:
    client-certificate-data: Y2VydA==
    client-key-data: a2V5
    token: s3cr3t-token
)";

kpw::result<kpw::kube::parsed_kubeconfig> parse_one(const std::string& text, std::string_view context = {})
{
    return parse_kubeconfig({{"/home/u/.kube/config", text}}, context);
}

} // namespace

TEST_CASE("a kubeconfig's current context gives server, CA data, client certificate data and token")
{
    auto p = parse_one(basic);
    REQUIRE_MESSAGE(p.ok(), p.error().message);
    const auto& c = p->config;
    CHECK(c.server == "https://karmada.example:5443");
    CHECK(c.tls_server_name == "karmada-apiserver");
    CHECK_FALSE(c.insecure_skip_tls_verify);
    CHECK(c.ca_pem == ca_pem);
    CHECK(c.client_cert_pem == "cert");
    CHECK(c.client_key_pem == "key");
    CHECK(c.token == "s3cr3t-token");
    CHECK(c.context_name == "karmada-admin");
    CHECK(c.cluster_name == "karmada");
    CHECK(c.user_name == "admin");
    CHECK(c.default_namespace == "karmada-system");
    CHECK(c.source == "/home/u/.kube/config");
    CHECK(p->ca_file.empty());
    CHECK(c.identity() == "user admin in context karmada-admin (/home/u/.kube/config)");
}

TEST_CASE("load_kubeconfig reads --kubeconfig and the CA, certificate and key files it names, relative to it")
{
    temp_dir dir;
    dir.write("pki/ca.crt", ca_pem);
    dir.write("pki/admin.crt", "CERT PEM");
    dir.write("pki/admin.key", "KEY PEM");
    const auto path = dir.write("conf/kubeconfig", R"(clusters:
- name: c
  cluster: {server: "https://10.0.0.1:6443", certificate-authority: ../pki/ca.crt}
users:
- name: u
  user: {client-certificate: ../pki/admin.crt, client-key: ../pki/admin.key}
contexts:
- name: x
  context: {cluster: c, user: u}
current-context: x
)");
    auto rc = load_kubeconfig({.flag = path.string(), .env = "", .home = "", .context = ""});
    REQUIRE_MESSAGE(rc.ok(), rc.error().message);
    CHECK(rc->ca_pem == ca_pem);
    CHECK(rc->client_cert_pem == "CERT PEM");
    CHECK(rc->client_key_pem == "KEY PEM");
    CHECK(rc->default_namespace == "default");
}
