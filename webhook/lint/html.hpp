// SPDX-License-Identifier: Apache-2.0
// Pieces of the HTML report (--report): escaping and the placement bars, shared by its sections.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <span>
#include <string>
#include <string_view>

#include "lint/diff.hpp"

namespace kpw::lint::html {

// Text or attribute value from the input: & < > " ' as entities.
std::string escape(std::string_view s);

// One placement with what it is: "after", "before", or (a simulate drill) one step's label.
struct labelled_placement {
    std::string label;
    const placement* where = nullptr;
};

// A row per labelled placement, side by side: the group chosen, the groups skipped and why, and an SVG
// with one bar per cluster (replicas coloured by tier over the cluster's available capacity).
// `replicas` is the workload's desired count (the bars' common scale starts there).
void placement_rows(std::ostream& out, std::span<const labelled_placement> rows, std::int64_t replicas);

} // namespace kpw::lint::html
