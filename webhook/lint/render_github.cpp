// SPDX-License-Identifier: Apache-2.0
// -o github: GitHub Actions workflow commands (::error / ::warning annotations on the diff), then a summary.
#include "lint/render.hpp"

#include <ostream>
#include <string>

namespace kpw::lint {
namespace {

// GitHub keeps only the first 10 error and 10 warning annotations of a step (REST "checks/runs").
constexpr int annotations_shown = 10;

// actions/toolkit packages/core/src/command.ts escapeData: the message after "::".
std::string escape_data(std::string_view s)
{
    std::string out;
    out.reserve(s.size());
    for (char c : s) {
        switch (c) {
        case '%': out += "%25"; break;
        case '\r': out += "%0D"; break;
        case '\n': out += "%0A"; break;
        default: out += c;
        }
    }
    return out;
}

// command.ts escapeProperty: property values additionally escape the separators ':' and ','.
std::string escape_property(std::string_view s)
{
    std::string out;
    out.reserve(s.size());
    for (char c : s) {
        switch (c) {
        case ':': out += "%3A"; break;
        case ',': out += "%2C"; break;
        default: out += escape_data(std::string_view(&c, 1));
        }
    }
    return out;
}

void annotate(std::ostream& out, std::string_view level, const std::string& file, position where,
              std::string_view title, std::string_view message)
{
    out << "::" << level << " file=" << escape_property(ci_path(file));
    if (where.known()) {
        out << ",line=" << where.line;
        if (where.column > 0)
            out << ",col=" << where.column;
    }
    out << ",title=" << escape_property(title) << "::" << escape_data(message) << '\n';
}

void annotate_policy(std::ostream& out, const policy_result& p)
{
    const std::string label = policy_label(p);
    for (const auto& e : p.errors)
        annotate(out, "error", p.file, e.where.known() ? e.where : p.start, e.id + " in " + label, e.str());
    for (const auto& w : p.warnings)
        annotate(out, "warning", p.file, w.where.known() ? w.where : p.start, w.id + " in " + label, w.str());
    for (const auto& s : p.scheduling) {
        if (!s.unschedulable())
            continue;
        std::string message = s.workload.kind + ' ' + s.workload.namespace_name + '/' + s.workload.name + " (" +
                              std::to_string(s.workload.replicas) + " replicas) is unschedulable";
        if (!s.message.empty())
            message += ": " + s.message;
        for (const auto& a : s.attempts)
            message += '\n' + a;
        annotate(out, "error", p.file, p.start, "unschedulable in " + label, message);
    }
}

} // namespace

void render_github(const report& r, std::ostream& out)
{
    int errors = 0, warnings = 0;
    for (const auto& e : r.file_errors) {
        annotate(out, "error", e.file, e.where, "invalid input", e.message);
        ++errors;
    }
    for (const auto& w : r.snapshot_warnings) {
        annotate(out, "warning", w.file, w.where, w.id, w.message);
        ++warnings;
    }
    for (const auto& p : r.results) {
        annotate_policy(out, p);
        errors += static_cast<int>(p.errors.size());
        warnings += static_cast<int>(p.warnings.size());
        for (const auto& s : p.scheduling)
            errors += s.unschedulable() ? 1 : 0;
    }
    // A plain log line, not a command: it is what a reader of the step log sees last.
    out << "karmada-policy-webhook lint: " << summary_line(r);
    if (errors > annotations_shown || warnings > annotations_shown)
        out << " (GitHub shows only the first " << annotations_shown << " error and " << annotations_shown
            << " warning annotations of a step: use -o sarif with code scanning for the full list)";
    out << '\n';
}

} // namespace kpw::lint
