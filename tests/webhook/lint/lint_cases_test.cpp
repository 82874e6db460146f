// SPDX-License-Identifier: Apache-2.0
// Lint fixture cases with expectations written inside the input, clang -verify style:
//   a comment "# expect-error <Reason> <field>" (or "expect-warning <id> <field>") on the line the
//   finding must point at ("-" for an empty reason or field); "# expect-no-diagnostics" for a file that must lint clean;
//   "# lint-validate: warn|ignore" lints the file with that --validate (strict otherwise).
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "lint/lint.hpp"

namespace fs = std::filesystem;
using namespace kpw;

namespace {

struct expectation {
    std::string severity, id, field;
    int line = 0;
    friend bool operator<(const expectation& a, const expectation& b)
    {
        return std::tie(a.line, a.severity, a.id, a.field) < std::tie(b.line, b.severity, b.id, b.field);
    }
    friend bool operator==(const expectation&, const expectation&) = default;
};

std::string str(const expectation& e)
{
    return std::to_string(e.line) + ": " + e.severity + " " + e.id + " " + e.field;
}

std::vector<expectation> parse_expectations(const std::string& text, bool& no_diagnostics)
{
    std::vector<expectation> out;
    std::istringstream in(text);
    std::string line;
    for (int n = 1; std::getline(in, line); ++n) {
        no_diagnostics = no_diagnostics || line.find("expect-no-diagnostics") != std::string::npos;
        const auto hash = line.find('#');
        if (hash == std::string::npos)
            continue;
        std::istringstream words(line.substr(hash + 1));
        for (std::string w; words >> w;) {
            if (w != "expect-error" && w != "expect-warning")
                continue;
            expectation e{w == "expect-error" ? "error" : "warning", {}, {}, n};
            words >> e.id >> e.field;
            // "-" for an empty reason or field (Karmada's mutating webhook refusing to decode: neither)
            for (std::string* part : {&e.id, &e.field})
                if (*part == "-")
                    part->clear();
            out.push_back(e);
        }
    }
    std::sort(out.begin(), out.end());
    return out;
}

std::vector<expectation> actual_findings(const lint::report& r)
{
    std::vector<expectation> out;
    for (const auto& p : r.results) {
        for (const auto& e : p.errors)
            out.push_back({"error", e.id, e.field, e.where.line});
        for (const auto& w : p.warnings)
            out.push_back({"warning", w.id, w.field, w.where.line});
    }
    std::sort(out.begin(), out.end());
    return out;
}

// "# lint-validate: MODE" anywhere in the file: the --validate the case is linted with.
kpw::schema::field_validation validate_mode(const std::string& text)
{
    constexpr std::string_view directive = "# lint-validate: ";
    const auto at = text.find(directive);
    if (at == std::string::npos)
        return kpw::schema::field_validation::strict;
    const auto start = at + directive.size();
    const auto mode = kpw::schema::parse_field_validation(text.substr(start, text.find('\n', start) - start));
    REQUIRE_MESSAGE(mode.has_value(), "lint-validate takes strict, warn or ignore");
    return *mode;
}

std::string listing(const std::vector<expectation>& v)
{
    std::string s;
    for (const auto& e : v)
        s += "\n  " + str(e);
    return s.empty() ? "\n  (none)" : s;
}

} // namespace

TEST_CASE("every lint case file reports exactly the findings written into it, on the lines that carry them")
{
    const fs::path dir = fs::path(KPW_TEST_DATA) / "lint" / "cases";
    std::vector<fs::path> files;
    for (const auto& entry : fs::directory_iterator(dir))
        files.push_back(entry.path());
    std::sort(files.begin(), files.end());
    REQUIRE(files.size() >= 10);

    for (const auto& file : files) {
        CAPTURE(file.filename().string());
        std::ifstream in(file);
        std::stringstream text;
        text << in.rdbuf();
        bool no_diagnostics = false;
        const auto expected = parse_expectations(text.str(), no_diagnostics);
        CHECK_MESSAGE((no_diagnostics || !expected.empty()), "a case must expect something");

        lint::input_set inputs;
        inputs.files.push_back({file.string(), text.str()});
        lint::lint_options options;
        options.field_validation = validate_mode(text.str());
        const lint::report r = lint::run_lint(inputs, options);
        REQUIRE(r.file_errors.empty());
        const auto actual = actual_findings(r);
        CHECK_MESSAGE(actual == expected, "expected:" << listing(expected) << "\nactual:" << listing(actual));
    }
}

TEST_CASE("--allow-aggregated-overflow admits Divided + Aggregated overflow")
{
    const fs::path file = fs::path(KPW_TEST_DATA) / "lint" / "cases" / "overflow-aggregated.yaml";
    std::ifstream in(file);
    std::stringstream text;
    text << in.rdbuf();
    lint::input_set inputs;
    inputs.files.push_back({file.string(), text.str()});
    lint::lint_options options;
    CHECK(lint::run_lint(inputs, options).totals.denied == 1);
    options.validation.allow_aggregated_overflow = true;
    CHECK(lint::run_lint(inputs, options).totals.denied == 0);
}
