// SPDX-License-Identifier: Apache-2.0
// kubeconfig: client-go's loading rules, merge, context choice and validation, and the in-cluster config.
#include "kube/kubeconfig.hpp"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "support/temp_dir.hpp"

namespace fs = std::filesystem;
using kpw::kube::kubeconfig_location;
using kpw::kube::kubeconfig_text;
using kpw::kube::load_kubeconfig;
using kpw::kube::parse_kubeconfig;
using kpw::test::temp_dir;

namespace {

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

// The error of parsing `text` (fails the test when it parses).
std::string error_of(const std::string& text, std::string_view context = {})
{
    auto p = parse_one(text, context);
    REQUIRE_FALSE(p.ok());
    return p.error().message;
}

std::string fixture(const std::string& name)
{
    std::ifstream in(fs::path(KPW_SOURCE_ROOT) / "tests" / "data" / "kubeconfig" / name);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

// A minimal config around one cluster body and one user body.
std::string with(const std::string& cluster, const std::string& user)
{
    return "clusters:\n- name: c\n  cluster:\n" + cluster + "users:\n- name: u\n  user:\n" + user +
           "contexts:\n- name: x\n  context: {cluster: c, user: u}\ncurrent-context: x\n";
}

const std::string server = "    server: https://s:6443\n";

// Sets (or unsets, for nullptr) an environment variable for one scope.
struct scoped_env {
    scoped_env(const char* name, const char* value) : name_(name)
    {
        if (const char* old = std::getenv(name))
            old_ = old;
        value ? setenv(name, value, 1) : unsetenv(name);
    }
    ~scoped_env() { old_.empty() ? unsetenv(name_) : setenv(name_, old_.c_str(), 1); }
    const char* name_;
    std::string old_;
};

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
    CHECK_FALSE(c.exec.has_value());
    CHECK(p->ca_file.empty());
    CHECK(c.identity() == "user admin in context karmada-admin (/home/u/.kube/config)");
}

TEST_CASE("--context picks another context; the namespace defaults to default")
{
    auto p = parse_kubeconfig({{"/k/token.yaml", fixture("token.yaml")}}, "lab");
    REQUIRE_MESSAGE(p.ok(), p.error().message);
    CHECK(p->config.server == "https://[fd00::10]:5443/prefix");
    CHECK(p->config.insecure_skip_tls_verify);
    CHECK(p->config.username == "admin");
    CHECK(p->config.password == "fixture-password");
    CHECK(p->config.default_namespace == "default");
    CHECK(p->config.context_name == "lab");
}

TEST_CASE("relative file references resolve against the directory of the file that names them")
{
    auto p = parse_kubeconfig({{"/etc/kube/token.yaml", fixture("token.yaml")}}, "");
    REQUIRE_MESSAGE(p.ok(), p.error().message);
    CHECK(p->ca_file == "/etc/kube/pki/ca.crt");
    CHECK(p->config.token == "fixture-token-not-a-secret");
    CHECK(p->config.token_file == "/etc/kube/tokens/ci"); // both kept: the file wins while readable
    CHECK(p->config.tls_server_name == "karmada-apiserver.karmada-system.svc");
    CHECK(p->config.default_namespace == "policies");

    auto second = parse_kubeconfig({{"/b/c/second.yaml", fixture("second-file.yaml")}}, "");
    REQUIRE_MESSAGE(second.ok(), second.error().message);
    CHECK(second->ca_file == "/b/pki/staging-ca.crt");
    CHECK(second->client_cert_file == "/b/c/certs/staging.crt");
    CHECK(second->client_key_file == "/b/c/certs/staging.key");
}

TEST_CASE("merged files: the first file defining a name wins, current-context comes from the first file setting it")
{
    const std::vector<kubeconfig_text> files{{"/a/first.yaml", fixture("token.yaml")},
                                             {"/b/second.yaml", fixture("second-file.yaml")}};
    auto p = parse_kubeconfig(files, "");
    REQUIRE_MESSAGE(p.ok(), p.error().message);
    CHECK(p->config.context_name == "prod"); // token.yaml sets it first
    CHECK(p->config.server == "https://10.0.0.10:6443"); // not second-file's "prod"
    CHECK(p->config.source == "/a/first.yaml, /b/second.yaml");

    auto staging = parse_kubeconfig(files, "staging"); // a context only the second file defines
    REQUIRE_MESSAGE(staging.ok(), staging.error().message);
    CHECK(staging->config.server == "https://staging.example:6443");
    CHECK(staging->ca_file == "/pki/staging-ca.crt");

    const std::vector<kubeconfig_text> reversed{files[1], files[0]};
    auto r = parse_kubeconfig(reversed, "prod");
    REQUIRE_MESSAGE(r.ok(), r.error().message);
    CHECK(r->config.server == "https://shadowed.example:6443");

    // A first file without current-context leaves it to the next one.
    auto later = parse_kubeconfig({{"/a/empty.yaml", "apiVersion: v1\nkind: Config\n"}, files[0]}, "");
    REQUIRE_MESSAGE(later.ok(), later.error().message);
    CHECK(later->config.context_name == "prod");
}

TEST_CASE("exec plugins: v1 with everything, v1beta1 defaults interactiveMode, a path command is resolved")
{
    auto p = parse_kubeconfig({{"/k/exec.yaml", fixture("exec-v1.yaml")}}, "");
    REQUIRE_MESSAGE(p.ok(), p.error().message);
    REQUIRE(p->config.exec.has_value());
    const auto& e = *p->config.exec;
    CHECK(e.api_version == "client.authentication.k8s.io/v1");
    CHECK(e.command == "aws"); // a PATH name stays one
    CHECK(e.args == std::vector<std::string>{"--region", "eu-west-1", "eks", "get-token", "--cluster-name", "karmada"});
    REQUIRE(e.env.size() == 1);
    CHECK(e.env[0] == std::pair<std::string, std::string>{"AWS_PROFILE", "platform"});
    CHECK(e.install_hint.starts_with("aws is needed to get a token; see\n"));
    CHECK(e.provide_cluster_info);
    CHECK(e.interactive_mode == "Never");

    auto b = parse_kubeconfig({{"/k/exec-b.yaml", fixture("exec-v1beta1.yaml")}}, "");
    REQUIRE_MESSAGE(b.ok(), b.error().message);
    CHECK(b->config.exec->command == "/k/bin/gke-gcloud-auth-plugin");
    CHECK(b->config.exec->interactive_mode == "IfAvailable");
    CHECK_FALSE(b->config.exec->provide_cluster_info);
}

TEST_CASE("a missing context lists the available ones and says where the name came from")
{
    const std::string flag = error_of(basic, "prod");
    CHECK(flag == "kubeconfig /home/u/.kube/config: context \"prod\" (--context) not found (contexts: karmada-admin)");
    std::string current = basic;
    current.replace(current.find("current-context: karmada-admin"), 30, "current-context: gone");
    CHECK(error_of(current).find("context \"gone\" (current-context in /home/u/.kube/config) not found") !=
          std::string::npos);
}

TEST_CASE("an empty config, or one without current-context, needs --context")
{
    CHECK(error_of("") == "kubeconfig /home/u/.kube/config: no current-context and no --context (contexts: none)");
    auto none = parse_kubeconfig({}, "");
    REQUIRE_FALSE(none.ok());
    CHECK(none.error().message.find("no current-context and no --context") != std::string::npos);
    std::string no_current = basic.substr(0, basic.find("current-context:")) + basic.substr(basic.find("users:"));
    CHECK(error_of(no_current).find("(contexts: karmada-admin)") != std::string::npos);
}

TEST_CASE("a context naming a missing cluster or user, or a cluster without a server, is an error naming the key")
{
    const std::string text = fixture("bad-references.yaml");
    const std::string fixed = text.substr(0, text.find("- name: bad-ca")) + text.substr(text.find("users:"));
    CHECK(error_of(fixed) == "kubeconfig /home/u/.kube/config: contexts[\"missing-cluster\"].context.cluster: "
                             "cluster \"nowhere\" not found (clusters: no-server)");
    CHECK(error_of(fixed, "missing-user") == "kubeconfig /home/u/.kube/config: contexts[\"missing-user\"].context.user: "
                                             "user \"nobody\" not found (users: u)");
    CHECK(error_of(fixed, "no-server") == "kubeconfig /home/u/.kube/config: clusters[\"no-server\"].cluster: no server "
                                          "(cluster \"no-server\" has no server defined)");
    CHECK(error_of("contexts:\n- name: x\n  context: {user: u}\ncurrent-context: x\n").find(
              "contexts[\"x\"].context.cluster: context \"x\" names no cluster") != std::string::npos);
}

TEST_CASE("a context without a user connects anonymously")
{
    auto p = parse_one("clusters:\n- name: c\n  cluster: {server: 'https://s'}\ncontexts:\n- name: x\n  context: "
                       "{cluster: c}\ncurrent-context: x\n");
    REQUIRE_MESSAGE(p.ok(), p.error().message);
    CHECK(p->config.user_name.empty());
    CHECK(p->config.identity() == "no user (anonymous) in context x (/home/u/.kube/config)");
}

TEST_CASE("bad base64 anywhere fails the file, naming the key and the byte, never the data")
{
    const std::string e = error_of(fixture("bad-references.yaml"));
    CHECK(e == "kubeconfig /home/u/.kube/config:11:33: clusters[\"bad-ca\"].cluster.certificate-authority-data: "
               "not valid base64 (illegal base64 data at input byte 3)");
    const std::string key = error_of(with(server, "    client-certificate-data: Y2VydA==\n    client-key-data: "
                                                  "c2VjcmV0LWtleQ=\n"));
    CHECK(key.find("users[\"u\"].user.client-key-data: not valid base64") != std::string::npos);
    CHECK(key.find("c2VjcmV0") == std::string::npos);
    // Go's decoder skips line breaks inside the data.
    auto wrapped = parse_one(with(server + "    certificate-authority-data: |\n      Y2Vy\n      dA==\n", "    {}\n"));
    REQUIRE_MESSAGE(wrapped.ok(), wrapped.error().message);
    CHECK(wrapped->config.ca_pem == "cert");
}

TEST_CASE("wrong YAML types name the file, the line and the key")
{
    CHECK(error_of("clusters: prod\n") == "kubeconfig /home/u/.kube/config:1:11: clusters: expected a list, found string");
    CHECK(error_of("clusters:\n- name: c\n  cluster: https://s\n") ==
          "kubeconfig /home/u/.kube/config:3:12: clusters[\"c\"].cluster: expected a mapping, found string");
    CHECK(error_of(with("    server: {a: b}\n", "    {}\n")) ==
          "kubeconfig /home/u/.kube/config:4:13: clusters[\"c\"].cluster.server: expected a string, found object");
    CHECK(error_of(with(server + "    insecure-skip-tls-verify: \"true\"\n", "    {}\n")).find(
              "clusters[\"c\"].cluster.insecure-skip-tls-verify: expected a boolean, found string") != std::string::npos);
    CHECK(error_of("- a\n- b\n") == "kubeconfig /home/u/.kube/config:1:1: (top level): expected a mapping, found array");
    CHECK(error_of("clusters: [\n") == "kubeconfig /home/u/.kube/config:2:1: not valid YAML: end of sequence flow not found");
    CHECK(error_of("apiVersion: v2\n").find("apiVersion: \"v2\" is not supported (v1)") != std::string::npos);
    CHECK(error_of("clusters:\n- name: c\n- name: c\n").find("duplicate name \"c\" in clusters") != std::string::npos);
}

TEST_CASE("YAML 1.1 booleans and numbers read as kubectl reads them")
{
    auto p = parse_one(with("    server: https://s\n    insecure-skip-tls-verify: yes\n    tls-server-name: 1234\n",
                            "    username: 0123\n    password: true\n"));
    REQUIRE_MESSAGE(p.ok(), p.error().message);
    CHECK(p->config.insecure_skip_tls_verify);
    CHECK(p->config.tls_server_name == "1234");
    CHECK(p->config.password == "true");
}

TEST_CASE("conflicting credentials are refused as kubectl refuses them, without their values")
{
    const std::string both = error_of(with(server, "    token: t0ps3cret\n    username: a\n    password: pw-s3cret\n"));
    CHECK(both.find("more than one authentication method found (token, basicAuth)") != std::string::npos);
    CHECK(both.find("t0ps3cret") == std::string::npos);
    CHECK(both.find("pw-s3cret") == std::string::npos);
    CHECK(error_of(with(server + "    certificate-authority-data: " + ca_b64 + "\n    certificate-authority: ca.crt\n",
                        "    {}\n"))
              .find("certificate-authority-data and certificate-authority are both specified") != std::string::npos);
    CHECK(error_of(with(server, "    client-certificate-data: Y2VydA==\n    client-certificate: c.crt\n    client-key: k\n"))
              .find("client-certificate-data and client-certificate are both specified") != std::string::npos);
    CHECK(error_of(with(server, "    client-certificate-data: Y2VydA==\n"))
              .find("users[\"u\"].user: client-key-data or client-key must be specified") != std::string::npos);
    CHECK(error_of(with(server, "    auth-provider: {name: oidc, config: {id-token: s3cret}}\n"))
              .find("auth provider \"oidc\" is not supported; use an exec credential plugin") != std::string::npos);
}

TEST_CASE("a token and a token file together are accepted (client-go sends the file's token while it is readable)")
{
    auto p = parse_one(with(server, "    token: static\n    tokenFile: /var/run/token\n"));
    REQUIRE_MESSAGE(p.ok(), p.error().message);
    CHECK(p->config.token == "static");
    CHECK(p->config.token_file == "/var/run/token");
}

TEST_CASE("exec plugin settings are checked as client-go checks them")
{
    const auto exec_error = [](const std::string& exec) {
        return error_of(with(server, "    exec:\n" + exec));
    };
    CHECK(exec_error("      apiVersion: client.authentication.k8s.io/v1alpha1\n      command: x\n")
              .find("users[\"u\"].user.exec.apiVersion: \"client.authentication.k8s.io/v1alpha1\" is not supported") !=
          std::string::npos);
    CHECK(exec_error("      command: x\n").find("exec.apiVersion: must be specified") != std::string::npos);
    CHECK(exec_error("      apiVersion: client.authentication.k8s.io/v1\n").find("exec.command: must be specified") !=
          std::string::npos);
    CHECK(exec_error("      apiVersion: client.authentication.k8s.io/v1\n      command: x\n")
              .find("exec.interactiveMode: must be specified for client.authentication.k8s.io/v1") != std::string::npos);
    CHECK(exec_error("      apiVersion: client.authentication.k8s.io/v1\n      command: x\n      interactiveMode: Sometimes\n")
              .find("\"Sometimes\" is not one of Never, IfAvailable, Always") != std::string::npos);
    CHECK(exec_error("      apiVersion: client.authentication.k8s.io/v1beta1\n      command: x\n      env: [{value: v}]\n")
              .find("exec.env[0].name: must be specified") != std::string::npos);
    CHECK(exec_error("      apiVersion: client.authentication.k8s.io/v1beta1\n      command: x\n      env: [a]\n")
              .find("exec.env[0]: expected a mapping with name and value") != std::string::npos);
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
    CHECK(rc->source == path.string());

    fs::remove(dir.path / "pki" / "admin.key");
    auto missing = load_kubeconfig({.flag = path.string(), .env = "", .home = "", .context = ""});
    REQUIRE_FALSE(missing.ok());
    CHECK(missing.error().message == "kubeconfig " + path.string() + ": client-key " +
                                         (dir.path / "pki" / "admin.key").string() + " (user u in context x (" +
                                         path.string() + ")): No such file or directory");
}

TEST_CASE("$KUBECONFIG is a ':' list: empty entries and missing files are skipped, the rest merged in order")
{
    temp_dir dir;
    const auto a = dir.write("a", "clusters:\n- name: c\n  cluster: {server: 'https://a'}\ncurrent-context: x\n");
    const auto b = dir.write("b", "clusters:\n- name: c\n  cluster: {server: 'https://b'}\ncontexts:\n- name: x\n"
                                  "  context: {cluster: c}\n");
    const std::string env = ":" + (dir.path / "missing").string() + ":" + a.string() + "::" + b.string() + ":" + a.string();
    auto rc = load_kubeconfig({.flag = "", .env = env, .home = "/nonexistent", .context = ""});
    REQUIRE_MESSAGE(rc.ok(), rc.error().message);
    CHECK(rc->server == "https://a");
    CHECK(rc->source == a.string() + ", " + b.string());

    auto none = load_kubeconfig({.flag = "", .env = (dir.path / "missing").string(), .home = "", .context = ""});
    REQUIRE_FALSE(none.ok());
    CHECK(none.error().message.find("none of the files in $KUBECONFIG exists") != std::string::npos);
}

TEST_CASE("a missing --kubeconfig is an error; without flag and $KUBECONFIG, ~/.kube/config is read")
{
    temp_dir dir;
    auto missing = load_kubeconfig({.flag = (dir.path / "nope").string(), .env = "", .home = "", .context = ""});
    REQUIRE_FALSE(missing.ok());
    CHECK(missing.error().message == "kubeconfig " + (dir.path / "nope").string() + " (--kubeconfig): no such file");

    auto no_home = load_kubeconfig({.flag = "", .env = "", .home = dir.path.string(), .context = ""});
    REQUIRE_FALSE(no_home.ok());
    CHECK(no_home.error().message.find((dir.path / ".kube" / "config").string() + " does not exist") != std::string::npos);

    dir.write(".kube/config", basic);
    auto home = load_kubeconfig({.flag = "", .env = "", .home = dir.path.string(), .context = ""});
    REQUIRE_MESSAGE(home.ok(), home.error().message);
    CHECK(home->server == "https://karmada.example:5443");
}

TEST_CASE("a kubeconfig file over 16 MiB is refused before it is read")
{
    temp_dir dir;
    const auto path = dir.write("huge", "");
    fs::resize_file(path, (16u << 20) + 1); // sparse: nothing is written
    auto rc = load_kubeconfig({.flag = path.string(), .env = "", .home = "", .context = ""});
    REQUIRE_FALSE(rc.ok());
    CHECK(rc.error().message == "kubeconfig " + path.string() + ": larger than 16 MiB");
}

TEST_CASE("in-cluster: the service host (IPv6 bracketed) and port, the token file, ca.crt and namespace")
{
    temp_dir dir;
    dir.write("token", "sa-token\n");
    dir.write("ca.crt", ca_pem);
    dir.write("namespace", "karmada-system");
    scoped_env host("KUBERNETES_SERVICE_HOST", "fd00::1");
    scoped_env port("KUBERNETES_SERVICE_PORT", "443");
    scoped_env pod_ns("POD_NAMESPACE", nullptr);
    auto rc = kpw::kube::in_cluster_config(dir.path.string());
    REQUIRE_MESSAGE(rc.ok(), rc.error().message);
    CHECK(rc->server == "https://[fd00::1]:443");
    CHECK(rc->token == "sa-token");
    CHECK(rc->token_file == (dir.path / "token").string());
    CHECK(rc->ca_pem == ca_pem);
    CHECK(rc->default_namespace == "karmada-system");
    CHECK(rc->identity() == "in-cluster service account, token " + (dir.path / "token").string());

    scoped_env v4("KUBERNETES_SERVICE_HOST", "10.96.0.1");
    fs::remove(dir.path / "namespace");
    auto v4rc = kpw::kube::in_cluster_config(dir.path.string());
    REQUIRE(v4rc.ok());
    CHECK(v4rc->server == "https://10.96.0.1:443");
    CHECK(v4rc->default_namespace == "default");

    fs::remove(dir.path / "token");
    auto no_token = kpw::kube::in_cluster_config(dir.path.string());
    REQUIRE_FALSE(no_token.ok());
    CHECK(no_token.error().message.find("service account token " + (dir.path / "token").string()) != std::string::npos);
}

TEST_CASE("outside a cluster, in_cluster_config says so")
{
    scoped_env host("KUBERNETES_SERVICE_HOST", nullptr);
    auto rc = kpw::kube::in_cluster_config("/nonexistent");
    REQUIRE_FALSE(rc.ok());
    CHECK(rc.error().message.starts_with("not running in a cluster: KUBERNETES_SERVICE_HOST and KUBERNETES_SERVICE_PORT"));
}

TEST_CASE("a YAML syntax error gives its position and yaml-cpp's words, not the line's text")
{
    const std::string e = error_of("users:\n- name: u\n  user:\n    token: \"abc\"s3cr3t\n");
    CHECK(e.starts_with("kubeconfig /home/u/.kube/config:4:"));
    CHECK(e.find(": not valid YAML: ") != std::string::npos);
    CHECK(e.find("s3cr3t") == std::string::npos);
}

TEST_CASE("what this client cannot honour is refused rather than ignored")
{
    CHECK(error_of(with(server + "    insecure-skip-tls-verify: true\n    certificate-authority-data: " + ca_b64 + "\n", "    {}\n"))
              .find("specifying a root certificates file with the insecure flag is not allowed") != std::string::npos);
    CHECK(error_of(with(server + "    proxy-url: https://user:pw@proxy:3128\n", "    {}\n")) ==
          "kubeconfig /home/u/.kube/config:5:16: clusters[\"c\"].cluster.proxy-url: an https:// proxy (TLS to the "
          "proxy) is not supported by this client; use an http:// proxy (CONNECT) or a socks5:// proxy");
    CHECK(error_of(with(server, "    token: t\n    as: someone-else\n"))
              .find("users[\"u\"].user.as: impersonation is not supported") != std::string::npos);
}

TEST_CASE("a server without a scheme is https when TLS is configured, else http, as client-go defaults it")
{
    auto tls = parse_one(with("    server: 10.0.0.1:6443\n    certificate-authority-data: " + ca_b64 + "\n", "    {}\n"));
    REQUIRE_MESSAGE(tls.ok(), tls.error().message);
    CHECK(tls->config.server == "https://10.0.0.1:6443");
    auto plain = parse_one(with("    server: localhost:8080\n", "    token: t\n"));
    REQUIRE_MESSAGE(plain.ok(), plain.error().message);
    CHECK(plain->config.server == "http://localhost:8080");
}

TEST_CASE("base64 errors give the byte Go's decoder reports")
{
    const auto ca_error = [](const std::string& data) {
        return error_of(with(server + "    certificate-authority-data: \"" + data + "\"\n", "    {}\n"));
    };
    CHECK(ca_error("Q0E").ends_with("(illegal base64 data at input byte 0)"));      // unpadded last quantum
    CHECK(ca_error("QQ==QQ==").ends_with("(illegal base64 data at input byte 4)")); // data after the padding
    CHECK(ca_error("Q===").ends_with("(illegal base64 data at input byte 1)"));
    CHECK(ca_error("Q0E*").ends_with("(illegal base64 data at input byte 3)"));
    CHECK(error_of("apiVersion: [v1]\n").find(": apiVersion: expected a string, found array") != std::string::npos);
}

TEST_CASE("proxy-url is carried to the connection (http and socks5), and checked as clientcmd checks it")
{
    auto http = parse_one(with(server + "    proxy-url: http://user:pw@proxy.corp:3128\n", "    {}\n"));
    REQUIRE_MESSAGE(http.ok(), http.error().message);
    CHECK(http->config.proxy_url == "http://user:pw@proxy.corp:3128");
    auto socks = parse_one(with(server + "    proxy-url: socks5://bastion:1080\n", "    {}\n"));
    REQUIRE_MESSAGE(socks.ok(), socks.error().message);
    CHECK(socks->config.proxy_url == "socks5://bastion:1080");
    // clientcmd parseProxyURL: the scheme must be http, https or socks5; the URL is never echoed (it may hold
    // a password).
    const std::string bad = error_of(with(server + "    proxy-url: ftp://user:pw@proxy\n", "    {}\n"));
    CHECK(bad.find("clusters[\"c\"].cluster.proxy-url: the proxy scheme \"ftp\" is not supported") != std::string::npos);
    CHECK(bad.find("pw") == std::string::npos);
    CHECK(error_of(with(server + "    proxy-url: proxy.corp:3128\n", "    {}\n")).find("proxy-url: not a URL") !=
          std::string::npos);
}

TEST_CASE("disable-compression and extensions are accepted as client-go accepts them, and type-checked")
{
    for (const char* value : {"true", "false"}) {
        CAPTURE(value);
        auto p = parse_one(with(server + "    disable-compression: " + value + "\n", "    {}\n"));
        CHECK_MESSAGE(p.ok(), (p.ok() ? "" : p.error().message));
    }
    const std::string ext = "    extensions:\n    - name: a\n      extension: {any: thing}\n";
    const std::string text = "extensions:\n- name: top\n  extension: [1, 2]\npreferences:\n  extensions:\n  - name: p\n"
                             "    extension: {}\n" +
                             with(server + ext, "    token: t\n" + ext) ;
    auto p = parse_one(text);
    REQUIRE_MESSAGE(p.ok(), (p.ok() ? "" : p.error().message));
    CHECK(p->config.token == "t");
    CHECK(error_of(with(server + "    disable-compression: sometimes\n", "    {}\n"))
              .find("clusters[\"c\"].cluster.disable-compression: expected a boolean") != std::string::npos);
    CHECK(error_of(with(server + "    extensions: {name: a}\n", "    {}\n"))
              .find("clusters[\"c\"].cluster.extensions: expected a list") != std::string::npos);
    CHECK(error_of(with(server + "    extensions:\n    - {name: a}\n    - {name: a}\n", "    {}\n"))
              .find("clusters[\"c\"].cluster.extensions[1]: duplicate extension name \"a\"") != std::string::npos);
}
