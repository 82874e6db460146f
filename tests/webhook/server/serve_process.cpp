// SPDX-License-Identifier: Apache-2.0
// Spawning and stopping the serve binary for integration tests.
#include "serve_process.hpp"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include <doctest/doctest.h>

#include "certs/openssl_handles.hpp"

extern char** environ;

namespace kpw::test {
namespace {

std::string slurp(const std::filesystem::path& p)
{
    std::ifstream in(p);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

pid_t spawn(const std::vector<std::string>& args, const std::filesystem::path& log)
{
    std::vector<std::string> argv_s{KPW_BINARY};
    argv_s.insert(argv_s.end(), args.begin(), args.end());
    std::vector<char*> argv;
    for (auto& a : argv_s)
        argv.push_back(a.data());
    argv.push_back(nullptr);
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, STDERR_FILENO, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_addopen(&fa, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
    pid_t pid = -1;
    const int rc = posix_spawn(&pid, KPW_BINARY, &fa, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&fa);
    if (rc != 0)
        throw std::runtime_error(std::string("cannot spawn ") + KPW_BINARY);
    return pid;
}

int wait_pid(pid_t pid, int timeout_ms)
{
    int status = 0;
    pid_t done = 0;
    const bool exited = wait_until([&] { return (done = ::waitpid(pid, &status, WNOHANG)) != 0; }, timeout_ms);
    if (!exited || done < 0)
        return -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

} // namespace

certs::bundle make_test_bundle()
{
    certs::serving_options leaf;
    leaf.dns_names = {"localhost", "svc.ns.svc"};
    leaf.ip_addresses = {"127.0.0.1"};
    auto b = certs::generate({}, leaf);
    if (!b)
        throw std::runtime_error(b.error().message);
    return *b;
}

certs::key_pair issue_client_certificate(const certs::bundle& authority, const std::string& common_name)
{
    using namespace certs::detail;
    auto ca_cert = read_cert(authority.ca_crt);
    auto ca_key = read_key(authority.ca_key);
    auto key = make_key(false, 0);
    x509_ptr cert(X509_new());
    if (!ca_cert || !ca_key || !key || !cert)
        throw std::runtime_error("client certificate: cannot read the CA or make a key");
    X509* x = cert.get();
    X509V3_CTX ctx;
    X509V3_set_ctx_nodb(&ctx);
    X509V3_set_ctx(&ctx, ca_cert->get(), x, nullptr, nullptr, 0);
    bool ok = X509_set_version(x, X509_VERSION_3) == 1 && ASN1_INTEGER_set(X509_get_serialNumber(x), 2) == 1 &&
              X509_gmtime_adj(X509_getm_notBefore(x), -60) && X509_gmtime_adj(X509_getm_notAfter(x), 3600) &&
              X509_set_pubkey(x, key->get()) == 1 &&
              X509_NAME_add_entry_by_txt(X509_get_subject_name(x), "CN", MBSTRING_UTF8,
                                         reinterpret_cast<const unsigned char*>(common_name.c_str()), -1, -1, 0) == 1 &&
              X509_set_issuer_name(x, X509_get_subject_name(ca_cert->get())) == 1;
    for (const auto& [nid, text] : {std::pair{NID_basic_constraints, "critical,CA:FALSE"},
                                    std::pair{NID_key_usage, "critical,digitalSignature"},
                                    std::pair{NID_ext_key_usage, "clientAuth"}}) {
        extension_ptr ext(X509V3_EXT_conf_nid(nullptr, &ctx, nid, text));
        ok = ok && ext && X509_add_ext(x, ext.get(), -1) == 1;
    }
    if (!ok || X509_sign(x, ca_key->get(), EVP_sha256()) <= 0)
        throw std::runtime_error("client certificate: " + openssl_error("issuing"));
    return {cert_pem(x), key_pem(key->get())};
}

serve_process::serve_process(std::vector<std::string> extra, bool write_certs) : bundle_(make_test_bundle())
{
    if (write_certs && !certs::write_bundle(bundle_, cert_dir()).ok())
        throw std::runtime_error("cannot write test certificates");
    const auto port_file = dir_.path / "ports";
    std::vector<std::string> args{"serve",
                                  "--cert-dir=" + cert_dir().string(),
                                  "--bind-address=127.0.0.1",
                                  "--secure-port=0",
                                  "--health-probe-bind-address=127.0.0.1:0",
                                  "--metrics-bind-address=127.0.0.1:0",
                                  "--port-file=" + port_file.string(),
                                  "--threads=2"};
    args.insert(args.end(), extra.begin(), extra.end());
    pid_ = spawn(args, dir_.path / "stderr.log");
    const bool up = wait_until([&] {
        int status = 0;
        return std::filesystem::exists(port_file) || ::waitpid(pid_, &status, WNOHANG) != 0;
    });
    if (!up || !std::filesystem::exists(port_file))
        throw std::runtime_error("serve did not start: " + log());
    std::istringstream lines(slurp(port_file));
    std::string role, where;
    while (lines >> role >> where) {
        const auto port = static_cast<unsigned short>(std::stoi(where.substr(where.rfind(':') + 1)));
        (role == "webhook" ? webhook_ : role == "health" ? health_ : metrics_) = port;
    }
}

serve_process::~serve_process()
{
    if (pid_ > 0) {
        ::kill(pid_, SIGKILL);
        int status = 0;
        ::waitpid(pid_, &status, 0);
    }
}

std::string serve_process::log() const
{
    return slurp(dir_.path / "stderr.log");
}

void serve_process::signal(int sig) const
{
    ::kill(pid_, sig);
}

int serve_process::wait_exit(int timeout_ms)
{
    const int rc = wait_pid(pid_, timeout_ms);
    if (rc != -1 || ::kill(pid_, 0) != 0)
        pid_ = -1;
    return rc;
}

std::pair<int, std::string> run_binary(const std::vector<std::string>& args, const std::filesystem::path& workdir)
{
    const auto log = workdir / "run.log";
    const pid_t pid = spawn(args, log);
    int rc = wait_pid(pid, 15000);
    if (rc == -1) {
        ::kill(pid, SIGKILL);
        ::waitpid(pid, nullptr, 0);
    }
    return {rc, slurp(log)};
}

} // namespace kpw::test
