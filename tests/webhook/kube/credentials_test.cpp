// SPDX-License-Identifier: Apache-2.0
// credentials: static and file tokens, basic auth, client certificates and exec credential plugins.
#include "kube/credentials.hpp"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <doctest/doctest.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstddef>

#include "support/temp_dir.hpp"

using kpw::kube::credentials;
using kpw::kube::rest_config;
using kpw::test::temp_dir;

TEST_CASE("a static token is sent as a Bearer token and a retry cannot change it")
{
    rest_config rc;
    rc.token = "abc";
    credentials c(rc);
    auto a = c.authorization();
    REQUIRE(a.ok());
    CHECK(*a == "Bearer abc");
    CHECK_FALSE(c.invalidate());
    auto cert = c.certificate();
    REQUIRE(cert.ok());
    CHECK_FALSE(cert->has_value());
}

TEST_CASE("a token file is read on first use and re-read after invalidate")
{
    temp_dir dir;
    const auto file = dir.write("token", "first\n");
    rest_config rc;
    rc.token_file = file.string();
    credentials c(rc);
    CHECK(c.authorization().value() == "Bearer first");
    dir.write("token", "second");
    CHECK(c.authorization().value() == "Bearer first"); // cached until a 401
    CHECK(c.invalidate());
    CHECK(c.authorization().value() == "Bearer second");
}

// client-go's NewCachedFileTokenSource (transport/token_source.go): the file's token expires a period (1 min)
// after it is read and is re-read once within the 10 s leeway of that, so 50 s after the read.
TEST_CASE("a token file is re-read 50 s after it was read, with no 401 needed")
{
    temp_dir dir;
    const auto file = dir.write("token", "first\n");
    kpw::kube::rest_config rc;
    rc.token_file = file.string();
    auto now = std::chrono::system_clock::time_point{} + std::chrono::hours(24 * 365 * 60);
    kpw::kube::credentials_options o;
    o.now = [&now] { return now; };
    credentials c(rc, o);
    CHECK(c.authorization().value() == "Bearer first");
    dir.write("token", "second");
    now += std::chrono::seconds(49);
    CHECK(c.authorization().value() == "Bearer first");
    now += std::chrono::seconds(1);
    CHECK(c.authorization().value() == "Bearer second");
    dir.write("token", "third");
    now += std::chrono::seconds(61);
    CHECK(c.authorization().value() == "Bearer third");
}

TEST_CASE("a token file that cannot be re-read keeps its last token, says so once, and is retried on every use")
{
    temp_dir dir;
    const auto file = dir.write("token", "good");
    kpw::kube::rest_config rc;
    rc.token_file = file.string();
    rc.user_name = "ci";
    rc.context_name = "prod";
    rc.source = "/k";
    auto now = std::chrono::system_clock::time_point{} + std::chrono::hours(24 * 365 * 60);
    std::vector<std::string> warnings;
    kpw::kube::credentials_options o;
    o.now = [&now] { return now; };
    o.warn = [&warnings](const std::string& w) { warnings.push_back(w); };
    credentials c(rc, o);
    CHECK(c.authorization().value() == "Bearer good");
    std::filesystem::remove(file);
    now += std::chrono::minutes(1);
    CHECK(c.authorization().value() == "Bearer good");
    CHECK(c.authorization().value() == "Bearer good");
    REQUIRE(warnings.size() == 1);
    CHECK(warnings[0] == "token file " + file.string() + ": No such file or directory (user ci in context prod (/k)); "
                         "the token last read from it is sent until it can be read again");
    // The next use after a failed re-read tries again: the new file's token goes out at once.
    dir.write("token", "better");
    CHECK(c.authorization().value() == "Bearer better");
    std::filesystem::remove(file);
    now += std::chrono::minutes(1);
    CHECK(c.authorization().value() == "Bearer better");
    CHECK(warnings.size() == 2); // a new run of failures is reported again
    // After a 401 the last token is not trusted: with no file and no static token, an error.
    CHECK(c.invalidate());
    CHECK(c.authorization().error().message == "token file " + file.string() + ": No such file or directory (user ci in context prod (/k))");
}

TEST_CASE("a token an HTTP header cannot carry (a control character inside) is an error that does not echo it")
{
    temp_dir dir;
    kpw::kube::rest_config rc;
    rc.user_name = "ci";
    rc.context_name = "prod";
    rc.source = "/k";
    rc.token = "abc\r\nX-Leak: s3cret";
    auto a = credentials(rc).authorization();
    REQUIRE_FALSE(a.ok());
    CHECK(a.error().message == "token of user ci in context prod (/k): holds a control character (a line break?), which an "
                               "Authorization header cannot carry; a token is one line of printable text");

    rc.token.clear();
    rc.token_file = dir.write("token", "abc\n# s3cret note\n").string();
    auto f = credentials(rc).authorization();
    REQUIRE_FALSE(f.ok());
    CHECK(f.error().message == "token file " + rc.token_file + ": holds a control character (a line break?), which an "
                               "Authorization header cannot carry; a token is one line of printable text (user ci in context prod (/k))");
    CHECK(credentials(rc).authorization().error().message.find("s3cret") == std::string::npos);

    // A tab is a header's own whitespace: Go's net/http sends it, and so do we.
    dir.write("token", "abc\tdef");
    CHECK(credentials(rc).authorization().value() == "Bearer abc\tdef");
}

TEST_CASE("basic auth is base64 of user:password and a client certificate comes from the config")
{
    rest_config rc;
    rc.username = "admin";
    rc.password = "p@ss";
    rc.client_cert_pem = "CERT";
    rc.client_key_pem = "KEY";
    credentials c(rc);
    CHECK(c.authorization().value() == "Basic YWRtaW46cEBzcw==");
    auto cert = c.certificate();
    REQUIRE(cert.ok());
    REQUIRE(cert->has_value());
    CHECK((*cert)->cert_pem == "CERT");
    CHECK((*cert)->key_pem == "KEY");
}

TEST_CASE("a token file wins over a static token while it is readable; the static token is the fallback")
{
    temp_dir dir;
    const auto file = dir.write("token", "  from-file \n");
    rest_config rc;
    rc.token = "static";
    rc.token_file = file.string();
    credentials c(rc);
    CHECK(c.authorization().value() == "Bearer from-file");
    std::filesystem::remove(file);
    CHECK(c.invalidate());
    CHECK(c.authorization().value() == "Bearer static");

    rest_config only_file;
    only_file.token_file = file.string();
    only_file.user_name = "ci";
    only_file.context_name = "prod";
    only_file.source = "/k";
    credentials missing(only_file);
    auto a = missing.authorization();
    REQUIRE_FALSE(a.ok());
    CHECK(a.error().message == "token file " + file.string() + ": No such file or directory (user ci in context prod (/k))");

    dir.write("token", " \n");
    CHECK(missing.authorization().error().message.starts_with("token file " + file.string() + ": empty"));
}

TEST_CASE("no credentials: no Authorization header, no certificate, nothing to retry")
{
    credentials c(rest_config{});
    CHECK(c.authorization().value().empty());
    CHECK_FALSE(c.certificate().value().has_value());
    CHECK_FALSE(c.invalidate());
}

// --- exec credential plugins: small shell scripts in a temp dir ---

namespace {

using kpw::kube::credentials_options;
using kpw::kube::decode_exec_credential;
using kpw::kube::exec_config;
namespace fs = std::filesystem;
using sys_time = std::chrono::system_clock::time_point;

constexpr std::string_view v1 = "client.authentication.k8s.io/v1";

// Writes an executable script; `body` runs under /bin/sh with $D the temp dir.
fs::path script(const temp_dir& dir, const std::string& name, const std::string& body)
{
    const auto path = dir.write(name, "#!/bin/sh\nD='" + dir.path.string() + "'\n" + body);
    fs::permissions(path, fs::perms::owner_all);
    return path;
}

std::string read_text(const fs::path& p)
{
    std::ifstream in(p, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

// How many times the plugin ran: each run appends a line to $D/runs.
std::size_t runs(const temp_dir& dir)
{
    const std::string t = read_text(dir.path / "runs");
    return static_cast<std::size_t>(std::count(t.begin(), t.end(), '\n'));
}

// A v1 plugin printing token t<run number>, expiring at `expiry` when given.
const std::string counting_plugin = R"(echo run >> "$D/runs"
n=$(wc -l < "$D/runs" | tr -d ' ')
printf '{"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","status":{"token":"t%s"%s}}\n' "$n" "$EXPIRY"
)";

rest_config exec_config_for(const fs::path& command, std::vector<std::pair<std::string, std::string>> env = {})
{
    rest_config rc;
    rc.server = "https://karmada.example:5443";
    rc.user_name = "plugin-user";
    rc.context_name = "ctx";
    rc.source = "/k/config";
    rc.exec = exec_config{.api_version = std::string(v1),
                          .command = command.string(),
                          .args = {},
                          .env = std::move(env),
                          .install_hint = "",
                          .provide_cluster_info = false,
                          .interactive_mode = "Never"};
    return rc;
}

sys_time at(int year, int month, int day, int hour)
{
    using namespace std::chrono;
    return sys_days(std::chrono::year(year) / month / day) + hours(hour);
}

} // namespace

TEST_CASE("an exec plugin's token is sent as a Bearer token and cached while it has no expiry")
{
    temp_dir dir;
    credentials c(exec_config_for(script(dir, "plugin", counting_plugin)));
    CHECK(c.authorization().value() == "Bearer t1");
    CHECK(c.authorization().value() == "Bearer t1");
    CHECK_FALSE(c.certificate().value().has_value());
    CHECK(runs(dir) == 1);
}

TEST_CASE("an exec credential is re-run once expired (the clock is the caller's) and after invalidate")
{
    temp_dir dir;
    sys_time now = at(2030, 1, 1, 8);
    credentials_options o;
    o.now = [&now] { return now; };
    credentials c(exec_config_for(script(dir, "plugin", counting_plugin), {{"EXPIRY", R"(,"expirationTimestamp":"2030-01-01T10:00:00+01:00")"}}), o);
    CHECK(c.authorization().value() == "Bearer t1");
    now = at(2030, 1, 1, 9); // 10:00+01:00 is 09:00Z: not after it yet
    CHECK(c.authorization().value() == "Bearer t1");
    now += std::chrono::seconds(1);
    CHECK(c.authorization().value() == "Bearer t2");
    CHECK(runs(dir) == 2);
    now = at(2029, 1, 1, 0);
    CHECK(c.invalidate());
    CHECK(c.authorization().value() == "Bearer t3");
    CHECK(runs(dir) == 3);
}

TEST_CASE("an exec plugin gets its args, its env and KUBERNETES_EXEC_INFO, and no stdin")
{
    temp_dir dir;
    auto rc = exec_config_for(script(dir, "plugin", R"(printf '%s|' "$@" > "$D/args"
printf '%s' "$GREETING" > "$D/env"
printf '%s' "$KUBERNETES_EXEC_INFO" > "$D/info"
cat > "$D/stdin"
echo '{"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","status":{"token":"x"}}'
)"), {{"GREETING", "hello world"}, {"HOME", "/plugin-home"}});
    rc.exec->args = {"get-token", "--cluster", "a b"};
    rc.exec->provide_cluster_info = true;
    rc.tls_server_name = "karmada-apiserver";
    rc.insecure_skip_tls_verify = true;
    rc.ca_pem = "CA";
    credentials c(rc);
    REQUIRE(c.authorization().value() == "Bearer x");
    CHECK(read_text(dir.path / "args") == "get-token|--cluster|a b|");
    CHECK(read_text(dir.path / "env") == "hello world");
    CHECK(read_text(dir.path / "stdin").empty());
    CHECK(read_text(dir.path / "info") ==
          R"({"kind":"ExecCredential","apiVersion":"client.authentication.k8s.io/v1","spec":{"cluster":{"server":"https://karmada.example:5443","tls-server-name":"karmada-apiserver","insecure-skip-tls-verify":true,"certificate-authority-data":"Q0E="},"interactive":false}})");

    rc.exec->provide_cluster_info = false;
    credentials without(rc);
    REQUIRE(without.authorization().ok());
    CHECK(read_text(dir.path / "info") ==
          R"({"kind":"ExecCredential","apiVersion":"client.authentication.k8s.io/v1","spec":{"interactive":false}})");
}

TEST_CASE("an exec plugin's client certificate is presented, and no Authorization header is sent")
{
    temp_dir dir;
    credentials c(exec_config_for(script(dir, "plugin", R"(echo run >> "$D/runs"
echo '{"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","status":{"clientCertificateData":"CERT","clientKeyData":"KEY"}}'
)")));
    auto cert = c.certificate();
    REQUIRE_MESSAGE(cert.ok(), cert.error().message);
    REQUIRE(cert->has_value());
    CHECK((*cert)->cert_pem == "CERT");
    CHECK((*cert)->key_pem == "KEY");
    CHECK(c.authorization().value().empty());
    CHECK(runs(dir) == 1);
}

TEST_CASE("the exec plugin is not run when the user also has a token, basic auth or a certificate")
{
    temp_dir dir;
    auto rc = exec_config_for(script(dir, "plugin", "echo run >> \"$D/runs\"\nexit 1\n"));
    rc.token = "static";
    credentials c(rc);
    CHECK(c.authorization().value() == "Bearer static");
    CHECK_FALSE(c.invalidate());
    CHECK_FALSE(fs::exists(dir.path / "runs"));
}

TEST_CASE("a failing exec plugin names the command and the exit code, never its output")
{
    temp_dir dir;
    const auto cmd = script(dir, "plugin", "echo '{\"status\":{\"token\":\"leaked-s3cret\"}}'\nexit 3\n");
    credentials c(exec_config_for(cmd));
    auto a = c.authorization();
    REQUIRE_FALSE(a.ok());
    CHECK(a.error().message == "exec plugin " + cmd.string() + " (user plugin-user in context ctx (/k/config)): failed with exit code 3");
    auto cert = c.certificate();
    REQUIRE_FALSE(cert.ok());
    CHECK(cert.error().message.find("leaked") == std::string::npos);
}

TEST_CASE("garbage or the wrong apiVersion on an exec plugin's stdout is a failure that does not echo it")
{
    temp_dir dir;
    const auto garbage = script(dir, "garbage", "echo 'token: leaked-s3cret'\n");
    auto a = credentials(exec_config_for(garbage)).authorization();
    REQUIRE_FALSE(a.ok());
    CHECK(a.error().message == "exec plugin " + garbage.string() + " (user plugin-user in context ctx (/k/config)): decoding stdout: not a JSON object");

    const auto beta = script(dir, "beta", R"(echo '{"apiVersion":"client.authentication.k8s.io/v1beta1","kind":"ExecCredential","status":{"token":"leaked-s3cret"}}')" "\n");
    auto b = credentials(exec_config_for(beta)).authorization();
    REQUIRE_FALSE(b.ok());
    CHECK(b.error().message.ends_with(": exec plugin is configured to use API version client.authentication.k8s.io/v1, "
                                      "plugin returned version client.authentication.k8s.io/v1beta1"));
    CHECK(b.error().message.find("leaked") == std::string::npos);
}

TEST_CASE("an exec plugin that does not finish in time is killed, and one that prints too much is stopped")
{
    temp_dir dir;
    credentials_options o;
    o.exec_timeout = std::chrono::milliseconds(300);
    const auto slow = script(dir, "slow", "exec sleep 30\n");
    const auto start = std::chrono::steady_clock::now();
    auto a = credentials(exec_config_for(slow), o).authorization();
    CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(10));
    REQUIRE_FALSE(a.ok());
    CHECK(a.error().message.ends_with(": did not finish within 300 ms; killed"));

    // A plugin that closes stdout but keeps running is waited for only until the same deadline.
    const auto lingering = script(dir, "lingering", "exec >&-\nexec sleep 30\n");
    auto l = credentials(exec_config_for(lingering), o).authorization();
    REQUIRE_FALSE(l.ok());
    CHECK(l.error().message.ends_with(": did not finish within 300 ms; killed"));

    credentials_options small;
    small.exec_max_output = 100;
    const auto chatty = script(dir, "chatty", "yes leaked-s3cret | head -c 1000\n");
    auto b = credentials(exec_config_for(chatty), small).authorization();
    REQUIRE_FALSE(b.ok());
    CHECK(b.error().message.ends_with(": printed more than 100 bytes; killed"));
}

TEST_CASE("an exec plugin gets only stdin, stdout and stderr, not the descriptors its caller holds open")
{
    temp_dir dir;
    // Neither end close-on-exec, as a library may open its own; under serve a listening socket is one.
    int held[2];
    REQUIRE(pipe(held) == 0);
    credentials c(exec_config_for(script(dir, "plugin", R"(ls /proc/self/fd > "$D/fds"
echo '{"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","status":{"token":"x"}}'
)")));
    auto a = c.authorization();
    close(held[0]);
    close(held[1]);
    REQUIRE_MESSAGE(a.ok(), a.error().message);
    // 3 is the directory ls itself opens to list /proc/self/fd.
    CHECK(read_text(dir.path / "fds") == "0\n1\n2\n3\n");
}

TEST_CASE("a killed exec plugin's children are reaped where orphans come to this process (serve as PID 1)")
{
    // serve, a container's PID 1, inherits every orphan; a child subreaper stands in for that here.
    REQUIRE(prctl(PR_SET_CHILD_SUBREAPER, 1) == 0);
    temp_dir dir;
    credentials_options o;
    o.exec_timeout = std::chrono::milliseconds(2000);
    const auto plugin = script(dir, "plugin", "sleep 30 &\necho $! > \"$D/child\"\nexec sleep 30\n");
    auto a = credentials(exec_config_for(plugin), o).authorization();
    int status = 0;
    const std::string child = read_text(dir.path / "child");
    const pid_t left = child.empty() ? 0 : waitpid(static_cast<pid_t>(std::stol(child)), &status, WNOHANG);
    const int wait_error = errno;
    prctl(PR_SET_CHILD_SUBREAPER, 0);
    REQUIRE_FALSE(a.ok());
    REQUIRE_FALSE(child.empty());
    // Killed with the plugin's process group and already waited for: no zombie left behind.
    CHECK(left == -1);
    CHECK(wait_error == ECHILD);
}

TEST_CASE("the exec plugin's deadline holds where pidfd_open is refused (an old kernel, a seccomp profile)")
{
    temp_dir dir;
    // A plugin that closes stdout and lingers: only waiting for its exit is left to bound.
    const auto lingering = script(dir, "lingering", "exec >&-\nexec sleep 30\n");
    const pid_t child = fork();
    REQUIRE(child >= 0);
    if (child == 0) {
        // pidfd_open fails with ENOSYS in this child only, as on a kernel before 5.3.
        sock_filter filter[] = {
            BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, nr)),
            BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_pidfd_open, 0, 1),
            BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | ENOSYS),
            BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
        };
        sock_fprog program{static_cast<unsigned short>(std::size(filter)), filter};
        if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 || prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &program) != 0)
            _exit(3);
        credentials_options o;
        o.exec_timeout = std::chrono::milliseconds(300);
        auto a = credentials(exec_config_for(lingering), o).authorization();
        _exit(!a.ok() && a.error().message.ends_with(": did not finish within 300 ms; killed") ? 0 : 1);
    }
    const int pidfd = static_cast<int>(syscall(SYS_pidfd_open, child, 0));
    REQUIRE(pidfd >= 0);
    pollfd p{pidfd, POLLIN, 0};
    const bool exited = poll(&p, 1, 10'000) == 1;
    close(pidfd);
    if (!exited)
        kill(child, SIGKILL);
    int status = 0;
    waitpid(child, &status, 0);
    CHECK_MESSAGE(exited, "still waiting for the plugin 10 s after its 300 ms deadline");
    CHECK((WIFEXITED(status) && WEXITSTATUS(status) == 0));
}

TEST_CASE("a missing exec plugin says it was not found and prints the install hint")
{
    auto rc = exec_config_for("kpw-no-such-credential-plugin");
    rc.exec->install_hint = "install it with: apt-get install kpw-plugin";
    auto a = credentials(rc).authorization();
    REQUIRE_FALSE(a.ok());
    CHECK(a.error().message == "exec plugin kpw-no-such-credential-plugin (user plugin-user in context ctx (/k/config)): "
                               "executable kpw-no-such-credential-plugin not found\n\ninstall it with: apt-get install kpw-plugin");
}

TEST_CASE("interactiveMode Always cannot be honoured without a terminal")
{
    temp_dir dir;
    auto rc = exec_config_for(script(dir, "plugin", counting_plugin));
    rc.exec->interactive_mode = "Always";
    auto a = credentials(rc).authorization();
    REQUIRE_FALSE(a.ok());
    CHECK(a.error().message.find("interactiveMode Always needs a terminal on standard input") != std::string::npos);
}

TEST_CASE("two threads sharing credentials run the plugin once")
{
    temp_dir dir;
    credentials c(exec_config_for(script(dir, "plugin", counting_plugin)));
    std::string first, second;
    std::thread t([&] { first = c.authorization().value(); });
    second = c.authorization().value();
    t.join();
    CHECK(first == "Bearer t1");
    CHECK(second == "Bearer t1");
    CHECK(runs(dir) == 1);
}

TEST_CASE("decode_exec_credential checks what client-go checks")
{
    const auto decode = [](const std::string& status) {
        return decode_exec_credential(R"({"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential")" + status + "}", v1);
    };
    auto ok = decode(R"(,"status":{"token":"t","expirationTimestamp":"2030-06-01T12:30:45.5-02:00"})");
    REQUIRE_MESSAGE(ok.ok(), ok.error().message);
    CHECK(ok->token == "t");
    REQUIRE(ok->expires.has_value());
    CHECK(*ok->expires == at(2030, 6, 1, 14) + std::chrono::minutes(30) + std::chrono::milliseconds(45'500));
    CHECK_FALSE(decode(R"(,"status":{"token":"t","expirationTimestamp":null})")->expires.has_value());
    CHECK(decode("").error().message == "exec plugin didn't return a status field");
    CHECK(decode(R"(,"status":{})").error().message == "exec plugin didn't return a token or cert/key pair");
    CHECK(decode(R"(,"status":{"clientCertificateData":"C"})").error().message ==
          "exec plugin returned only certificate or key, not both");
    CHECK(decode(R"(,"status":{"token":7})").error().message.find("must be strings") != std::string::npos);
    CHECK(decode(R"(,"status":{"token":"abc\r\nX-Leak: s3cret"})").error().message ==
          "decoding stdout: status.token holds a control character (a line break?), which an Authorization header cannot carry; "
          "a token is one line of printable text");
    for (const char* bad : {"2030-06-01", "2030-06-01T12:30:45", "2030-13-01T00:00:00Z", "2030-02-30T00:00:00Z",
                            "2030-06-01 12:30:45Z", "2030-06-01T12:30:45.Z", "2030-06-01T24:00:00Z"}) {
        CAPTURE(bad);
        CHECK(decode(std::string(R"(,"status":{"token":"t","expirationTimestamp":")") + bad + "\"}").error().message ==
              "decoding stdout: status.expirationTimestamp is not an RFC 3339 time");
    }
    CHECK(decode_exec_credential(R"({"apiVersion":"client.authentication.k8s.io/v1","kind":"Status","status":{"token":"t"}})", v1)
              .error().message == "decoding stdout: kind is not ExecCredential");
    CHECK(decode_exec_credential("", v1).error().message == "decoding stdout: not a JSON object");
}
