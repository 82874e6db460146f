// SPDX-License-Identifier: Apache-2.0
#include "settings/feature_gates.hpp"

#include <algorithm>
#include <optional>

namespace kpw::settings {

namespace {

std::optional<std::size_t> index_of(std::string_view name, karmada_release release)
{
    const auto& gates = known_gates(release);
    for (std::size_t i = 0; i < gates.size(); ++i)
        if (gates[i].name == name)
            return i;
    return std::nullopt;
}

std::string_view trim(std::string_view s)
{
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t'))
        s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t'))
        s.remove_suffix(1);
    return s;
}

// strconv.ParseBool's spellings.
std::optional<bool> parse_bool(std::string_view v)
{
    for (std::string_view t : {"1", "t", "T", "TRUE", "true", "True"})
        if (v == t)
            return true;
    for (std::string_view f : {"0", "f", "F", "FALSE", "false", "False"})
        if (v == f)
            return false;
    return std::nullopt;
}

std::string known_list(karmada_release release)
{
    std::string s;
    for (const auto& g : known_gates(release))
        s.append(s.empty() ? "" : ", ").append(g.name);
    return s + ", AllAlpha, AllBeta";
}

} // namespace

const std::vector<gate_spec>& known_gates(karmada_release release)
{
    // karmada: pkg/features/features.go defaultFeatureGates of each release. The three differ in what
    // they register (WorkloadAffinity from v1.17.0, SchedulingOvercommitProtection from v1.18.0) and in
    // ControllerPriorityQueue (alpha, off in v1.16.0; beta, on from v1.17.0). Data per release, one
    // parser and one set of accessors for all.
    static const std::vector<gate_spec> v1_18_2 = {
        {"Failover", stage::beta, false},
        {"GracefulEviction", stage::beta, true},
        {"PropagateDeps", stage::beta, true},
        {"CustomizedClusterResourceModeling", stage::beta, true},
        {"PropagationPolicyPreemption", stage::alpha, false},
        {"MultiClusterService", stage::alpha, false},
        {"ResourceQuotaEstimate", stage::alpha, false},
        {"StatefulFailoverInjection", stage::alpha, false},
        {"PriorityBasedScheduling", stage::alpha, false},
        {"FederatedQuotaEnforcement", stage::alpha, false},
        {"LoggingAlphaOptions", stage::alpha, false},
        {"LoggingBetaOptions", stage::beta, true},
        {"ContextualLogging", stage::beta, true},
        {"MultiplePodTemplatesScheduling", stage::alpha, false},
        {"ControllerPriorityQueue", stage::beta, true},
        {"WorkloadAffinity", stage::alpha, false},
        {"SchedulingOvercommitProtection", stage::alpha, false},
    };
    static const std::vector<gate_spec> v1_17_1(v1_18_2.begin(), v1_18_2.end() - 1);
    static const std::vector<gate_spec> v1_16_0 = [] {
        std::vector<gate_spec> gates(v1_17_1.begin(), v1_17_1.end() - 1);
        for (auto& g : gates)
            if (g.name == "ControllerPriorityQueue")
                g = {g.name, stage::alpha, false};
        return gates;
    }();
    switch (release) {
    case karmada_release::v1_16_0:
        return v1_16_0;
    case karmada_release::v1_17_1:
        return v1_17_1;
    case karmada_release::v1_18_2:
        break;
    }
    return v1_18_2;
}

feature_gates::feature_gates(karmada_release release) : release_(release)
{
    for (const auto& g : known_gates(release))
        values_.push_back(g.default_value);
}

bool feature_gates::enabled(std::string_view name) const
{
    auto i = index_of(name, release_);
    return i && values_[*i];
}

void feature_gates::set(std::string_view name, bool value)
{
    if (auto i = index_of(name, release_))
        values_[*i] = value;
}

std::string feature_gates::non_defaults() const
{
    std::string s;
    const auto& gates = known_gates(release_);
    for (std::size_t i = 0; i < gates.size(); ++i)
        if (values_[i] != gates[i].default_value)
            s.append(s.empty() ? "" : ",").append(gates[i].name).append(values_[i] ? "=true" : "=false");
    return s;
}

result<feature_gates> parse_feature_gates(std::string_view flag, karmada_release release)
{
    feature_gates out(release);
    std::vector<bool> named(known_gates(release).size(), false);
    std::optional<bool> all_alpha, all_beta;
    while (!flag.empty()) {
        auto comma = flag.find(',');
        std::string_view entry = trim(flag.substr(0, comma));
        flag = comma == std::string_view::npos ? std::string_view{} : flag.substr(comma + 1);
        if (entry.empty())
            continue;
        auto eq = entry.find('=');
        if (eq == std::string_view::npos)
            return failure{"missing bool value for " + std::string(entry) + " (write Name=true or Name=false)", {}};
        std::string_view name = trim(entry.substr(0, eq));
        auto value = parse_bool(trim(entry.substr(eq + 1)));
        if (!value)
            return failure{"invalid value of " + std::string(name) + "=" + std::string(trim(entry.substr(eq + 1))) +
                               ", err: strconv.ParseBool: parsing \"" + std::string(trim(entry.substr(eq + 1))) +
                               "\": invalid syntax",
                           {}};
        if (name == "AllAlpha") {
            all_alpha = value;
            continue;
        }
        if (name == "AllBeta") {
            all_beta = value;
            continue;
        }
        auto i = index_of(name, release);
        if (!i)
            return failure{"unrecognized feature gate: " + std::string(name) + " (known to Karmada " +
                               std::string(release_name(release)) + ": " + known_list(release) + ")",
                           {}};
        out.set(name, *value);
        named[*i] = true;
    }
    // component-base applies AllAlpha/AllBeta only to gates the flag does not name.
    const auto& gates = known_gates(release);
    for (std::size_t i = 0; i < gates.size(); ++i) {
        if (named[i])
            continue;
        if (gates[i].maturity == stage::alpha && all_alpha)
            out.set(gates[i].name, *all_alpha);
        if (gates[i].maturity == stage::beta && all_beta)
            out.set(gates[i].name, *all_beta);
    }
    return out;
}

} // namespace kpw::settings
