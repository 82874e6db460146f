// SPDX-License-Identifier: Apache-2.0
// credentials: client-go's transport order (transport/round_trippers.go, plugin/pkg/client/auth/exec):
// a token file's content wins over a static token while it is readable, basic auth, the client certificate,
// and the exec plugin only when none of those is configured (exec.go UpdateTransportConfig).
#include "kube/credentials.hpp"

#include <sys/wait.h>

#include <algorithm>
#include <cerrno>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <mutex>
#include <system_error>
#include <vector>

#include "doc/load.hpp"
#include "doc/value.hpp"
#include "kube/base64.hpp"
#include "kube/plugin_process.hpp"

extern char** environ;

namespace kpw::kube {
namespace {

using std::chrono::system_clock;

constexpr std::uintmax_t max_token_file_bytes = 1u << 20;

// transport/token_source.go NewCachedFileTokenSource: a file's token expires a period (1 minute) after it is
// read, and cachingTokenSource.Token reads it again once within its 10 s leeway of that expiry.
constexpr auto token_file_reread_after = std::chrono::minutes(1) - std::chrono::seconds(10);

// What an HTTP header value cannot hold: Go's net/http refuses to send one (httpguts.ValidHeaderFieldValue,
// "invalid header field value for Authorization"); sent as is, a line break would end the header early.
bool header_safe(std::string_view s)
{
    return std::none_of(s.begin(), s.end(), [](char c) {
        const auto b = static_cast<unsigned char>(c);
        return (b < 0x20 && b != '\t') || b == 0x7f;
    });
}

constexpr std::string_view not_header_safe = "holds a control character (a line break?), which an Authorization header "
                                             "cannot carry; a token is one line of printable text";

using detail::base64_encode;

std::string trim(std::string_view s)
{
    const auto space = [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'; };
    while (!s.empty() && space(s.back()))
        s.remove_suffix(1);
    while (!s.empty() && space(s.front()))
        s.remove_prefix(1);
    return std::string(s);
}

std::string errno_text(int e)
{
    return std::error_code(e, std::generic_category()).message();
}

// transport/token_source.go fileTokenSource: the file's content, whitespace trimmed; empty is an error.
result<std::string> read_token_file(const std::string& path)
{
    std::error_code ec;
    const auto size = std::filesystem::file_size(path, ec);
    if (ec)
        return failure{"token file " + path + ": " + ec.message(), {}};
    if (size > max_token_file_bytes)
        return failure{"token file " + path + ": larger than 1 MiB", {}};
    std::ifstream in(path, std::ios::binary);
    if (!in)
        return failure{"token file " + path + ": cannot be opened", {}};
    std::string text(static_cast<std::size_t>(size), '\0');
    in.read(text.data(), static_cast<std::streamsize>(text.size()));
    text.resize(static_cast<std::size_t>(in.gcount()));
    std::string token = trim(text);
    if (token.empty())
        return failure{"token file " + path + ": empty", {}};
    if (!header_safe(token))
        return failure{"token file " + path + ": " + std::string(not_header_safe), {}};
    return token;
}

bool digits(std::string_view s, std::size_t at, std::size_t n, int& out)
{
    if (at + n > s.size())
        return false;
    out = 0;
    for (std::size_t i = at; i < at + n; ++i) {
        if (s[i] < '0' || s[i] > '9')
            return false;
        out = out * 10 + (s[i] - '0');
    }
    return true;
}

// Go's time.Parse(time.RFC3339, s), as metav1.Time decodes: 2006-01-02T15:04:05[.frac](Z|+07:00).
std::optional<system_clock::time_point> parse_rfc3339(std::string_view s)
{
    int y = 0, mo = 0, d = 0, h = 0, mi = 0, se = 0;
    if (!digits(s, 0, 4, y) || s.size() < 20 || s[4] != '-' || !digits(s, 5, 2, mo) || s[7] != '-' ||
        !digits(s, 8, 2, d) || s[10] != 'T' || !digits(s, 11, 2, h) || s[13] != ':' || !digits(s, 14, 2, mi) ||
        s[16] != ':' || !digits(s, 17, 2, se))
        return std::nullopt;
    std::size_t i = 19;
    std::int64_t nanos = 0;
    if (s[i] == '.') {
        int n = 0;
        for (++i; i < s.size() && s[i] >= '0' && s[i] <= '9'; ++i, ++n)
            nanos = n < 9 ? nanos * 10 + (s[i] - '0') : nanos;
        if (n == 0)
            return std::nullopt;
        for (; n < 9; ++n)
            nanos *= 10;
    }
    int off_h = 0, off_m = 0, sign = 0;
    if (i + 1 == s.size() && s[i] == 'Z')
        sign = 0;
    else if (i + 6 == s.size() && (s[i] == '+' || s[i] == '-') && digits(s, i + 1, 2, off_h) && s[i + 3] == ':' &&
             digits(s, i + 4, 2, off_m) && off_h < 24 && off_m < 60)
        sign = s[i] == '+' ? 1 : -1;
    else
        return std::nullopt;
    const std::chrono::year_month_day ymd{std::chrono::year(y), std::chrono::month(static_cast<unsigned>(mo)),
                                          std::chrono::day(static_cast<unsigned>(d))};
    if (!ymd.ok() || h > 23 || mi > 59 || se > 59)
        return std::nullopt;
    const auto t = std::chrono::sys_days(ymd) + std::chrono::hours(h) + std::chrono::minutes(mi) +
                   std::chrono::seconds(se) + std::chrono::nanoseconds(nanos) -
                   sign * (std::chrono::hours(off_h) + std::chrono::minutes(off_m));
    return std::chrono::time_point_cast<system_clock::duration>(t);
}

// A string member of an ExecCredential's status: absent or null is "", another type is an error.
bool string_member(const doc::value& obj, std::string_view name, std::string& out)
{
    const doc::value* v = obj.find(name);
    if (v == nullptr || v->is_null())
        return true;
    if (!v->is_string())
        return false;
    out = v->text();
    return true;
}

// KUBERNETES_EXEC_INFO: the ExecCredential client-go encodes for the plugin (exec.go refreshCredsLocked),
// spec.cluster only with provideClusterInfo (clientauthentication Cluster, omitempty fields left out).
std::string exec_info(const exec_config& e, const rest_config& rc)
{
    doc::value root = doc::value::mapping();
    root.add("kind", doc::value::string("ExecCredential"));
    root.add("apiVersion", doc::value::string(e.api_version));
    doc::value spec = doc::value::mapping();
    if (e.provide_cluster_info) {
        doc::value cluster = doc::value::mapping();
        cluster.add("server", doc::value::string(rc.server));
        if (!rc.tls_server_name.empty())
            cluster.add("tls-server-name", doc::value::string(rc.tls_server_name));
        if (rc.insecure_skip_tls_verify)
            cluster.add("insecure-skip-tls-verify", doc::value::boolean(true));
        if (!rc.ca_pem.empty())
            cluster.add("certificate-authority-data", doc::value::string(base64_encode(rc.ca_pem)));
        spec.add("cluster", std::move(cluster));
    }
    spec.add("interactive", doc::value::boolean(false));
    root.add("spec", std::move(spec));
    return doc::to_json(root);
}

// The inherited environment with the plugin's env and KUBERNETES_EXEC_INFO; a later name replaces an
// earlier one (Go's os/exec keeps the last of duplicate names).
std::vector<std::string> plugin_environment(const exec_config& e, const std::string& info)
{
    std::vector<std::string> env;
    for (char** p = environ; p != nullptr && *p != nullptr; ++p)
        env.emplace_back(*p);
    const auto set = [&env](const std::string& name, const std::string& value) {
        const std::string prefix = name + "=";
        for (std::string& kv : env)
            if (kv.compare(0, prefix.size(), prefix) == 0) {
                kv = prefix + value;
                return;
            }
        env.push_back(prefix + value);
    };
    for (const auto& [name, value] : e.env)
        set(name, value);
    set("KUBERNETES_EXEC_INFO", info);
    return env;
}

// Runs the plugin and returns its stdout; failures say what went wrong, never what it printed.
result<std::string> run_plugin(const exec_config& e, const rest_config& rc, const credentials_options& o)
{
    const std::string label = "exec plugin " + e.command + " (" + rc.identity() + ")";
    if (e.interactive_mode == "Always")
        return failure{label + ": interactiveMode Always needs a terminal on standard input, and plugins run "
                               "without one here; set interactiveMode to IfAvailable or Never", {}};
    std::vector<std::string> argv{e.command};
    argv.insert(argv.end(), e.args.begin(), e.args.end());
    plugin_run run = run_plugin_process(argv, plugin_environment(e, exec_info(e, rc)), o.exec_timeout, o.exec_max_output);
    if (const int err = run.spawn_error; err != 0) {
        std::string msg = err == ENOENT ? label + ": executable " + e.command + " not found"
                                        : label + ": cannot be run: " + errno_text(err);
        if (!e.install_hint.empty())
            msg += "\n\n" + e.install_hint;
        return failure{msg, {}};
    }
    switch (run.end) {
    case plugin_run::ending::exited:
        break;
    case plugin_run::ending::too_large:
        return failure{label + ": printed more than " + std::to_string(o.exec_max_output) + " bytes; killed", {}};
    case plugin_run::ending::read_failed:
        return failure{label + ": reading its output failed; killed", {}};
    case plugin_run::ending::timed_out: {
        const auto ms = o.exec_timeout.count();
        const std::string limit = ms % 1000 == 0 ? std::to_string(ms / 1000) + " s" : std::to_string(ms) + " ms";
        return failure{label + ": did not finish within " + limit + "; killed", {}};
    }
    }
    const int status = run.wait_status;
    if (WIFSIGNALED(status))
        return failure{label + ": killed by signal " + std::to_string(WTERMSIG(status)), {}};
    if (WIFEXITED(status) && WEXITSTATUS(status) != 0)
        return failure{label + ": failed with exit code " + std::to_string(WEXITSTATUS(status)), {}};
    return std::move(run.out);
}

} // namespace

result<exec_credential> decode_exec_credential(std::string_view stdout_text, std::string_view api_version)
{
    auto parsed = doc::parse_json(stdout_text);
    if (!parsed || !parsed->is_mapping())
        return failure{"decoding stdout: not a JSON object", {}};
    const doc::value& root = *parsed;
    const std::string_view got = root.string_at("apiVersion");
    if (got != api_version)
        return failure{"exec plugin is configured to use API version " + std::string(api_version) +
                           ", plugin returned version " + (got.empty() ? "(none)" : std::string(got)), {}};
    if (root.string_at("kind") != "ExecCredential")
        return failure{"decoding stdout: kind is not ExecCredential", {}};
    const doc::value* status = root.find("status");
    if (status == nullptr || status->is_null())
        return failure{"exec plugin didn't return a status field", {}};
    if (!status->is_mapping())
        return failure{"decoding stdout: status is not an object", {}};
    exec_credential c;
    if (!string_member(*status, "token", c.token) ||
        !string_member(*status, "clientCertificateData", c.client_cert_pem) ||
        !string_member(*status, "clientKeyData", c.client_key_pem))
        return failure{"decoding stdout: status.token, clientCertificateData and clientKeyData must be strings", {}};
    if (!header_safe(c.token))
        return failure{"decoding stdout: status.token " + std::string(not_header_safe), {}};
    if (c.token.empty() && c.client_cert_pem.empty() && c.client_key_pem.empty())
        return failure{"exec plugin didn't return a token or cert/key pair", {}};
    if (c.client_cert_pem.empty() != c.client_key_pem.empty())
        return failure{"exec plugin returned only certificate or key, not both", {}};
    if (const doc::value* exp = status->find("expirationTimestamp"); exp != nullptr && !exp->is_null()) {
        c.expires = exp->is_string() ? parse_rfc3339(exp->text()) : std::nullopt;
        if (!c.expires)
            return failure{"decoding stdout: status.expirationTimestamp is not an RFC 3339 time", {}};
    }
    return c;
}

struct credentials::impl {
    rest_config config;
    credentials_options options;
    std::mutex mutex;
    std::optional<std::string> file_token;  // the token file's last content read, until invalidate()
    system_clock::time_point file_read_at;   // when file_token was read
    bool file_failing = false;              // a re-read failed and was reported; cleared by a good read
    std::optional<exec_credential> plugin; // the exec plugin's last credential, until expiry or invalidate()

    bool has_token_auth() const { return !config.token.empty() || !config.token_file.empty(); }
    bool has_basic_auth() const { return !config.username.empty() || !config.password.empty(); }
    bool has_cert_auth() const { return !config.client_cert_pem.empty() && !config.client_key_pem.empty(); }
    bool uses_exec() const { return config.exec && !has_token_auth() && !has_basic_auth() && !has_cert_auth(); }

    system_clock::time_point now() const { return options.now ? options.now() : system_clock::now(); }

    void warn(const std::string& message) const
    {
        if (options.warn)
            options.warn(message);
        else
            std::cerr << "warning: " << message << "\n";
    }

    // NewBearerAuthWithRefreshRoundTripper over NewCachedFileTokenSource: the file's token, re-read once stale
    // (token_file_reread_after) or after a 401; when a re-read fails, the last token read is kept and the
    // failure logged (cachingTokenSource.Token, "Unable to rotate token": client-go logs each failed attempt,
    // here once per run of failures), and every later use tries again. A file never read, or dropped after
    // a 401, falls back to the static token; a token file alone is then an error.
    result<std::string> bearer()
    {
        if (!config.token_file.empty()) {
            const auto t_now = now();
            if (!file_token || t_now - file_read_at >= token_file_reread_after) {
                auto t = read_token_file(config.token_file);
                if (t) {
                    file_token = std::move(t.value());
                    file_read_at = t_now;
                    file_failing = false;
                } else if (file_token) {
                    if (!file_failing)
                        warn(t.error().message + " (" + config.identity() +
                             "); the token last read from it is sent until it can be read again");
                    file_failing = true;
                } else if (config.token.empty()) {
                    return failure{t.error().message + " (" + config.identity() + ")", {}};
                }
            }
            if (file_token)
                return "Bearer " + *file_token;
        }
        if (!header_safe(config.token))
            return failure{"token of " + config.identity() + ": " + std::string(not_header_safe), {}};
        return "Bearer " + config.token;
    }

    // exec.go getCreds: the cached credential while unexpired, else the plugin's new one.
    result<const exec_credential*> from_plugin()
    {
        if (plugin && (!plugin->expires || !(now() > *plugin->expires)))
            return &*plugin;
        plugin.reset();
        const exec_config& e = *config.exec;
        auto out = run_plugin(e, config, options);
        if (!out)
            return out.error();
        auto decoded = decode_exec_credential(*out, e.api_version);
        if (!decoded)
            return failure{"exec plugin " + e.command + " (" + config.identity() + "): " + decoded.error().message, {}};
        plugin = std::move(decoded.value());
        return &*plugin;
    }
};

credentials::credentials(const rest_config& config) : credentials(config, credentials_options{}) {}

credentials::credentials(const rest_config& config, credentials_options options) : impl_(std::make_unique<impl>())
{
    impl_->config = config;
    impl_->options = std::move(options);
}

credentials::~credentials() = default;

result<std::string> credentials::authorization()
{
    std::lock_guard lock(impl_->mutex);
    if (impl_->has_token_auth())
        return impl_->bearer();
    if (impl_->has_basic_auth())
        return "Basic " + base64_encode(impl_->config.username + ":" + impl_->config.password);
    if (impl_->uses_exec()) {
        auto c = impl_->from_plugin();
        if (!c)
            return c.error();
        return (*c)->token.empty() ? std::string() : "Bearer " + (*c)->token;
    }
    return std::string();
}

result<std::optional<client_certificate>> credentials::certificate()
{
    using optional_cert = std::optional<client_certificate>;
    std::lock_guard lock(impl_->mutex);
    if (impl_->has_cert_auth())
        return optional_cert(client_certificate{impl_->config.client_cert_pem, impl_->config.client_key_pem});
    if (impl_->uses_exec()) {
        auto c = impl_->from_plugin();
        if (!c)
            return c.error();
        if (!(*c)->client_cert_pem.empty())
            return optional_cert(client_certificate{(*c)->client_cert_pem, (*c)->client_key_pem});
    }
    return optional_cert();
}

bool credentials::invalidate()
{
    std::lock_guard lock(impl_->mutex);
    if (impl_->uses_exec()) {
        impl_->plugin.reset();
        return true;
    }
    if (!impl_->config.token_file.empty()) {
        impl_->file_token.reset();
        impl_->file_failing = false;
        return true;
    }
    return false;
}

} // namespace kpw::kube
