// SPDX-License-Identifier: Apache-2.0
// Fuzz target (8): kubeconfig bytes -> kube::parse_kubeconfig as one file and as the same text merged
// twice, for the current context and each named one.
#include <string>
#include <vector>

#include "doc/load.hpp"
#include "kube/kubeconfig.hpp"
#include "targets.hpp"

namespace kpw::fuzz {
namespace {

constexpr std::string_view name = "kubeconfig";
constexpr std::size_t max_contexts = 16;

// "" (current-context) and the names under contexts[] that the text declares, as far as it loads.
std::vector<std::string> contexts_to_try(std::string_view text)
{
    std::vector<std::string> out{""};
    auto docs = doc::load_yaml(text);
    if (!docs || docs->empty())
        return out;
    const doc::value* contexts = docs->front().root.find("contexts");
    if (contexts == nullptr)
        return out;
    for (const doc::value& c : contexts->items())
        if (out.size() <= max_contexts && c.find("name") != nullptr)
            out.emplace_back(c.string_at("name"));
    return out;
}

void check(const result<kube::parsed_kubeconfig>& one, const result<kube::parsed_kubeconfig>& twice)
{
    if (one.ok() != twice.ok())
        invariant_failed(name, "a file merged with itself parses differently from the file alone");
    if (!one) {
        if (!one.error().message.starts_with("kubeconfig ") || !twice.error().message.starts_with("kubeconfig "))
            invariant_failed(name, "an error that does not name the kubeconfig");
        return;
    }
    const kube::rest_config& c = one->config;
    if (c.server.empty() || c.context_name.empty() || c.cluster_name.empty() || c.default_namespace.empty())
        invariant_failed(name, "a resolved context without server, context, cluster or namespace");
    if (twice->config.server != c.server || twice->config.token != c.token || twice->config.ca_pem != c.ca_pem ||
        twice->ca_file != one->ca_file || twice->config.user_name != c.user_name)
        invariant_failed(name, "the first file's entries did not win the merge");
    if (c.exec && c.exec->api_version != "client.authentication.k8s.io/v1" &&
        c.exec->api_version != "client.authentication.k8s.io/v1beta1")
        invariant_failed(name, "an exec plugin of an unsupported apiVersion was accepted");
}

} // namespace

int kubeconfig(bytes data)
{
    const std::string text(as_text(data));
    const std::vector<kube::kubeconfig_text> one{{"/fuzz/a/config", text}};
    const std::vector<kube::kubeconfig_text> twice{{"/fuzz/a/config", text}, {"/fuzz/b/config", text}};
    for (const std::string& context : contexts_to_try(text))
        check(kube::parse_kubeconfig(one, context), kube::parse_kubeconfig(twice, context));
    return 0;
}

} // namespace kpw::fuzz
