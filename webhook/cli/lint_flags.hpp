// SPDX-License-Identifier: Apache-2.0
// The flags `lint` and `plan` share (output, validation, dry-run settings, --kubeconfig), and the steps
// both take with them: options, the dry run's set-up, rendering and the exit code.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "cli/karmada_version.hpp"
#include "cli/kube_flags.hpp"
#include "kube/client.hpp"
#include "lint/dry_run.hpp"
#include "lint/lint.hpp"

namespace kpw::cli {

struct lint_flags {
    std::vector<std::string> paths;
    std::string output = "text";
    lint::lint_options options;
    std::vector<std::string> clusters;  // --clusters: the snapshot for the dry-run scheduling check
    std::vector<std::string> workloads; // --workloads: the resource templates the policies claim
    std::vector<std::string> bindings;  // --bindings: today's ResourceBindings (day two)
    std::string unschedulable = "error";
    bool legacy_tolerations = false;
    std::vector<std::string> base; // --base: the policies to diff placements against
    std::string fail_on = "unschedulable";
    std::string link_base; // --link-base URL
    std::string html_report; // --report FILE.html
    std::string feature_gates; // --feature-gates
    std::string validate = "strict"; // --validate, kubectl's names
    std::string karmada_version;     // --karmada-version ("" = the newest, or the server's)
    kube_flags kube;                 // --kubeconfig / --context: read the rest from karmada-apiserver
    bool namespace_given = false;    // -n was set (else a live run takes the context's namespace)
    bool prune = false;              // plan --prune
    std::string member_state;        // --member-state DIR: members' Nodes and Pods (karmada-scheduler-estimator)
    bool members_through_proxy = false; // --members-through-proxy: the same, read through Karmada's cluster proxy
};

// -o, -n, --unschedulable, --explain, --legacy-default-tolerations, --fail-on, --link-base, --report,
// --feature-gates, --validate, --allow-aggregated-overflow, --karmada-version, --kubeconfig, --context,
// --request-timeout.
void add_shared_lint_flags(CLI::App& sub, const std::shared_ptr<lint_flags>& flags);

// The lint options the flags set; nullopt (and a message naming `command`) on a bad --feature-gates or
// --karmada-version.
std::optional<lint::lint_options> lint_options_of(const lint_flags& flags, const char* command);

// Makes `options` answer for `choice`'s release (the validation, the feature gates the flags name, what the
// report says); false (and a message) when --feature-gates names a gate that release does not have.
bool answer_for_release(lint::lint_options& options, const lint_flags& flags, const karmada_version_choice& choice,
                        const char* command);

// --member-state / --members-through-proxy: the members' nodes and pods into the dry run's snapshot
// (snapshot/member_state.hpp), from DIR or through `client` (karmada-apiserver's cluster proxy, one member
// after the other; a member that cannot be read gets a note on stderr and no estimator). File errors go to
// `errors`. Nothing without either flag.
void load_member_state(lint::dry_run_context& ctx, const lint_flags& flags, kube::client* client, const char* command,
                       std::vector<lint::file_error>& errors);

// The usage errors of the member-state flags: both given, or --members-through-proxy without a server to
// read through (`has_server`). A message naming `command` on stderr; true when the flags are usable.
bool check_member_state_flags(const lint_flags& flags, bool has_server, const char* command);
bool check_member_state_flags(const std::string& member_state, bool through_proxy, bool has_server, const char* command);

// --members-through-proxy itself: each Cluster's Nodes and Pods through `client`, one member after the other.
void load_members_through_proxy(lint::dry_run_context& ctx, kube::client& client, const char* command,
                                std::vector<lint::file_error>& errors);

// The dry run's settings from the flags; `options.dry_run` points at it afterwards.
void prepare_dry_run(lint::dry_run_context& ctx, const lint_flags& flags, lint::lint_options& options);

// A client for --kubeconfig/--context (or kubectl's default kubeconfig); null and a message on stderr
// when the kubeconfig cannot be used. Unless -n was given, `default_namespace` becomes the context's.
std::unique_ptr<kube::client> connect(const kube_flags& flags, bool namespace_given, const char* command,
                                      std::string& default_namespace);

// The dry run over what the file flags give and, for the rest, what the server holds: Clusters,
// bindings, and the templates `selecting` selects. Null and a message on stderr when a read fails.
// File flags (`cluster_paths`, ...) win over the server: `--clusters what-if.yaml` plans against edited Clusters.
std::unique_ptr<lint::dry_run_context> load_live_dry_run(const char* command, kube::client& client,
                                                         const std::vector<std::string>& cluster_paths,
                                                         const std::vector<std::string>& workload_paths,
                                                         const std::vector<std::string>& binding_paths,
                                                         const lint::input_set& selecting,
                                                         const std::string& default_namespace,
                                                         std::vector<lint::file_error>& errors);

// Renders the report in -o's format (and --report), and returns the exit code under --fail-on.
int finish_report(const lint_flags& flags, const lint::report& report);

} // namespace kpw::cli
