// SPDX-License-Identifier: Apache-2.0
// Fuzz target (6): YAML text -> scenario decode -> reference checks against a small world.
#include "doc/load.hpp"
#include "simulate/scenario_decode.hpp"
#include "targets.hpp"

namespace kpw::fuzz {
namespace {

constexpr std::string_view name = "scenario";

void check(const simulate::scenario_decoding& d, std::size_t listed)
{
    if (d.value.steps.size() > listed)
        invariant_failed(name, "more steps decoded than the file lists");
    for (const auto& e : d.errors)
        if (e.message.empty())
            invariant_failed(name, "an error without a message");
    for (const auto& s : d.value.steps)
        if (s.action_key.empty())
            invariant_failed(name, "a step without its action key");
}

} // namespace

int scenario(bytes data)
{
    auto docs = doc::load_yaml(as_text(data));
    if (!docs)
        return 0;
    const std::vector<std::string> clusters{"idc-east-1", "cloud-east-1"};
    const std::vector<simulate::workload_ref> workloads{{"Deployment", "default", "nginx-overflow", {}}};
    for (const doc::document& d : *docs) {
        const doc::value* steps = d.root.find("steps");
        auto decoded = simulate::decode_scenario(d.root);
        check(decoded, steps != nullptr ? steps->items().size() : 0);
        (void)simulate::validate_references(decoded.value, clusters, workloads);
    }
    return 0;
}

} // namespace kpw::fuzz
