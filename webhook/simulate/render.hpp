// SPDX-License-Identifier: Apache-2.0
// Output of `simulate -o text|json`: one drill, step by step.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

#include "simulate/engine.hpp"

namespace kpw::simulate_cli {

// What the run assumed and read, printed ahead of the steps.
struct drill_header {
    std::string scenario_file;
    std::string scenario_name;
    std::vector<std::string> settings; // "Failover=false (binary default)", "--graceful-eviction-timeout=10m0s", ...
};

void render_text(const drill_header& h, const simulate::drill& d, std::ostream& out);
void render_json(const drill_header& h, const simulate::drill& d, std::ostream& out);

} // namespace kpw::simulate_cli
