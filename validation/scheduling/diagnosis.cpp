// SPDX-License-Identifier: Apache-2.0
// The FitError histogram, its plugin-order alternatives, and the condition reason of each error.
#include "scheduling/diagnosis.hpp"

#include <algorithm>
#include <array>
#include <map>
#include <numeric>
#include <set>
#include <string_view>

namespace kpw::scheduling {

namespace {

constexpr std::size_t plugin_count = 5;

// Clusters with the same failures print the same reason under every order: count them once.
using profile = std::vector<std::pair<int, std::string>>; // (plugin, reason) in registry order
using profiles_counted = std::map<profile, std::size_t>; // each with the clusters that fail exactly so

// Which entry of each profile (in the map's order) a plugin order reports: the failing plugin it ranks first.
using choice = std::vector<std::size_t>;

choice choice_for(const profiles_counted& profiles, const std::array<int, plugin_count>& rank)
{
    choice c;
    c.reserve(profiles.size());
    for (const auto& entry : profiles) {
        const profile& p = entry.first;
        std::size_t first = 0;
        for (std::size_t j = 1; j < p.size(); ++j)
            if (rank[static_cast<std::size_t>(p[j].first)] < rank[static_cast<std::size_t>(p[first].first)])
                first = j;
        c.push_back(first);
    }
    return c;
}

std::string text_for(std::size_t all_clusters, const profiles_counted& profiles, const choice& c)
{
    std::map<std::string_view, std::size_t> histogram;
    auto chosen = c.begin();
    for (const auto& [p, count] : profiles)
        histogram[p[*chosen++].second] += count;
    std::vector<std::string> entries;
    for (const auto& [reason, count] : histogram)
        entries.push_back(std::to_string(count).append(" ").append(reason));
    std::sort(entries.begin(), entries.end()); // char_traits<char> compares like memcmp: Go's byte order
    std::string joined;
    for (const auto& e : entries)
        joined.append(joined.empty() ? "" : ", ").append(e);
    return "0/" + std::to_string(all_clusters) + " clusters are available: " + joined + ".";
}

} // namespace

std::string fit_error_text(std::size_t all_clusters, std::span<const std::string> reasons)
{
    profiles_counted profiles;
    for (const auto& r : reasons)
        ++profiles[profile{{0, r}}];
    if (profiles.empty())
        return "0/" + std::to_string(all_clusters) + " clusters are available: no cluster exists.";
    return text_for(all_clusters, profiles, choice(profiles.size(), 0));
}

fit_diagnosis diagnose_fit(std::size_t all_clusters, std::span<const std::vector<plugin_failure>> failures)
{
    std::vector<counted_failures> counted;
    for (const auto& list : failures)
        counted.push_back({list, 1});
    return diagnose_fit(all_clusters, counted);
}

fit_diagnosis diagnose_fit(std::size_t all_clusters, std::span<const counted_failures> counted)
{
    profiles_counted profiles;
    bool several = false;
    for (const auto& c : counted) {
        if (c.failures.empty() || c.clusters == 0)
            continue;
        profile p;
        for (const auto& f : c.failures)
            p.emplace_back(static_cast<int>(f.plugin), f.reason);
        several = several || p.size() > 1;
        profiles[std::move(p)] += c.clusters;
    }
    fit_diagnosis out;
    if (profiles.empty()) {
        out.text = fit_error_text(all_clusters, {});
        return out;
    }
    std::array<int, plugin_count> order{};
    std::iota(order.begin(), order.end(), 0);
    const choice printed = choice_for(profiles, order);
    out.text = text_for(all_clusters, profiles, printed);
    if (!several)
        return out;
    // The 119 other orders mostly pick the same plugins: build a text once per distinct choice (the
    // 120 string histograms per failed term were 19% of a re-schedule fuzz run under perf).
    std::set<choice> choices;
    while (std::next_permutation(order.begin(), order.end()))
        choices.insert(choice_for(profiles, order));
    choices.erase(printed);
    std::set<std::string> others;
    for (const choice& c : choices)
        others.insert(text_for(all_clusters, profiles, c));
    others.erase(out.text);
    out.alternatives.assign(others.begin(), others.end());
    return out;
}

std::string wrapped_error(failure_stage stage, const std::string& error)
{
    switch (stage) {
    case failure_stage::fit: return error;
    case failure_stage::selection: return "failed to select clusters: " + error;
    case failure_stage::assignment: return "failed to assign replicas: " + error;
    }
    return error;
}

std::string condition_reason(failure_stage stage, bool unschedulable)
{
    if (stage == failure_stage::fit)
        return "NoClusterFit";
    return unschedulable ? "Unschedulable" : "SchedulerError";
}

} // namespace kpw::scheduling
