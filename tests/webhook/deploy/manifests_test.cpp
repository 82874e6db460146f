// SPDX-License-Identifier: Apache-2.0
// manifests/ and Containerfile: every file parses, and ports, paths, flags, probes, names and SANs agree
// with each other and with the binary's own defaults.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "doc/load.hpp"
#include "support/process.hpp"

#include "server/options.hpp" // serve's defaults: Karmada's flag names and values

namespace fs = std::filesystem;
using kpw::doc::value;

namespace {

const fs::path manifests = fs::path(KPW_SOURCE_ROOT) / "manifests";
constexpr std::string_view service_name = "karmada-policy-webhook";
constexpr std::string_view namespace_name = "karmada-system";
constexpr std::string_view secret_name = "karmada-policy-webhook-cert";

std::string read(const fs::path& p)
{
    std::ifstream in(p, std::ios::binary);
    REQUIRE_MESSAGE(in, p.string());
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

std::vector<value> load(const fs::path& p)
{
    auto docs = kpw::doc::load_yaml(read(p));
    REQUIRE_MESSAGE(docs.ok(), p.string() << ": " << (docs.ok() ? "" : docs.error().message));
    std::vector<value> out;
    for (auto& d : *docs)
        out.push_back(std::move(d.root));
    return out;
}

// The one object of `kind` in file `p` (relative to manifests/).
value object(const std::string& p, std::string_view kind, std::string_view name = {})
{
    for (auto& v : load(manifests / p))
        if (v.string_at("kind") == kind && (name.empty() || v.find_path({"metadata", "name"})->text() == name))
            return v;
    FAIL("no " << kind << " " << name << " in " << p);
    return {};
}

const value& at(const value& v, std::initializer_list<std::string_view> keys)
{
    const value* found = v.find_path(keys);
    REQUIRE_MESSAGE(found, "missing " << *(keys.end() - 1));
    return *found;
}

const value& container(const value& deployment)
{
    const auto& containers = at(deployment, {"spec", "template", "spec", "containers"}).items();
    REQUIRE(containers.size() == 1);
    return containers[0];
}

// "--name=value" arguments of the container (after the "serve" subcommand).
std::map<std::string, std::string> flags(const value& c)
{
    const auto& args = at(c, {"args"}).items();
    REQUIRE(!args.empty());
    CHECK(args[0].text() == "serve");
    std::map<std::string, std::string> out;
    for (std::size_t i = 1; i < args.size(); ++i) {
        const std::string& a = args[i].text();
        const auto eq = a.find('=');
        REQUIRE_MESSAGE((a.starts_with("--") && eq != std::string::npos), a);
        CHECK_MESSAGE(out.emplace(a.substr(0, eq), a.substr(eq + 1)).second, "repeated " << a);
    }
    return out;
}

std::int64_t container_port(const value& c, std::string_view name)
{
    for (const auto& p : at(c, {"ports"}).items())
        if (p.string_at("name") == name)
            return p.find("containerPort")->as_int();
    FAIL("no container port " << name);
    return 0;
}

// ":8000" or "0.0.0.0:8000" -> 8000.
std::int64_t port_of(const std::string& address) { return std::stoll(address.substr(address.rfind(':') + 1)); }

// Loaded inside a test case (a failed REQUIRE outside one would abort the run), once.
const value& deployment_object()
{
    static const value v = object("base/deployment.yaml", "Deployment");
    return v;
}

const value& webhook_config_object()
{
    static const value v =
        object("karmada-apiserver/validating-webhook-configuration.yaml", "ValidatingWebhookConfiguration");
    return v;
}

// The long flag names a CLI11 --help lists ("  -o,--output TEXT=text  ..." -> "--output").
std::set<std::string> help_flags(const std::string& help)
{
    std::set<std::string> out;
    std::istringstream in(help);
    for (std::string line; std::getline(in, line);) {
        std::istringstream words(line);
        std::string names;
        words >> names;
        std::istringstream parts(names);
        for (std::string name; std::getline(parts, name, ',');)
            if (name.starts_with("--"))
                out.insert(name);
    }
    return out;
}

} // namespace

TEST_CASE("the --help reader finds the flags (checked on lint, which is always built)")
{
    const auto r = kpw::test::run_process({KPW_BINARY, "lint", "--help"});
    REQUIRE(r.exit_code == 0);
    CHECK(help_flags(r.out) == std::set<std::string>{"--help", "--output", "--namespace", "--allow-aggregated-overflow",
                                                     "--clusters", "--workloads", "--bindings", "--unschedulable", "--explain",
                                                     "--legacy-default-tolerations", "--base", "--fail-on", "--validate",
                                                     "--link-base", "--report", "--feature-gates", "--member-state", "--members-through-proxy", "--karmada-version",
                                                     "--kubeconfig", "--context", "--request-timeout"});
}

TEST_CASE("every flag the Deployment passes is a serve flag")
{
    const auto r = kpw::test::run_process({KPW_BINARY, "serve", "--help"});
    REQUIRE_MESSAGE(r.exit_code == 0, "serve --help: " << r.err);
    REQUIRE(r.out.find("karmada-policy-webhook serve") != std::string::npos);
    const auto help = help_flags(r.out);
    // The reader must have found serve's flags, or the loop below would check nothing.
    REQUIRE(help.count("--secure-port") == 1);
    for (const auto& flag : flags(container(deployment_object())))
        CHECK_MESSAGE(help.count(flag.first) == 1, flag.first << " is not a serve flag");
}

TEST_CASE("the ports and file names the manifests are built around are serve's defaults")
{
    // So that `serve` with no flags answers where the Service, the probes and the Secret expect it.
    const kpw::server::serve_options defaults;
    const auto f = flags(container(deployment_object()));
    CHECK(std::to_string(defaults.secure_port) == f.at("--secure-port"));
    CHECK(defaults.health_probe_bind_address == f.at("--health-probe-bind-address"));
    CHECK(defaults.metrics_bind_address == f.at("--metrics-bind-address"));
    CHECK(defaults.tls_cert_file_name == f.at("--tls-cert-file-name"));
    CHECK(defaults.tls_private_key_file_name == f.at("--tls-private-key-file-name"));
}

TEST_CASE("every manifest parses and every namespaced object is in karmada-system")
{
    int files = 0;
    for (const auto& entry : fs::recursive_directory_iterator(manifests)) {
        const fs::path rel = entry.path().lexically_relative(manifests);
        if (*rel.begin() == "examples" || entry.path().extension() != ".yaml")
            continue;
        ++files;
        for (const value& v : load(entry.path())) {
            CAPTURE(rel.string());
            CHECK(!v.string_at("apiVersion").empty());
            CHECK(!v.string_at("kind").empty());
            const value* ns = v.find_path({"metadata", "namespace"});
            if (ns && v.string_at("kind") != "Kustomization")
                CHECK(ns->text() == namespace_name);
        }
    }
    CHECK(files >= 8);
}

TEST_CASE("kustomizations list files that exist, and the base lists every file beside it")
{
    for (const char* dir : {"base", "overlays/cert-manager", "overlays/live-snapshot"}) {
        const value k = object(std::string(dir) + "/kustomization.yaml", "Kustomization");
        CHECK(k.string_at("namespace") == namespace_name);
        for (const auto& r : at(k, {"resources"}).items())
            CHECK_MESSAGE(fs::exists(manifests / dir / r.text()), dir << ": " << r.text());
    }
    const value base = object("base/kustomization.yaml", "Kustomization");
    for (const auto& entry : fs::directory_iterator(manifests / "base")) {
        const std::string name = entry.path().filename().string();
        if (name == "kustomization.yaml")
            continue;
        const auto& resources = at(base, {"resources"}).items();
        CHECK_MESSAGE(std::any_of(resources.begin(), resources.end(), [&](const value& r) { return r.text() == name; }),
                      name << " is not in base/kustomization.yaml");
        // The webhook configuration goes to karmada-apiserver, never to the host cluster.
        for (const value& v : load(entry.path()))
            CHECK(v.string_at("kind") != "ValidatingWebhookConfiguration");
    }
}

TEST_CASE("the Deployment is hardened, sized and spread as the issue asks")
{
    CHECK(at(deployment_object(), {"metadata", "name"}).text() == service_name);
    CHECK(at(deployment_object(), {"spec", "replicas"}).as_int() == 2);
    const value& pod = at(deployment_object(), {"spec", "template", "spec"});
    CHECK(at(pod, {"automountServiceAccountToken"}).as_bool() == false);
    CHECK(at(pod, {"securityContext", "runAsNonRoot"}).as_bool());
    CHECK(at(pod, {"securityContext", "seccompProfile", "type"}).text() == "RuntimeDefault");
    CHECK(pod.find_path({"affinity", "podAntiAffinity"}) != nullptr);
    const value& c = container(deployment_object());
    CHECK(at(c, {"securityContext", "readOnlyRootFilesystem"}).as_bool());
    CHECK(at(c, {"securityContext", "allowPrivilegeEscalation"}).as_bool() == false);
    const auto& drop = at(c, {"securityContext", "capabilities", "drop"}).items();
    REQUIRE(drop.size() == 1);
    CHECK(drop[0].text() == "ALL");
    for (const char* kind : {"requests", "limits"})
        for (const char* resource : {"cpu", "memory"})
            CHECK(c.find_path({"resources", kind, resource}) != nullptr);
}

TEST_CASE("ports agree: Service 443 -> https -> --secure-port, probes on the health port")
{
    const value& c = container(deployment_object());
    const auto f = flags(c);
    CHECK(std::stoll(f.at("--secure-port")) == container_port(c, "https"));
    CHECK(port_of(f.at("--health-probe-bind-address")) == container_port(c, "health"));
    CHECK(port_of(f.at("--metrics-bind-address")) == container_port(c, "metrics"));

    const value service_object = object("base/service.yaml", "Service");
    const auto& ports = at(service_object, {"spec", "ports"}).items();
    REQUIRE(ports.size() == 1);
    CHECK(ports[0].find("port")->as_int() == 443);
    CHECK(ports[0].string_at("targetPort") == "https");
    CHECK(at(service_object, {"metadata", "name"}).text() == service_name);
    CHECK(at(service_object, {"spec", "selector"}) == at(deployment_object(), {"spec", "template", "metadata", "labels"}));
    const value pdb = object("base/poddisruptionbudget.yaml", "PodDisruptionBudget");
    CHECK(at(pdb, {"spec", "selector", "matchLabels"}) == at(deployment_object(), {"spec", "selector", "matchLabels"}));
    CHECK(at(pdb, {"spec", "minAvailable"}).as_int() < at(deployment_object(), {"spec", "replicas"}).as_int());

    const std::pair<const char*, const char*> probes[] = {{"readinessProbe", "/readyz"}, {"livenessProbe", "/healthz"}};
    for (const auto& probe : probes) {
        CHECK(at(c, {probe.first, "httpGet", "path"}).text() == probe.second);
        CHECK(at(c, {probe.first, "httpGet", "port"}).text() == "health");
    }
}

TEST_CASE("the serving certificate Secret is mounted read-only at --cert-dir with the flag's file names")
{
    const value& c = container(deployment_object());
    const auto f = flags(c);
    std::string volume;
    for (const auto& v : at(deployment_object(), {"spec", "template", "spec", "volumes"}).items())
        if (v.find_path({"secret", "secretName"}) && at(v, {"secret", "secretName"}).text() == secret_name)
            volume = v.string_at("name");
    REQUIRE(!volume.empty());
    bool mounted = false;
    for (const auto& m : at(c, {"volumeMounts"}).items())
        if (m.string_at("name") == volume) {
            mounted = true;
            CHECK(m.string_at("mountPath") == f.at("--cert-dir"));
            CHECK(m.find("readOnly")->as_bool());
        }
    CHECK(mounted);
    // The keys `kubectl create secret tls` and cert-manager both write.
    CHECK(f.at("--tls-cert-file-name") == "tls.crt");
    CHECK(f.at("--tls-private-key-file-name") == "tls.key");
}

TEST_CASE("the webhook configuration calls the Service's DNS name on 443 at the two validate paths")
{
    const auto& hooks = at(webhook_config_object(), {"webhooks"}).items();
    REQUIRE(hooks.size() == 2);
    const std::string host = std::string(service_name) + "." + std::string(namespace_name) + ".svc";
    const std::pair<const char*, const char*> expected[] = {{"propagationpolicies", "/validate-propagationpolicy"},
                                                            {"clusterpropagationpolicies",
                                                             "/validate-clusterpropagationpolicy"}};
    for (std::size_t i = 0; i < 2; ++i) {
        const value& h = hooks[i];
        CAPTURE(h.string_at("name"));
        CHECK(at(h, {"clientConfig", "url"}).text() == "https://" + host + ":443" + expected[i].second);
        CHECK(h.find_path({"clientConfig", "service"}) == nullptr);
        CHECK(at(h, {"clientConfig", "caBundle"}).text() == "{{caBundle}}");
        CHECK(h.string_at("sideEffects") == "None");
        CHECK(h.string_at("failurePolicy") == "Fail");
        CHECK(at(h, {"timeoutSeconds"}).as_int() == 3);
        const auto& versions = at(h, {"admissionReviewVersions"}).items();
        REQUIRE(versions.size() == 1);
        CHECK(versions[0].text() == "v1");
        const auto& rules = at(h, {"rules"}).items();
        REQUIRE(rules.size() == 1);
        CHECK(at(rules[0], {"apiGroups"}).items().at(0).text() == "policy.karmada.io");
        CHECK(at(rules[0], {"resources"}).items().at(0).text() == expected[i].first);
        const auto& ops = at(rules[0], {"operations"}).items();
        REQUIRE(ops.size() == 2);
        CHECK(ops[0].text() == "CREATE");
        CHECK(ops[1].text() == "UPDATE");
    }
}

TEST_CASE("cert-manager issues the Secret the Deployment mounts, for the host the webhook URL uses")
{
    const std::string file = "overlays/cert-manager/certificates.yaml";
    const value leaf = object(file, "Certificate", secret_name);
    CHECK(at(leaf, {"spec", "secretName"}).text() == secret_name);
    std::vector<std::string> dns;
    for (const auto& d : at(leaf, {"spec", "dnsNames"}).items())
        dns.push_back(d.text());
    const std::string host = std::string(service_name) + "." + std::string(namespace_name) + ".svc";
    CHECK(dns == std::vector<std::string>{host, host + ".cluster.local"});
    const std::string url = at(webhook_config_object(), {"webhooks"}).items()[0].find_path({"clientConfig", "url"})->text();
    CHECK(url.starts_with("https://" + host + ":"));

    // Leaf <- CA Issuer <- CA Certificate (isCA) <- self-signed Issuer.
    const std::string ca_issuer = at(leaf, {"spec", "issuerRef", "name"}).text();
    const value issuer = object(file, "Issuer", ca_issuer);
    const value ca = object(file, "Certificate", "karmada-policy-webhook-ca");
    CHECK(at(ca, {"spec", "isCA"}).as_bool());
    CHECK(at(issuer, {"spec", "ca", "secretName"}).text() == at(ca, {"spec", "secretName"}).text());
    CHECK(object(file, "Issuer", at(ca, {"spec", "issuerRef", "name"}).text()).find_path({"spec", "selfSigned"}));
}

TEST_CASE("the Containerfile runs the README's build and the user the Deployment expects")
{
    const std::string text = read(fs::path(KPW_SOURCE_ROOT) / "Containerfile");
    CHECK(text.find("FROM debian:bookworm AS build") != std::string::npos);
    CHECK(text.find("FROM debian:bookworm-slim") != std::string::npos);
    // The build stage runs the suites by default (KPW_TESTS=1) with the README's script.
    CHECK(text.find("ARG KPW_TESTS=1") != std::string::npos);
    CHECK(text.find("./dev.sh test-suites") != std::string::npos);
    const auto uid = at(deployment_object(), {"spec", "template", "spec", "securityContext", "runAsUser"}).as_int();
    CHECK(text.find("USER " + std::to_string(uid) + ":") != std::string::npos);
    const value& c = container(deployment_object());
    for (const char* port : {"https", "health", "metrics"})
        CHECK(text.find(std::to_string(container_port(c, port))) != std::string::npos);
    CHECK(at(c, {"args"}).items()[0].text() == "serve");
}

// Issue 38: the live-snapshot overlay's memory follows BENCHMARKS.md ("serve's live snapshot: memory"):
// about 60 MiB for serve with 10,000 Deployments plus 32 MiB per 1,000 Clusters at a burst's peak. Its
// limit must hold the peak of the Clusters its --live-max-objects lets in, its request the steady 5,000.
TEST_CASE("the live-snapshot overlay's memory holds the Clusters its --live-max-objects lets in")
{
    const value k = object("overlays/live-snapshot/kustomization.yaml", "Kustomization");
    std::string patch;
    for (const auto& p : at(k, {"patches"}).items())
        patch += p.string_at("patch");
    auto ops = kpw::doc::load_documents(patch);
    REQUIRE(ops.ok());
    REQUIRE(ops->size() == 1);
    long long max_objects = -1, request_mi = -1, limit_mi = -1;
    const auto mebibytes = [](const std::string& q) {
        REQUIRE(q.ends_with("Mi"));
        return std::stoll(q.substr(0, q.size() - 2));
    };
    for (const auto& op : (*ops)[0].root.items()) {
        const std::string path(op.string_at("path"));
        const value* v = op.find("value");
        REQUIRE(v != nullptr);
        if (path.ends_with("/args/-") && v->is_string() && v->text().starts_with("--live-max-objects="))
            max_objects = std::stoll(v->text().substr(std::string_view("--live-max-objects=").size()));
        else if (path.ends_with("/resources/requests/memory"))
            request_mi = mebibytes(v->text());
        else if (path.ends_with("/resources/limits/memory"))
            limit_mi = mebibytes(v->text());
    }
    REQUIRE(max_objects > 0); // never unbounded: more Clusters than the limit holds would kill every replica
    CHECK(limit_mi >= 60 + 32 * max_objects / 1000);
    CHECK(request_mi >= 60 + 26 * 5);  // 5,000 Clusters steady: 190 MiB measured
    CHECK(request_mi <= limit_mi);
}
