// SPDX-License-Identifier: Apache-2.0
// kubeconfig: where a client connects and who it is, read the way kubectl reads it.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "base/result.hpp"

namespace kpw::kube {

// users[].user.exec: a client-go credential plugin (client.authentication.k8s.io/v1 or v1beta1).
struct exec_config {
    std::string api_version; // client.authentication.k8s.io/v1 | v1beta1 (anything else is refused)
    std::string command;     // resolved against the kubeconfig's directory when it contains a '/'
    std::vector<std::string> args;
    std::vector<std::pair<std::string, std::string>> env; // added to the inherited environment
    std::string install_hint;       // printed when the command cannot be run
    bool provide_cluster_info = false; // KUBERNETES_EXEC_INFO carries spec.cluster
    std::string interactive_mode;   // Never | IfAvailable | Always; stdin is never a terminal here
};

// One resolved context: the cluster to reach and the credentials to show, with every file already
// read (a kubeconfig names files relative to itself) so later steps touch no paths but the token file
// and the exec plugin, which are re-read / re-run on expiry.
struct rest_config {
    std::string server;          // https://host:port[/prefix]; http:// is accepted, with a warning when credentials go over it
    std::string tls_server_name; // SNI and the name the certificate must carry; empty: the server's host
    bool insecure_skip_tls_verify = false;
    std::string proxy_url;       // clusters[].cluster.proxy-url (http:// or socks5://, checked); empty: the
                                 // environment's HTTPS_PROXY / NO_PROXY by Go's rules
    std::string ca_pem;          // certificate-authority-data (decoded) or the certificate-authority file; empty: system roots
    std::string client_cert_pem; // client-certificate(-data)
    std::string client_key_pem;  // client-key(-data)
    std::string token;           // a static bearer token (never logged)
    std::string token_file;      // re-read when the server answers 401 (service-account tokens rotate); while
                                 // it can be read its content is sent instead of `token`, as client-go does
    std::optional<exec_config> exec;
    std::string username, password; // basic auth (still in kubeconfig's schema)

    // For messages: which identity and which file were used.
    std::string context_name, cluster_name, user_name;
    std::string default_namespace; // contexts[].context.namespace, else "default"
    std::string source;            // the kubeconfig path(s) read, or "in-cluster service account"

    // "user <name> in context <ctx> (<source>)": names the identity without any secret.
    std::string identity() const;
};

// Where to look: kubectl's order is --kubeconfig, else $KUBECONFIG (a ':'-separated list, merged),
// else ~/.kube/config. Passed in so that the reader has no hidden inputs.
struct kubeconfig_location {
    std::string flag;        // --kubeconfig
    std::string env;         // $KUBECONFIG ("" when unset)
    std::string home;        // $HOME
    std::string context;     // --context ("" = current-context)
};

// One kubeconfig file's text, already read, with the directory its relative paths are resolved against.
struct kubeconfig_text {
    std::string path; // for messages and for resolving relative paths
    std::string text;
};

// Pure: merges the files as client-go does (the first file that sets a map key or current-context
// wins), picks the context and returns what is needed to connect. File references (CA, client
// certificate, key, token file) are returned as absolute paths, not read. Refused as kubectl refuses
// them: a missing context, a context naming a missing cluster, a cluster without a server, a name
// defined twice in one file, bad base64 anywhere, both -data and file for the CA / certificate / key,
// a certificate without a key, token with basic auth, a CA with insecure-skip-tls-verify, an exec
// plugin of another apiVersion. Refused where kubectl would go on silently: a context naming a user
// that is not defined (kubectl connects anonymously), auth-provider, impersonation (as, as-groups,
// ...), a proxy-url this client cannot use (https://; kube/proxy_rules.hpp). disable-compression and
// extensions are read for their types and ignored, as client-go ignores them here (docs/live.md).
// Messages name the file (with line:column where the node has one) and the key, never a secret.
struct parsed_kubeconfig {
    rest_config config;
    // Fields still naming files: the loader reads them into config (ca_pem, client_cert_pem, client_key_pem).
    std::string ca_file, client_cert_file, client_key_file;
};
result<parsed_kubeconfig> parse_kubeconfig(const std::vector<kubeconfig_text>& files, std::string_view context);

// Reads the files `where` names (and the files they name) and resolves the context. Errors say which
// file, which context, which key: "kubeconfig ~/.kube/config: context \"prod\" not found (contexts: a, b)".
result<rest_config> load_kubeconfig(const kubeconfig_location& where);

// The pod's service account: $KUBERNETES_SERVICE_HOST/PORT, /var/run/secrets/kubernetes.io/serviceaccount/
// {token (re-read on 401), ca.crt, namespace}. `root` replaces that directory in tests.
result<rest_config> in_cluster_config(std::string_view root = "/var/run/secrets/kubernetes.io/serviceaccount");

} // namespace kpw::kube
