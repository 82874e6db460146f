// SPDX-License-Identifier: Apache-2.0
// `simulate`: a drill, step by step, over the dry run's snapshot, workloads and bindings.
#include "cli/command.hpp"
#include "cli/exit_codes.hpp"

#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "cli/lint_flags.hpp"
#include "simulate/load.hpp"
#include "simulate/render.hpp"

namespace kpw::cli {
namespace {

// --kubeconfig / --context: the drill starts from the control plane as it is (files given still win).
struct simulate_command_flags : simulate_cli::simulate_flags {
    kube_flags kube;
    bool namespace_given = false;
    std::string karmada_version; // --karmada-version as given
};

// Sets flags.release: --karmada-version, else the server's (with --kubeconfig), else the newest.
bool resolve_release(simulate_command_flags& flags, kube::client* client)
{
    auto choice = karmada_version_of(flags.karmada_version);
    if (!choice) {
        std::cerr << "simulate: " << choice.error().message << '\n';
        return false;
    }
    if (client)
        *choice = karmada_version_with_server(flags.karmada_version, *client, "simulate");
    flags.release = choice->release;
    flags.release_decided_by = choice->decided_by;
    return true;
}

int run_simulate_command(simulate_command_flags flags)
{
    std::unique_ptr<lint::dry_run_context> live;
    if (!resolve_release(flags, nullptr) ||
        !check_member_state_flags(flags.member_state, flags.members_through_proxy, flags.kube.requested(), "simulate"))
        return exit_usage;
    if (flags.kube.requested()) {
        auto client = connect(flags.kube, flags.namespace_given, "simulate", flags.default_namespace);
        if (client && !resolve_release(flags, client.get()))
            return exit_usage;
        std::vector<lint::file_error> errors;
        if (client)
            live = load_live_dry_run("simulate", *client, flags.clusters, flags.workloads, flags.bindings,
                                     lint::collect_inputs(flags.policies), flags.default_namespace, errors);
        if (live && flags.members_through_proxy)
            load_members_through_proxy(*live, *client, "simulate", errors);
        for (const auto& e : errors)
            std::cerr << e.str() << '\n';
        if (!live || !errors.empty())
            return exit_usage;
    } else if (flags.clusters.empty()) {
        std::cerr << "simulate: --clusters is required (or --kubeconfig/--context to read the Clusters from karmada-apiserver)\n";
        return exit_usage;
    }
    auto loaded = simulate_cli::load_drill(flags, std::move(live));
    if (!loaded.errors.empty()) {
        for (const auto& e : loaded.errors)
            std::cerr << e.str() << '\n';
        return exit_usage;
    }
    const simulate::drill d = simulate::run(std::move(loaded.start), loaded.scenario, loaded.inputs, loaded.settings);
    if (flags.output == "json")
        simulate_cli::render_json(loaded.header, d, std::cout);
    else
        simulate_cli::render_text(loaded.header, d, std::cout);
    std::cout.flush();
    return d.failed ? exit_findings : exit_ok;
}

} // namespace

command add_simulate_command(CLI::App& parent)
{
    auto flags = std::make_shared<simulate_command_flags>();
    auto* sub = parent.add_subcommand(
        "simulate", "Rehearse a drill offline: apply a scenario's steps (taints, cluster failures, scaling, "
                    "rebalancing, policy versions, time) one by one and predict what karmada-scheduler and the\n"
                    "controllers around it do to every workload after each step.\n"
                    "Exit 0: every step schedules every workload; 1: a step leaves one unschedulable or without "
                    "serving replicas; 2: usage, I/O or parse error.");
    sub->add_option("policies", flags->policies, "the policies in force (files, directories or -), as lint reads them")
        ->required();
    sub->add_option("--scenario", flags->scenario, "the drill: a Scenario file (karmada-policy-webhook.io/v1alpha1)")
        ->required();
    sub->add_option("--clusters", flags->clusters,
                    "Cluster objects (and ClusterTaintPolicies), as for lint (required unless --kubeconfig/--context)")
        ->allow_extra_args(false);
    sub->add_option("--workloads", flags->workloads, "the resource templates, as for lint")->allow_extra_args(false);
    sub->add_option("--bindings", flags->bindings,
                    "ResourceBindings / ClusterResourceBindings as `kubectl get rb -A -o yaml` prints them")
        ->allow_extra_args(false);
    sub->add_option("--member-state", flags->member_state,
                    "karmada-scheduler-estimator: one subdirectory per member cluster with its Nodes and Pods, as "
                    "for lint; wins over the scenario's memberState (docs/estimator.md)");
    sub->add_flag("--members-through-proxy", flags->members_through_proxy,
                  "with --kubeconfig/--context: the member state read live through karmada-apiserver's cluster "
                  "proxy, as for lint; wins over the scenario's memberState");
    sub->add_option("-o,--output", flags->output, "output format")->check(CLI::IsMember({"text", "json"}))->capture_default_str();
    sub->add_option("-n,--namespace", flags->default_namespace,
                    "namespace of objects that set none (with --kubeconfig: the context's)")
        ->capture_default_str()
        ->each([flags](const std::string&) { flags->namespace_given = true; });
    sub->add_option("--feature-gates", flags->feature_gates,
                    "karmada's feature gates, as its binaries take them (Failover=true,GracefulEviction=false,...); "
                    "unnamed gates keep the binaries' defaults");
    sub->add_flag("--enable-no-execute-taint-eviction", flags->enable_no_execute_taint_eviction,
                  "karmada-controller-manager: evict workloads from clusters with NoExecute taints (needs the Failover "
                  "gate; default false; --enable-no-execute-taint-eviction=false also works)");
    sub->add_option("--no-execute-taint-eviction-purge-mode", flags->purge_mode,
                    "karmada-controller-manager: Gracefully or Directly")
        ->check(CLI::IsMember({"Gracefully", "Directly"}))
        ->capture_default_str();
    sub->add_option("--graceful-eviction-timeout", flags->graceful_eviction_timeout,
                    "karmada-controller-manager: how long an evicted copy may keep running (Go duration)")
        ->capture_default_str();
    sub->add_flag("--enable-taint-manager", flags->enable_taint_manager,
                  "karmada-controller-manager: run the taint manager (default true; =false turns it off)");
    sub->add_option("--now", flags->now,
                    "the drill's start time (RFC3339); default: one second after the newest time in the inputs");
    add_karmada_version_flag(*sub, flags->karmada_version);
    add_kube_flags(*sub, flags->kube);
    return {sub, [flags] { return run_simulate_command(*flags); }};
}

} // namespace kpw::cli
