// SPDX-License-Identifier: Apache-2.0
#include "lint/render.hpp"

#include <cctype>
#include <filesystem>
#include <system_error>

namespace kpw::lint {

namespace {
constexpr output_format formats[] = {
    {"text", "compiler-style lines file:line:column: error: field: message, then a summary", render_text_with_plan},
    {"json", "the report as JSON: summary and one result per policy", render_json},
    {"junit", "JUnit XML: a testsuite per file, a testcase per policy (Jenkins, GitLab, Azure DevOps)", render_junit},
    {"sarif", "SARIF 2.1.0 for GitHub code scanning (upload with github/codeql-action/upload-sarif)", render_sarif},
    {"github", "GitHub Actions workflow commands (::error/::warning annotations), then a summary", render_github},
    {"markdown", "GitHub-flavoured Markdown for $GITHUB_STEP_SUMMARY and PR comments", render_markdown},
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

std::string source_link(const std::string& link_base, const std::string& file, int line)
{
    if (link_base.empty() || file.empty() || file == "<stdin>")
        return "";
    static constexpr char hex[] = "0123456789ABCDEF";
    std::string url = link_base;
    if (url.back() != '/')
        url += '/';
    for (unsigned char c : ci_path(file)) {
        const bool plain = std::isalnum(c) || c == '/' || c == '-' || c == '_' || c == '.' || c == '~';
        if (plain)
            url += static_cast<char>(c);
        else
            url.append({'%', hex[c >> 4], hex[c & 15]});
    }
    if (line > 0)
        url += "#L" + std::to_string(line);
    return url;
}

std::string line_suffix(position where)
{
    std::string out;
    if (where.known())
        out.append(":").append(std::to_string(where.line));
    return out;
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
