// SPDX-License-Identifier: Apache-2.0
// Errors Karmada reports on a list or map because of one element sit on that element, in every format.
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "support/lint_run.hpp"

using kpw::test::json_of;
using kpw::test::run_lint;

namespace {

const std::string cases = std::string(KPW_TEST_DATA) + "/lint/cases/";

struct located {
    std::string field;
    std::int64_t line = 0, column = 0;
};

// The findings of one JSON list ("errors" or "warnings") with their positions.
std::vector<located> json_errors(const std::string& file, const char* list = "errors")
{
    std::vector<located> out;
    auto v = json_of(run_lint({"-o", "json", file}).out);
    for (const auto& r : v.find("results")->items())
        for (const auto& e : r.find(list)->items())
            out.push_back({std::string(e.string_at("field")), e.find("line")->as_int(), e.find("column")->as_int()});
    return out;
}

std::int64_t column_of(const std::vector<located>& errors, std::string_view field, std::int64_t line)
{
    for (const auto& e : errors)
        if (e.field == field && e.line == line)
            return e.column;
    return 0;
}

bool sarif_has(const kpw::doc::value& sarif, const located& e)
{
    for (const auto& res : sarif.find("runs")->items()[0].find("results")->items()) {
        const auto* region = res.find("locations")->items()[0].find_path({"physicalLocation", "region"});
        if (region && region->find("startLine")->as_int() == e.line &&
            region->find("startColumn")->as_int() == e.column &&
            res.find_path({"message", "text"})->text().find(e.field + ": ") != std::string::npos)
            return true;
    }
    return false;
}

} // namespace

TEST_CASE("a duplicated affinityName points at the later duplicate's name, not at clusterAffinities")
{
    const auto errors = json_errors(cases + "duplicate-names.yaml");
    CHECK(column_of(errors, "spec.placement.clusterAffinities", 18) == 23);
}

TEST_CASE("list-level errors point at the element: spread constraints, labels, finalizers, names, suspension")
{
    const auto errors = json_errors(cases + "list-element-positions.yaml");
    CHECK(column_of(errors, "spec.placement.spreadConstraints[0]", 15) == 24); // spreadByLabel's value
    CHECK(column_of(errors, "spec.placement.spreadConstraints[1]", 18) == 20); // maxGroups's value
    CHECK(column_of(errors, "metadata.labels", 26) == 5);                      // the bad key itself
    CHECK(column_of(errors, "metadata.labels", 27) == 10);                     // the bad value
    CHECK(column_of(errors, "metadata.annotations", 29) == 5);
    CHECK(column_of(errors, "metadata.finalizers", 33) == 7);                  // the second of the pair
    // Karmada's webhook error behind the schema's (denied-after-schema) keeps the error's position.
    CHECK(column_of(json_errors(cases + "list-element-positions.yaml", "warnings"),
                    "spec.placement.clusterAffinities[0].affinityName",
                    41) == 23); // the affinityName value
    CHECK(column_of(errors, "spec.suspension.suspension", 57) == 7);
    CHECK(column_of(errors, "spec.placement.workloadAffinity", 63) == 26);
}

TEST_CASE("text, junit, sarif and github carry the JSON report's line and column for every such error")
{
    for (const std::string name : {"duplicate-names.yaml", "list-element-positions.yaml", "spread-constraints.yaml"}) {
        CAPTURE(name);
        const std::string file = cases + name;
        const auto errors = json_errors(file);
        REQUIRE_FALSE(errors.empty());
        const auto text = run_lint({file}).out;
        const auto junit = run_lint({"-o", "junit", file}).out;
        const auto github = run_lint({"-o", "github", file}).out;
        const auto sarif = json_of(run_lint({"-o", "sarif", file}).out);
        for (const auto& e : errors) {
            CAPTURE(e.field);
            const std::string at = std::to_string(e.line) + ':' + std::to_string(e.column);
            CHECK(text.find(":" + at + ": error: " + e.field + ": ") != std::string::npos);
            CHECK(junit.find(":" + at + ": " + e.field + ": ") != std::string::npos);
            CHECK(github.find(",line=" + std::to_string(e.line) + ",col=" + std::to_string(e.column) + ",") !=
                  std::string::npos);
            CHECK(sarif_has(sarif, e));
        }
    }
}
