// SPDX-License-Identifier: Apache-2.0
// -o sarif: the output parsed as JSON and checked against what GitHub code scanning requires.
#include <algorithm>
#include <set>
#include <sstream>
#include <string>

#include <doctest/doctest.h>

#include "doc/load.hpp"
#include "lint/render.hpp"
#include "rules/catalogue.hpp"
#include "render_test_support.hpp"

using kpw::doc::value;

namespace {

value parse(const std::string& text)
{
    auto parsed = kpw::doc::parse_json(text);
    REQUIRE_MESSAGE(parsed.ok(), text);
    return *parsed;
}

value rendered(const kpw::lint::report& r)
{
    std::ostringstream out;
    kpw::lint::render_sarif(r, out);
    return parse(out.str());
}

const value& run_of(const value& root)
{
    const value* runs = root.find("runs");
    REQUIRE(runs);
    REQUIRE(runs->items().size() == 1);
    return runs->items()[0];
}

const value& physical(const value& result)
{
    const value* p = result.find("locations");
    REQUIRE(p);
    REQUIRE(p->items().size() == 1);
    const value* loc = p->items()[0].find("physicalLocation");
    REQUIRE(loc);
    return *loc;
}

std::string uri(const value& result) { return std::string(physical(result).find_path({"artifactLocation", "uri"})->text()); }

// {startLine, startColumn}; {0, 0} when there is no region.
std::pair<std::int64_t, std::int64_t> region(const value& result)
{
    const value* r = physical(result).find("region");
    if (!r)
        return {0, 0};
    const value* col = r->find("startColumn");
    return {r->find("startLine")->as_int(), col ? col->as_int() : 0};
}

// Every result's ruleId names a rule of the driver, and ruleIndex points at it; rules are unique.
void check_rules(const value& run)
{
    const value* rules = run.find_path({"tool", "driver", "rules"});
    REQUIRE(rules);
    std::set<std::string> ids;
    for (const value& rule : rules->items()) {
        CHECK(ids.insert(rule.find("id")->text()).second);
        for (const char* key : {"shortDescription", "fullDescription", "help"})
            CHECK(!rule.find_path({key, "text"})->text().empty());
    }
    for (const value& r : run.find("results")->items()) {
        const auto index = static_cast<std::size_t>(r.find("ruleIndex")->as_int());
        REQUIRE(index < rules->items().size());
        CHECK(rules->items()[index].find("id")->text() == r.find("ruleId")->text());
    }
}

} // namespace

TEST_CASE("the log has the schema, version and a driver GitHub accepts")
{
    const value root = rendered(kpw::test::sample_report());
    CHECK(root.string_at("$schema") == "https://json.schemastore.org/sarif-2.1.0.json");
    CHECK(root.string_at("version") == "2.1.0");
    const value& driver = *run_of(root).find_path({"tool", "driver"});
    CHECK(driver.string_at("name") == "karmada-policy-webhook");
    CHECK(!driver.string_at("version").empty());
    check_rules(run_of(root));
}

TEST_CASE("results sit at the offending field, or the policy start, never an invented line 1")
{
    const value root = rendered(kpw::test::sample_report());
    const value& run = run_of(root);
    const auto& results = run.find("results")->items();
    REQUIRE(results.size() == 6); // broken.yaml (positioned) + 3 errors + 1 warning + 1 unschedulable
    CHECK(results[0].string_at("ruleId") == "invalid-input");
    CHECK(uri(results[0]) == "policies/broken.yaml");
    CHECK(region(results[0]) == std::pair<std::int64_t, std::int64_t>{2, 1});

    CHECK(results[1].string_at("ruleId") == "FieldValueInvalid");
    CHECK(results[1].string_at("level") == "error");
    CHECK(uri(results[1]) == "policies/shop.yaml"); // no leading "./"
    CHECK(region(results[1]) == std::pair<std::int64_t, std::int64_t>{14, 23});
    CHECK(results[1].find_path({"message", "text"})->text() ==
          "PropagationPolicy shop/web: spec.placement.clusterAffinities[1].affinityName: Invalid value: \"primary\": "
          "each affinity term in a policy must have a unique name");

    CHECK(results[2].string_at("ruleId") == "FieldValueRequired");
    CHECK(region(results[2]) == std::pair<std::int64_t, std::int64_t>{3, 1});
    CHECK(results[3].string_at("ruleId") == "overflow-cluster-repeated");
    CHECK(results[3].string_at("level") == "warning");
    CHECK(region(results[3]) == std::pair<std::int64_t, std::int64_t>{20, 9});
    CHECK(results[4].string_at("ruleId") == "unschedulable");
    CHECK(region(results[4]) == std::pair<std::int64_t, std::int64_t>{30, 1});
    CHECK(uri(results[5]) == "policies/odd%2C%20name%3A%25.yaml");
    CHECK(results[5].find_path({"message", "text"})->text() == "PropagationPolicy shop/odd: metadata.name: " +
                                                                   kpw::test::hostile_text);
    check_rules(run);
    CHECK(run.find_path({"tool", "driver", "rules"})->items().size() == 5);
}

TEST_CASE("rule texts come from the validation rules' catalogue")
{
    const value root = rendered(kpw::test::sample_report());
    const auto& rules = run_of(root).find_path({"tool", "driver", "rules"})->items();
    for (const char* id : {"FieldValueInvalid", "overflow-cluster-repeated"}) {
        const auto* entry = kpw::rules::find_catalogue_entry(id);
        REQUIRE(entry);
        const auto it = std::find_if(rules.begin(), rules.end(), [&](const value& r) { return r.string_at("id") == id; });
        REQUIRE(it != rules.end());
        CHECK(it->find_path({"shortDescription", "text"})->text() == entry->summary);
        CHECK(it->find_path({"defaultConfiguration", "level"})->text() == (entry->is_error ? "error" : "warning"));
    }
}

TEST_CASE("input without a position is a tool notification and marks the run unsuccessful")
{
    const value root = rendered(kpw::test::sample_report());
    const value& run = run_of(root);
    const auto& invocations = run.find("invocations")->items();
    REQUIRE(invocations.size() == 1);
    CHECK(invocations[0].find("executionSuccessful")->as_bool() == false);
    const auto& notes = invocations[0].find("toolExecutionNotifications")->items();
    REQUIRE(notes.size() == 2);
    CHECK(uri(notes[1]) == "missing.yaml");
    CHECK(physical(notes[1]).find("region") == nullptr);
}

TEST_CASE("an empty report still has a results array and no rules")
{
    const value root = rendered({});
    const value& run = run_of(root);
    REQUIRE(run.find("results"));
    CHECK(run.find("results")->is_sequence());
    CHECK(run.find("results")->items().empty());
    CHECK(run.find_path({"tool", "driver", "rules"})->items().empty());
    CHECK(run.find("invocations")->items()[0].find("executionSuccessful")->as_bool());
}

TEST_CASE("absolute paths outside the working directory become file URIs")
{
    kpw::lint::report r;
    r.file_errors.push_back({"/nonexistent-root-dir/a b.yaml", {1, 2}, "bad"});
    const value root = rendered(r);
    const value& run = run_of(root);
    CHECK(uri(run.find("results")->items()[0]) == "file:///nonexistent-root-dir/a%20b.yaml");
}

TEST_CASE("end to end: one result per finding of the JSON report, at the same line and column")
{
    const kpw::test::lint_workspace ws;
    const value json = ws.json_report();
    const auto r = ws.lint("sarif");
    CHECK(r.exit_code == 2);
    const value root = parse(r.out);
    const value& run = run_of(root);
    check_rules(run);
    const auto& results = run.find("results")->items();
    REQUIRE(!results.empty());
    CHECK(uri(results[0]) == "policies/broken.yaml");
    CHECK(region(results[0]) == std::pair<std::int64_t, std::int64_t>{2, 1});

    std::size_t i = 1;
    for (const auto& policy : json.find("results")->items())
        for (const char* key : {"errors", "warnings"})
            for (const auto& f : policy.find(key)->items()) {
                REQUIRE(i < results.size());
                const value& s = results[i++];
                CHECK(uri(s) == policy.string_at("file"));
                CHECK(s.string_at("ruleId") == f.string_at(key == std::string("errors") ? "reason" : "id"));
                const value* line = f.find("line");
                CHECK(region(s).first == (line ? line->as_int() : policy.find("line")->as_int()));
                CHECK(region(s).first > 0);
            }
    CHECK(results.size() == i);
}

TEST_CASE("a strict decoding error is a BadRequest result with the API server's text and its own rule")
{
    kpw::lint::report r;
    kpw::lint::policy_result p;
    p.file = "p.yaml";
    p.start = {1, 1};
    p.kind = "PropagationPolicy";
    p.namespace_name = "shop";
    p.name = "web";
    p.allowed = false;
    const std::string text = "PropagationPolicy in version \"v1alpha1\" cannot be handled as a PropagationPolicy: "
                             "strict decoding error: unknown field \"spec.propagatDeps\"";
    p.errors.push_back({"BadRequest", "spec.propagatDeps", text, {11, 3}, true});
    r.results.push_back(p);
    const value root = rendered(r);
    const value& run = run_of(root);
    const auto& results = run.find("results")->items();
    REQUIRE(results.size() == 1);
    CHECK(results[0].string_at("ruleId") == "BadRequest");
    CHECK(results[0].string_at("level") == "error");
    CHECK(region(results[0]) == std::pair<std::int64_t, std::int64_t>{11, 3});
    // The message names the field itself: no "<field>: " prefix before it.
    CHECK(results[0].find_path({"message", "text"})->text() == "PropagationPolicy shop/web: " + text);
    const value& rule = run.find_path({"tool", "driver", "rules"})->items().at(0);
    CHECK(rule.find_path({"fullDescription", "text"})->text().find("The API server refuses the policy") !=
          std::string::npos);
    check_rules(run);
}
