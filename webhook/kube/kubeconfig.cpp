// SPDX-License-Identifier: Apache-2.0
// kubeconfig: client-go's loading rules (clientcmd/loader.go), merge and validation (clientcmd/validation.go
// ConfirmUsable, client_config.go) over doc::load_yaml, which reads YAML the way sigs.k8s.io/yaml does.
#include "kube/kubeconfig.hpp"

#include "base/base64.hpp"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <system_error>

#include "doc/load.hpp"
#include "kube/proxy_rules.hpp"

namespace kpw::kube {
namespace {

namespace fs = std::filesystem;

constexpr std::uintmax_t max_file_bytes = 16u << 20;
constexpr std::string_view exec_v1 = "client.authentication.k8s.io/v1";
constexpr std::string_view exec_v1beta1 = "client.authentication.k8s.io/v1beta1";

// Thrown while reading and resolving, caught once in parse_kubeconfig: a message naming file and key.
struct config_error {
    std::string message;
};

std::string trim(std::string s)
{
    const auto space = [](unsigned char c) {
        return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
    };
    while (!s.empty() && space(static_cast<unsigned char>(s.back())))
        s.pop_back();
    std::size_t i = 0;
    while (i < s.size() && space(static_cast<unsigned char>(s[i])))
        ++i;
    return s.substr(i);
}

std::string where_of(position p)
{
    return p.known() ? ":" + std::to_string(p.line) + ":" + std::to_string(p.column) : std::string();
}

// yaml-cpp's own words for a syntax error: the loader's explanation may quote a piece of the line, and a
// kubeconfig's lines hold tokens and keys.
std::string yaml_cause(const std::string& message)
{
    for (std::string_view marker : {" (yaml-cpp: ", "(YAML error: "}) {
        const std::size_t at = message.rfind(marker);
        if (at != std::string::npos && message.ends_with(")"))
            return message.substr(at + marker.size(), message.size() - at - marker.size() - 1);
    }
    return message;
}

// "users[\"u\"].user" + "token"; a top-level key stands alone.
std::string child(const std::string& key, std::string_view name)
{
    return key.empty() ? std::string(name) : key + "." + std::string(name);
}

// The JSON name of a node's type, for "expected a string, found object".
std::string found(const doc::value& v)
{
    return std::string(doc::type_name(v.kind()));
}

// One named entry as a file defines it (clientcmd/api: Cluster, AuthInfo, Context), with its origin.
struct cluster_entry {
    std::string file;
    std::string server, tls_server_name, ca_file, ca_pem;
    bool insecure = false;
    std::string proxy_url; // checked by check_cluster
    position proxy_at; // where proxy-url is, for its message
};
struct user_entry {
    std::string file;
    std::string cert_file, cert_pem, key_file, key_pem, token, token_file, username, password;
    std::string auth_provider; // its name: not supported here
    std::string impersonation;  // the first of as, as-uid, as-groups, as-user-extra set: not supported here
    std::optional<exec_config> exec;
};
struct context_entry {
    std::string file;
    std::string cluster, user, namespace_;
};

// The merged view: for every map, the first file that defines a name wins (loader.go).
struct merged_config {
    std::map<std::string, cluster_entry> clusters;
    std::map<std::string, user_entry> users;
    std::map<std::string, context_entry> contexts;
    std::string current_context, current_context_file;
};

// Reading one file's tree: every accessor checks the type and names the key and its line on failure.
class file_reader {
public:
    explicit file_reader(const std::string& path) : path_(path), dir_(base_dir(path)) {}

    [[noreturn]] void fail(const doc::value& at, const std::string& key, const std::string& what) const
    {
        throw config_error{"kubeconfig " + path_ + where_of(at.pos()) + ": " + key + ": " + what};
    }

    // A string field: any scalar, as sigs.k8s.io/yaml converts scalars for string targets; null is "".
    std::string string_at(const doc::value& map, std::string_view name, const std::string& key) const
    {
        const doc::value* v = map.find(name);
        if (v == nullptr || v->is_null())
            return {};
        if (v->is_bool())
            return v->as_bool() ? "true" : "false";
        if (v->is_sequence() || v->is_mapping())
            fail(*v, child(key, name), "expected a string, found " + found(*v));
        return v->text();
    }

    bool bool_at(const doc::value& map, std::string_view name, const std::string& key) const
    {
        const doc::value* v = map.find(name);
        if (v == nullptr || v->is_null())
            return false;
        if (!v->is_bool())
            fail(*v, child(key, name), "expected a boolean, found " + found(*v));
        return v->as_bool();
    }

    // A mapping field; nullptr when absent or null.
    const doc::value* mapping_at(const doc::value& map, std::string_view name, const std::string& key) const
    {
        const doc::value* v = map.find(name);
        if (v == nullptr || v->is_null())
            return nullptr;
        if (!v->is_mapping())
            fail(*v, child(key, name), "expected a mapping, found " + found(*v));
        return v;
    }

    const std::vector<doc::value>& sequence_at(const doc::value& map, std::string_view name,
                                               const std::string& key) const
    {
        static const std::vector<doc::value> none;
        const doc::value* v = map.find(name);
        if (v == nullptr || v->is_null())
            return none;
        if (!v->is_sequence())
            fail(*v, child(key, name), "expected a list, found " + found(*v));
        return v->items();
    }

    // A []byte field (Go's encoding/json: standard base64, padding required, \r and \n ignored).
    std::string bytes_at(const doc::value& map, std::string_view name, const std::string& key) const
    {
        const std::string text = string_at(map, name, key);
        std::string out;
        std::size_t bad_at = 0;
        if (!base64_decode(text, out, bad_at))
            fail(*map.find(name), child(key, name),
                 "not valid base64 (illegal base64 data at input byte " + std::to_string(bad_at) + ")");
        return out;
    }

    // client-go's ResolveLocalPaths: a relative path is joined to the directory of the file defining it.
    std::string resolve(const std::string& p) const
    {
        if (p.empty() || fs::path(p).is_absolute() || dir_.empty())
            return p;
        return (fs::path(dir_) / p).lexically_normal().string();
    }

    const std::string& path() const { return path_; }

private:
    static std::string base_dir(const std::string& path)
    {
        if (path.empty())
            return {};
        std::error_code ec;
        fs::path abs = fs::absolute(fs::path(path), ec);
        return ec ? fs::path(path).parent_path().string() : abs.lexically_normal().parent_path().string();
    }

    std::string path_;
    std::string dir_;
};

// null, "", [] or {}: a field Go would leave at its zero value.
bool is_empty(const doc::value& v)
{
    return v.is_null() || (v.is_string() && v.text().empty()) || (v.is_sequence() && v.items().empty()) ||
           (v.is_mapping() && v.members().empty());
}

// "clusters[\"prod\"]": the wire key of one named entry, for messages.
std::string entry_key(std::string_view list, std::string_view name)
{
    return std::string(list) + "[\"" + std::string(name) + "\"]";
}

// The entries of one list (clusters, users, contexts); a name repeated within one file is an error,
// as client-go's conversion from the list to its map rejects it.
template <class F>
void each_named(const file_reader& r, const doc::value& root, std::string_view list, F&& f)
{
    std::set<std::string> seen;
    const auto& items = r.sequence_at(root, list, "");
    for (std::size_t i = 0; i < items.size(); ++i) {
        const std::string index_key = std::string(list) + "[" + std::to_string(i) + "]";
        if (!items[i].is_mapping())
            r.fail(items[i], index_key, "expected a mapping, found " + found(items[i]));
        std::string name = r.string_at(items[i], "name", index_key);
        if (!seen.insert(name).second)
            r.fail(items[i], index_key, "duplicate name \"" + name + "\" in " + std::string(list));
        const std::string key = entry_key(list, name);
        f(std::move(name), items[i], key);
    }
}

// extensions (top level, cluster, user, context, preferences): client-go carries them so that writes
// do not drop them, and reads nothing in them; a list of {name, extension} whose names are unique
// (clientcmd/api/v1 Convert_Slice_v1_NamedExtension_To_Map_string_To_runtime_Object refuses a repeat).
void check_extensions(const file_reader& r, const doc::value& map, const std::string& key)
{
    const std::string k = child(key, "extensions");
    std::set<std::string> seen;
    const auto& items = r.sequence_at(map, "extensions", key);
    for (std::size_t i = 0; i < items.size(); ++i) {
        const std::string ik = k + "[" + std::to_string(i) + "]";
        if (!items[i].is_mapping())
            r.fail(items[i], ik, "expected a mapping with name and extension, found " + found(items[i]));
        const std::string name = r.string_at(items[i], "name", ik);
        if (!seen.insert(name).second)
            r.fail(items[i], ik, "duplicate extension name \"" + name + "\"");
    }
}

cluster_entry read_cluster(const file_reader& r, const doc::value& item, const std::string& key)
{
    cluster_entry c;
    c.file = r.path();
    const doc::value* m = r.mapping_at(item, "cluster", key);
    if (m == nullptr)
        return c;
    const std::string k = key + ".cluster";
    c.server = r.string_at(*m, "server", k);
    c.tls_server_name = r.string_at(*m, "tls-server-name", k);
    c.insecure = r.bool_at(*m, "insecure-skip-tls-verify", k);
    c.ca_file = r.resolve(r.string_at(*m, "certificate-authority", k));
    c.ca_pem = r.bytes_at(*m, "certificate-authority-data", k);
    c.proxy_url = r.string_at(*m, "proxy-url", k);
    if (const doc::value* v = m->find("proxy-url"))
        c.proxy_at = v->pos();
    // client-go only turns gzip off with it (transport DisableCompression); this client never asks for
    // gzip, so either value is honoured by construction. Read for its type, as client-go decodes it.
    (void)r.bool_at(*m, "disable-compression", k);
    check_extensions(r, *m, k);
    return c;
}

std::optional<exec_config> read_exec(const file_reader& r, const doc::value& user, const std::string& key)
{
    const doc::value* m = r.mapping_at(user, "exec", key);
    if (m == nullptr)
        return std::nullopt;
    const std::string k = key + ".exec";
    exec_config e;
    e.api_version = r.string_at(*m, "apiVersion", k);
    e.command = r.string_at(*m, "command", k);
    if (e.command.find('/') != std::string::npos) // client-go resolves only a command that is a path
        e.command = r.resolve(e.command);
    const auto& args = r.sequence_at(*m, "args", k);
    for (std::size_t i = 0; i < args.size(); ++i) {
        if (args[i].is_sequence() || args[i].is_mapping())
            r.fail(args[i], k + ".args[" + std::to_string(i) + "]", "expected a string");
        e.args.push_back(args[i].is_bool() ? (args[i].as_bool() ? "true" : "false") : args[i].text());
    }
    const auto& env = r.sequence_at(*m, "env", k);
    for (std::size_t i = 0; i < env.size(); ++i) {
        const std::string ek = k + ".env[" + std::to_string(i) + "]";
        if (!env[i].is_mapping())
            r.fail(env[i], ek, "expected a mapping with name and value");
        e.env.emplace_back(r.string_at(env[i], "name", ek), r.string_at(env[i], "value", ek));
    }
    e.install_hint = r.string_at(*m, "installHint", k);
    e.provide_cluster_info = r.bool_at(*m, "provideClusterInfo", k);
    e.interactive_mode = r.string_at(*m, "interactiveMode", k);
    if (e.interactive_mode.empty() && e.api_version == exec_v1beta1)
        e.interactive_mode = "IfAvailable"; // clientcmd/api/v1 SetDefaults_ExecConfig; v1 requires it
    return e;
}

user_entry read_user(const file_reader& r, const doc::value& item, const std::string& key)
{
    user_entry u;
    u.file = r.path();
    const doc::value* m = r.mapping_at(item, "user", key);
    if (m == nullptr)
        return u;
    const std::string k = key + ".user";
    u.cert_file = r.resolve(r.string_at(*m, "client-certificate", k));
    u.cert_pem = r.bytes_at(*m, "client-certificate-data", k);
    u.key_file = r.resolve(r.string_at(*m, "client-key", k));
    u.key_pem = r.bytes_at(*m, "client-key-data", k);
    u.token = r.string_at(*m, "token", k);
    u.token_file = r.resolve(r.string_at(*m, "tokenFile", k));
    u.username = r.string_at(*m, "username", k);
    u.password = r.string_at(*m, "password", k);
    if (const doc::value* ap = r.mapping_at(*m, "auth-provider", k))
        u.auth_provider = r.string_at(*ap, "name", k + ".auth-provider");
    u.exec = read_exec(r, *m, k);
    check_extensions(r, *m, k);
    for (std::string_view field : {"as", "as-uid", "as-groups", "as-user-extra"})
        if (const doc::value* v = m->find(field); u.impersonation.empty() && v != nullptr && !is_empty(*v))
            u.impersonation = field;
    return u;
}

context_entry read_context(const file_reader& r, const doc::value& item, const std::string& key)
{
    context_entry c;
    c.file = r.path();
    const doc::value* m = r.mapping_at(item, "context", key);
    if (m == nullptr)
        return c;
    const std::string k = key + ".context";
    c.cluster = r.string_at(*m, "cluster", k);
    c.user = r.string_at(*m, "user", k);
    c.namespace_ = r.string_at(*m, "namespace", k);
    check_extensions(r, *m, k);
    return c;
}

// One file into the merged view; names already defined by an earlier file are kept (first wins).
void merge_file(const kubeconfig_text& f, merged_config& out)
{
    const file_reader r(f.path);
    auto docs = doc::load_yaml(f.text);
    if (!docs)
        throw config_error{"kubeconfig " + f.path + where_of(docs.error().where) + ": not valid YAML: " +
                           yaml_cause(docs.error().message)};
    if (docs->empty())
        return; // an empty file is an empty config (loader.go Load)
    const doc::value& root = docs->front().root;
    if (root.is_null())
        return;
    if (!root.is_mapping())
        r.fail(root, "(top level)", "expected a mapping, found " + found(root));
    const std::string api_version = r.string_at(root, "apiVersion", "");
    const std::string kind = r.string_at(root, "kind", "");
    if (!api_version.empty() && api_version != "v1")
        r.fail(*root.find("apiVersion"), "apiVersion", "\"" + api_version + "\" is not supported (v1)");
    if (!kind.empty() && kind != "Config")
        r.fail(*root.find("kind"), "kind", "\"" + kind + "\" is not a kubeconfig (Config)");
    check_extensions(r, root, "");
    if (const doc::value* prefs = r.mapping_at(root, "preferences", ""))
        check_extensions(r, *prefs, "preferences");
    merged_config mine;
    each_named(r, root, "clusters", [&](std::string n, const doc::value& v, const std::string& k) {
        mine.clusters.emplace(std::move(n), read_cluster(r, v, k));
    });
    each_named(r, root, "users", [&](std::string n, const doc::value& v, const std::string& k) {
        mine.users.emplace(std::move(n), read_user(r, v, k));
    });
    each_named(r, root, "contexts", [&](std::string n, const doc::value& v, const std::string& k) {
        mine.contexts.emplace(std::move(n), read_context(r, v, k));
    });
    out.clusters.merge(mine.clusters);
    out.users.merge(mine.users);
    out.contexts.merge(mine.contexts);
    const std::string current = r.string_at(root, "current-context", "");
    if (out.current_context.empty() && !current.empty()) {
        out.current_context = current;
        out.current_context_file = f.path;
    }
}

template <class Map>
std::string names_of(const Map& m)
{
    constexpr std::size_t listed = 20;
    std::string s;
    std::size_t n = 0;
    for (auto it = m.begin(); it != m.end() && n < listed; ++it, ++n)
        s += (s.empty() ? "" : ", ") + it->first;
    if (m.size() > listed)
        s += " and " + std::to_string(m.size() - listed) + " more";
    return s.empty() ? "none" : s;
}

std::string sources_of(const std::vector<kubeconfig_text>& files)
{
    std::string s;
    for (const auto& f : files)
        s += (s.empty() ? "" : ", ") + f.path;
    return s.empty() ? "(no file)" : s;
}

const context_entry& pick_context(const merged_config& m, std::string_view flag, const std::string& sources,
                                  std::string& name)
{
    name = flag.empty() ? m.current_context : std::string(flag);
    if (name.empty())
        throw config_error{"kubeconfig " + sources + ": no current-context and no --context (contexts: " +
                           names_of(m.contexts) + ")"};
    auto it = m.contexts.find(name);
    if (it == m.contexts.end()) {
        const std::string from = flag.empty() ? "current-context in " + m.current_context_file : "--context";
        throw config_error{"kubeconfig " + sources + ": context \"" + name + "\" (" + from + ") not found (contexts: " +
                           names_of(m.contexts) + ")"};
    }
    return it->second;
}

void check_cluster(const cluster_entry& c, const std::string& name)
{
    const std::string at = "kubeconfig " + c.file + ": " + entry_key("clusters", name) + ".cluster";
    if (c.server.empty())
        throw config_error{at + ": no server (cluster \"" + name + "\" has no server defined)"};
    if (!c.ca_file.empty() && !c.ca_pem.empty())
        throw config_error{at + ": certificate-authority-data and certificate-authority are both specified " +
                           "(kubectl refuses this too; keep one)"};
    if (c.insecure && (!c.ca_file.empty() || !c.ca_pem.empty())) // client-go transport.TLSConfigFor
        throw config_error{at + ": specifying a root certificates file with the insecure flag is not allowed"};
    if (!c.proxy_url.empty()) { // clientcmd validation.go: invalid 'proxy-url'
        auto p = detail::parse_proxy_url(c.proxy_url, "proxy-url");
        if (!p)
            throw config_error{"kubeconfig " + c.file + where_of(c.proxy_at) + ": " + entry_key("clusters", name) +
                               ".cluster." + p.error().message};
    }
}

// clientcmd/validation.go validateAuthInfo's exec checks, and exec.go's apiVersion check.
void check_exec(const exec_config& e, const std::string& at)
{
    if (e.command.empty())
        throw config_error{at + ".command: must be specified to use the exec credential plugin"};
    if (e.api_version.empty())
        throw config_error{at + ".apiVersion: must be specified to use the exec credential plugin"};
    if (e.api_version != exec_v1 && e.api_version != exec_v1beta1)
        throw config_error{at + ".apiVersion: \"" + e.api_version + "\" is not supported (" + std::string(exec_v1) +
                           " or " + std::string(exec_v1beta1) + ")"};
    for (std::size_t i = 0; i < e.env.size(); ++i)
        if (e.env[i].first.empty())
            throw config_error{at + ".env[" + std::to_string(i) + "].name: must be specified"};
    if (e.interactive_mode.empty())
        throw config_error{at + ".interactiveMode: must be specified for " + std::string(exec_v1) +
                           " (Never, IfAvailable or Always)"};
    if (e.interactive_mode != "Never" && e.interactive_mode != "IfAvailable" && e.interactive_mode != "Always")
        throw config_error{at + ".interactiveMode: \"" + e.interactive_mode +
                           "\" is not one of Never, IfAvailable, Always"};
}

void check_user(const user_entry& u, const std::string& name)
{
    const std::string at = "kubeconfig " + u.file + ": " + entry_key("users", name) + ".user";
    if (!u.cert_file.empty() && !u.cert_pem.empty())
        throw config_error{at + ": client-certificate-data and client-certificate are both specified"};
    if (!u.key_file.empty() && !u.key_pem.empty())
        throw config_error{at + ": client-key-data and client-key are both specified"};
    const bool has_cert = !u.cert_file.empty() || !u.cert_pem.empty();
    if (has_cert && u.key_file.empty() && u.key_pem.empty())
        throw config_error{at + ": client-key-data or client-key must be specified to use the client certificate"};
    if (!u.token.empty() && (!u.username.empty() || !u.password.empty()))
        throw config_error{at + ": more than one authentication method found (token, basicAuth); only one is allowed"};
    if (!u.impersonation.empty())
        throw config_error{at + "." + u.impersonation + ": impersonation is not supported: requests would run as "
                           "the user itself"};
    if (!u.auth_provider.empty())
        throw config_error{at + ".auth-provider: auth provider \"" + u.auth_provider +
                           "\" is not supported; use an exec credential plugin (users[].user.exec)"};
    if (u.exec)
        check_exec(*u.exec, at + ".exec");
}

void apply_cluster(const cluster_entry& c, rest_config& rc, parsed_kubeconfig& out)
{
    rc.server = c.server;
    rc.tls_server_name = c.tls_server_name;
    rc.insecure_skip_tls_verify = c.insecure;
    rc.proxy_url = c.proxy_url;
    rc.ca_pem = c.ca_pem;
    out.ca_file = c.ca_file;
}

void apply_user(const user_entry& u, rest_config& rc, parsed_kubeconfig& out)
{
    rc.client_cert_pem = u.cert_pem;
    rc.client_key_pem = u.key_pem;
    out.client_cert_file = u.cert_file;
    out.client_key_file = u.key_file;
    rc.token = u.token;
    rc.token_file = u.token_file;
    rc.username = u.username;
    rc.password = u.password;
    rc.exec = u.exec;
}

// The chosen context's cluster and user, checked as ConfirmUsable checks them (a context without a user
// is anonymous, as kubectl allows; one naming a user that is not defined is an error here).
rest_config resolve(const merged_config& m, std::string_view flag, const std::vector<kubeconfig_text>& files,
                    parsed_kubeconfig& out)
{
    rest_config rc;
    rc.source = sources_of(files);
    const context_entry& ctx = pick_context(m, flag, rc.source, rc.context_name);
    const std::string ctx_at = "kubeconfig " + ctx.file + ": " + entry_key("contexts", rc.context_name) + ".context";
    if (ctx.cluster.empty())
        throw config_error{ctx_at + ".cluster: context \"" + rc.context_name + "\" names no cluster"};
    auto cluster = m.clusters.find(ctx.cluster);
    if (cluster == m.clusters.end())
        throw config_error{ctx_at + ".cluster: cluster \"" + ctx.cluster + "\" not found (clusters: " +
                           names_of(m.clusters) + ")"};
    auto user = ctx.user.empty() ? m.users.end() : m.users.find(ctx.user);
    if (!ctx.user.empty() && user == m.users.end())
        throw config_error{ctx_at + ".user: user \"" + ctx.user + "\" not found (users: " + names_of(m.users) + ")"};
    check_cluster(cluster->second, ctx.cluster);
    rc.cluster_name = ctx.cluster;
    apply_cluster(cluster->second, rc, out);
    if (user != m.users.end()) {
        check_user(user->second, ctx.user);
        rc.user_name = ctx.user;
        apply_user(user->second, rc, out);
    }
    // rest.defaultServerUrlFor: a server without a scheme is https when anything TLS is configured, else http.
    if (rc.server.find("://") == std::string::npos) {
        const bool tls = !rc.ca_pem.empty() || !out.ca_file.empty() || !rc.client_cert_pem.empty() ||
                         !out.client_cert_file.empty() || rc.insecure_skip_tls_verify;
        rc.server = (tls ? "https://" : "http://") + rc.server;
    }
    rc.default_namespace = ctx.namespace_.empty() ? "default" : ctx.namespace_;
    return rc;
}

// Reads a file whole, refusing more than `max_file_bytes`; "" + error text on failure.
result<std::string> read_file(const std::string& path)
{
    std::error_code ec;
    const auto size = fs::file_size(path, ec);
    if (ec)
        return failure{ec.message(), {}};
    if (size > max_file_bytes)
        return failure{"larger than " + std::to_string(max_file_bytes >> 20) + " MiB", {}};
    std::ifstream in(path, std::ios::binary);
    if (!in)
        return failure{std::error_code(errno, std::generic_category()).message(), {}};
    std::string text(static_cast<std::size_t>(size), '\0');
    in.read(text.data(), static_cast<std::streamsize>(text.size()));
    text.resize(static_cast<std::size_t>(in.gcount()));
    if (in.bad())
        return failure{"read error", {}};
    return text;
}

bool exists(const std::string& path)
{
    std::error_code ec;
    return fs::exists(path, ec);
}

// The files kubectl would read for `where` (loader.go ClientConfigLoadingRules): the flag's file (which
// must exist), else every existing file of $KUBECONFIG (duplicates dropped), else ~/.kube/config.
result<std::vector<std::string>> kubeconfig_files(const kubeconfig_location& where)
{
    if (!where.flag.empty()) {
        if (!exists(where.flag))
            return failure{"kubeconfig " + where.flag + " (--kubeconfig): no such file", {}};
        return std::vector<std::string>{where.flag};
    }
    std::vector<std::string> files;
    if (!where.env.empty()) {
        std::size_t start = 0;
        while (start <= where.env.size()) {
            std::size_t end = where.env.find(':', start);
            if (end == std::string::npos)
                end = where.env.size();
            std::string p = where.env.substr(start, end - start);
            if (!p.empty() && std::find(files.begin(), files.end(), p) == files.end() && exists(p))
                files.push_back(std::move(p));
            start = end + 1;
        }
        if (files.empty())
            return failure{"kubeconfig: none of the files in $KUBECONFIG exists (" + where.env + ")", {}};
        return files;
    }
    if (where.home.empty())
        return failure{"kubeconfig: no --kubeconfig, no $KUBECONFIG and no $HOME to find ~/.kube/config", {}};
    std::string home_config = (fs::path(where.home) / ".kube" / "config").string();
    if (!exists(home_config))
        return failure{"kubeconfig: no --kubeconfig, no $KUBECONFIG and " + home_config + " does not exist", {}};
    return std::vector<std::string>{home_config};
}

// Reads a file the kubeconfig names into `pem` (errors name the key and the file).
std::optional<failure> read_named(const std::string& path, std::string_view key, const rest_config& rc,
                                  std::string& pem)
{
    if (path.empty())
        return std::nullopt;
    auto text = read_file(path);
    if (!text)
        return failure{"kubeconfig " + rc.source + ": " + std::string(key) + " " + path + " (" + rc.identity() +
                       "): " + text.error().message, {}};
    pem = std::move(text.value());
    return std::nullopt;
}

} // namespace

std::string rest_config::identity() const
{
    if (context_name.empty()) // in-cluster: the source names the service account's token
        return user_name.empty() ? source : "user " + user_name + " (" + source + ")";
    const std::string who = user_name.empty() ? "no user (anonymous)" : "user " + user_name;
    return who + " in context " + context_name + " (" + source + ")";
}

result<parsed_kubeconfig> parse_kubeconfig(const std::vector<kubeconfig_text>& files, std::string_view context)
{
    try {
        merged_config m;
        for (const kubeconfig_text& f : files)
            merge_file(f, m);
        parsed_kubeconfig out;
        out.config = resolve(m, context, files, out);
        return out;
    } catch (const config_error& e) {
        return failure{e.message, {}};
    }
}

result<rest_config> load_kubeconfig(const kubeconfig_location& where)
{
    auto paths = kubeconfig_files(where);
    if (!paths)
        return paths.error();
    std::vector<kubeconfig_text> files;
    for (const std::string& p : *paths) {
        auto text = read_file(p);
        if (!text)
            return failure{"kubeconfig " + p + ": " + text.error().message, {}};
        files.push_back({p, std::move(text.value())});
    }
    auto parsed = parse_kubeconfig(files, where.context);
    if (!parsed)
        return parsed.error();
    rest_config rc = std::move(parsed->config);
    if (auto f = read_named(parsed->ca_file, "certificate-authority", rc, rc.ca_pem))
        return *f;
    if (auto f = read_named(parsed->client_cert_file, "client-certificate", rc, rc.client_cert_pem))
        return *f;
    if (auto f = read_named(parsed->client_key_file, "client-key", rc, rc.client_key_pem))
        return *f;
    return rc;
}

// rest.InClusterConfig: the token is read now (and kept as token_file, re-read on 401); a missing ca.crt
// leaves the system roots, as client-go only logs it; the namespace as kubectl's in-cluster config reads it.
result<rest_config> in_cluster_config(std::string_view root)
{
    const char* host = std::getenv("KUBERNETES_SERVICE_HOST");
    const char* port = std::getenv("KUBERNETES_SERVICE_PORT");
    if (host == nullptr || port == nullptr || *host == '\0' || *port == '\0')
        return failure{"not running in a cluster: KUBERNETES_SERVICE_HOST and KUBERNETES_SERVICE_PORT must be "
                       "defined (use --kubeconfig outside a pod)", {}};
    const std::string h = host;
    const fs::path dir(root);
    rest_config rc;
    rc.server = "https://" + (h.find(':') != std::string::npos ? "[" + h + "]" : h) + ":" + port;
    rc.token_file = (dir / "token").string();
    rc.source = "in-cluster service account, token " + rc.token_file;
    auto token = read_file(rc.token_file);
    if (!token)
        return failure{"in-cluster config: service account token " + rc.token_file + ": " + token.error().message, {}};
    rc.token = trim(std::move(token.value()));
    if (auto ca = read_file((dir / "ca.crt").string()))
        rc.ca_pem = std::move(ca.value());
    const char* pod_ns = std::getenv("POD_NAMESPACE");
    if (pod_ns != nullptr && *pod_ns != '\0')
        rc.default_namespace = pod_ns;
    else if (auto ns = read_file((dir / "namespace").string()); ns && !trim(ns.value()).empty())
        rc.default_namespace = trim(ns.value());
    else
        rc.default_namespace = "default";
    return rc;
}

} // namespace kpw::kube
