// SPDX-License-Identifier: Apache-2.0
#include "lint/render.hpp"

#include <filesystem>
#include <system_error>

namespace kpw::lint {

namespace {
constexpr output_format formats[] = {
    {"text", "compiler-style lines file:line:column: error: field: message, then a summary", render_text},
    {"json", "the report as JSON: summary and one result per policy", render_json},
    {"junit", "JUnit XML: a testsuite per file, a testcase per policy (Jenkins, GitLab, Azure DevOps)", render_junit},
    {"sarif", "SARIF 2.1.0 for GitHub code scanning (upload with github/codeql-action/upload-sarif)", render_sarif},
    {"github", "GitHub Actions workflow commands (::error/::warning annotations), then a summary", render_github},
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

std::string ci_path(std::string_view file)
{
    namespace fs = std::filesystem;
    if (file.empty() || file == "<stdin>")
        return std::string(file);
    fs::path p = fs::path(file).lexically_normal();
    if (p.is_absolute()) {
        std::error_code ec;
        const fs::path cwd = fs::current_path(ec);
        const fs::path rel = ec ? fs::path() : p.lexically_relative(cwd);
        // Only inside the working directory does a relative name stay meaningful to the CI host.
        if (!rel.empty() && *rel.begin() != "..")
            p = rel;
    }
    std::string out = p.generic_string();
    if (out.empty() || out == ".")
        return std::string(file);
    return out;
}

std::string policy_label(const policy_result& p)
{
    return p.kind + ' ' + (p.namespace_name.empty() ? "" : p.namespace_name + '/') + p.name;
}

std::string summary_line(const report& r)
{
    const summary& t = r.totals;
    std::string line = std::to_string(t.documents) + " documents, " + std::to_string(t.policies) + " policies, " +
                       std::to_string(t.denied) + " denied, " + std::to_string(t.warnings) + " warnings, " +
                       std::to_string(t.unschedulable) + " unschedulable, " + std::to_string(t.skipped) + " skipped";
    if (t.not_predicted > 0)
        line += ", " + std::to_string(t.not_predicted) + " bindings not predicted (their policy is not among the inputs)";
    if (!r.file_errors.empty())
        line += ", " + std::to_string(r.file_errors.size()) + " unreadable";
    return line;
}

} // namespace kpw::lint
