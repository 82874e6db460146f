// SPDX-License-Identifier: Apache-2.0
// Output formats of `lint -o`: one report model, one renderer file per format.
#pragma once

#include <iosfwd>
#include <span>
#include <string_view>

#include "lint/report.hpp"

namespace kpw::lint {

struct output_format {
    std::string_view name;
    std::string_view description;
    void (*render)(const report&, std::ostream&);
};

// Every format lint knows, in the order --help lists them.
std::span<const output_format> output_formats();
const output_format* find_output_format(std::string_view name);

void render_text(const report& r, std::ostream& out);
void render_json(const report& r, std::ostream& out);

} // namespace kpw::lint
