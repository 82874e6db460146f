// SPDX-License-Identifier: Apache-2.0
#include "lint/render.hpp"

namespace kpw::lint {

namespace {
constexpr output_format formats[] = {
    {"text", "compiler-style lines file:line:column: error: field: message, then a summary", render_text},
    {"json", "the report as JSON: summary and one result per policy", render_json},
};
} // namespace

std::span<const output_format> output_formats() { return formats; }

const output_format* find_output_format(std::string_view name)
{
    for (const auto& f : formats)
        if (f.name == name)
            return &f;
    return nullptr;
}

} // namespace kpw::lint
