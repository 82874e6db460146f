// SPDX-License-Identifier: Apache-2.0
#include "cli/karmada_version.hpp"

#include <iostream>

#include "doc/load.hpp"
#include "kube/client.hpp"
#include "schema/crd_release.hpp"

namespace kpw::cli {
namespace {

std::string supported_help()
{
    std::string out;
    for (settings::karmada_release r : settings::supported_karmada_releases())
        out.append(out.empty() ? "" : ", ").append(settings::release_minor(r));
    return out;
}

// The server's PropagationPolicy CRD, as JSON text, or a failure saying why it could not be read.
result<std::string> policy_crd(kube::client& client)
{
    const kube::api_resource crds{"apiextensions.k8s.io", "v1", "customresourcedefinitions", "CustomResourceDefinition",
                                  false, {}};
    auto got = client.get(crds, "", "propagationpolicies.policy.karmada.io");
    if (!got)
        return got.error();
    if (!*got)
        return failure{"the server has no CustomResourceDefinition propagationpolicies.policy.karmada.io", {}};
    return std::move(**got);
}

} // namespace

void add_karmada_version_flag(CLI::App& sub, std::string& flag)
{
    sub.add_option("--karmada-version", flag,
                   "the Karmada release to answer for: " + supported_help() +
                       " (a full version maps to the pinned release of its minor); default: the newest, or with "
                       "--kubeconfig the release the server's policy CRD shows");
}

result<karmada_version_choice> karmada_version_of(const std::string& flag)
{
    if (flag.empty())
        return karmada_version_choice{};
    auto release = settings::parse_karmada_version(flag);
    if (!release)
        return failure{"--karmada-version: " + release.error().message, {}};
    return karmada_version_choice{*release, "--karmada-version " + flag};
}

karmada_version_choice karmada_version_with_server(const std::string& flag, kube::client& client, const char* command)
{
    auto chosen = karmada_version_of(flag); // checked by the caller before connecting
    karmada_version_choice choice = chosen ? *chosen : karmada_version_choice{};
    auto text = policy_crd(client);
    auto crd = text ? doc::parse_json(*text) : result<doc::value>(text.error());
    if (!crd) {
        std::cerr << command << ": warning: cannot read the server's Karmada release from its PropagationPolicy CRD ("
                  << crd.error().message << "); answering for Karmada "
                  << settings::release_name(choice.release) << (flag.empty() ? " (the newest supported)" : "")
                  << '\n';
        return choice;
    }
    const schema::crd_release server = schema::release_of_crd(*crd);
    if (!flag.empty()) {
        if (server.release != choice.release)
            std::cerr << command << ": warning: --karmada-version " << flag << " but the server looks like Karmada "
                      << settings::release_name(server.release) << " (" << server.reason
                      << "); answering for " << settings::release_name(choice.release) << " as the flag says\n";
        return choice;
    }
    if (server.newer_than_newest)
        std::cerr << command << ": warning: " << server.reason << '\n';
    return {server.release, "the server: " + server.reason};
}

} // namespace kpw::cli
