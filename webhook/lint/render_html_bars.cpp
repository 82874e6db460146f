// SPDX-License-Identifier: Apache-2.0
// The HTML report's placement bars: inline SVG, one bar per cluster, coloured by tier.
#include "lint/html.hpp"

#include <algorithm>
#include <ostream>
#include <vector>

namespace kpw::lint::html {
namespace {

constexpr int bar_width = 240, row_height = 24, label_width = 130;
// Primary tier first, then each overflow tier in order of use.
constexpr std::string_view tier_colours[] = {"#2b6cb0", "#dd6b20", "#805ad5", "#2f855a", "#b83280", "#718096"};

// Tier names in the placement's order: the chosen group's primary tier first, then each overflow tier.
std::vector<std::string> tiers_of(const placement& p)
{
    std::vector<std::string> tiers{p.affinity_name};
    for (const auto& c : p.clusters)
        if (std::find(tiers.begin(), tiers.end(), c.tier) == tiers.end())
            tiers.push_back(c.tier);
    return tiers;
}

std::string_view colour_of(const std::vector<std::string>& tiers, const std::string& tier)
{
    const auto i = static_cast<std::size_t>(std::find(tiers.begin(), tiers.end(), tier) - tiers.begin());
    return tier_colours[std::min(i, std::size(tier_colours) - 1)];
}

// The bars' common scale: the desired replicas, or the largest cluster share / capacity up to twice that.
std::int64_t scale_of(std::span<const labelled_placement> rows, std::int64_t replicas)
{
    const std::int64_t desired = std::max<std::int64_t>(replicas, 1);
    std::int64_t scale = desired;
    for (const auto& row : rows)
        for (const auto& c : row.where->clusters)
            scale = std::max({scale, c.replicas, std::min(c.available.value_or(0), 2 * desired)});
    return scale;
}

int width_of(std::int64_t n, std::int64_t scale)
{
    return static_cast<int>(std::min<std::int64_t>(n, scale) * bar_width / scale);
}

void bar(std::ostream& out, const placed_cluster& c, std::string_view colour, int y, std::int64_t scale)
{
    out << "<g class=\"bar\" data-cluster=\"" << escape(c.name) << "\" data-replicas=\"" << c.replicas
        << "\" data-tier=\"" << escape(c.tier) << "\" transform=\"translate(0," << y << ")\">"
        << "<text class=\"cluster\" x=\"0\" y=\"16\">" << escape(c.name) << "</text>";
    if (c.available)
        out << "<rect class=\"capacity\" x=\"" << label_width << "\" y=\"2\" height=\"20\" width=\""
            << width_of(*c.available, scale) << "\"><title>available: " << *c.available << "</title></rect>";
    const int w = std::max(width_of(c.replicas, scale), 2);
    out << "<rect class=\"replicas\" x=\"" << label_width << "\" y=\"5\" height=\"14\" width=\"" << w
        << "\" fill=\"" << colour << "\"><title>" << escape(c.tier) << "</title></rect>"
        << "<text class=\"count\" x=\"" << label_width + w + 4 << "\" y=\"16\">" << c.replicas << "</text>";
    if (c.available)
        out << "<text class=\"avail\" x=\"" << label_width + bar_width + 8 << "\" y=\"16\">of " << *c.available
            << "</text>";
    out << "</g>";
}

void legend(std::ostream& out, const std::vector<std::string>& tiers, const placement& p)
{
    out << "<p class=\"legend\">";
    for (std::size_t i = 0; i < tiers.size(); ++i) {
        const auto uses = [&](const placed_cluster& c) { return c.tier == tiers[i]; };
        if (std::any_of(p.clusters.begin(), p.clusters.end(), uses))
            out << "<span><i style=\"background:" << colour_of(tiers, tiers[i]) << "\"></i>"
                << (tiers[i].empty() ? "(clusterAffinity)" : escape(tiers[i]))
                << (i == 0 ? " (primary)" : " (overflow)")
                << "</span>";
    }
    out << "</p>";
}

void one_row(std::ostream& out, const labelled_placement& row, std::int64_t scale)
{
    const placement& p = *row.where;
    out << "<div class=\"placement\" data-label=\"" << escape(row.label) << "\"><h4>" << escape(row.label) << "</h4>";
    if (!p.claimed)
        out << "<p class=\"state\">not claimed by any policy</p>";
    else if (!p.ignored.empty())
        out << "<p class=\"state\">" << escape(p.policy) << ": not scheduled by karmada-scheduler (" << escape(p.ignored)
            << ")</p>";
    else if (!p.scheduled)
        out << "<p class=\"state\">" << escape(p.policy) << ": <b class=\"bad\">unschedulable</b></p>";
    else
        out << "<p class=\"state\">" << escape(p.policy) << ": scheduled"
            << (p.affinity_name.empty() ? "" : " in group <b>" + escape(p.affinity_name) + "</b>") << "</p>";
    if (!p.skipped_groups.empty()) {
        out << "<div class=\"skipped\">" << (p.scheduled ? "groups skipped:" : "groups tried:") << "<ul>";
        for (const auto& g : p.skipped_groups)
            out << "<li>" << escape(g) << "</li>";
        out << "</ul></div>";
    }
    const auto tiers = tiers_of(p);
    const auto height = static_cast<int>(p.clusters.size()) * row_height;
    out << "<svg class=\"bars\" width=\"" << label_width + bar_width + 70 << "\" height=\"" << height << "\">";
    for (std::size_t i = 0; i < p.clusters.size(); ++i)
        bar(out, p.clusters[i], colour_of(tiers, p.clusters[i].tier), static_cast<int>(i) * row_height, scale);
    out << "</svg>";
    legend(out, tiers, p);
    out << "</div>";
}

} // namespace

std::string escape(std::string_view s)
{
    std::string out;
    out.reserve(s.size());
    for (char c : s) {
        switch (c) {
        case '&': out += "&amp;"; break;
        case '<': out += "&lt;"; break;
        case '>': out += "&gt;"; break;
        case '"': out += "&quot;"; break;
        case '\'': out += "&#39;"; break;
        default: out += c;
        }
    }
    return out;
}

void placement_rows(std::ostream& out, std::span<const labelled_placement> rows, std::int64_t replicas)
{
    const std::int64_t scale = scale_of(rows, replicas);
    out << "<div class=\"rows\">";
    for (const auto& row : rows)
        one_row(out, row, scale);
    out << "</div>";
}

} // namespace kpw::lint::html
