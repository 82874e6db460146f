// SPDX-License-Identifier: Apache-2.0
// Fuzz target (2): YAML/JSON bytes -> document loaders -> validate_manifest -> lint report (text and JSON).
#include <sstream>

#include "doc/load.hpp"
#include "lint/lint.hpp"
#include "lint/render.hpp"
#include "targets.hpp"

namespace kpw::fuzz {
namespace {

constexpr std::string_view name = "manifest";

// lint as the CLI runs it on one file, rendered in every -o format; JSON and SARIF must be valid JSON.
void lint_as_file(std::string_view text)
{
    lint::input_set inputs;
    inputs.files.push_back({"fuzz.yaml", std::string(text)});
    const lint::report r = lint::run_lint(inputs, {});
    if (r.totals.policies != static_cast<int>(r.results.size()))
        invariant_failed(name, "summary.policies does not count the results");
    std::ostringstream text_out, json_out, sarif_out, junit_out, github_out;
    lint::render_text(r, text_out);
    lint::render_json(r, json_out);
    lint::render_sarif(r, sarif_out);
    lint::render_junit(r, junit_out);
    lint::render_github(r, github_out);
    if (auto parsed = doc::parse_json(json_out.str()); !parsed)
        invariant_failed(name, "lint -o json is not valid JSON: " + parsed.error().message);
    if (auto parsed = doc::parse_json(sarif_out.str()); !parsed)
        invariant_failed(name, "lint -o sarif is not valid JSON: " + parsed.error().message);
    (void)lint::exit_code(r);
}

// The JSON loader as serve uses it: whatever it accepts must survive to_json -> parse_json unchanged,
// and a policy object goes through the same front door lint uses.
void load_as_json(std::string_view text)
{
    auto parsed = doc::parse_json(text);
    if (!parsed)
        return;
    const std::string again = doc::to_json(*parsed);
    auto reparsed = doc::parse_json(again);
    if (!reparsed || !(*reparsed == *parsed))
        invariant_failed(name, "to_json(parse_json(x)) does not parse back to the same tree");
    if (!parsed->is_mapping())
        return;
    auto kind = policy_kind_of(parsed->string_at("apiVersion"), parsed->string_at("kind"));
    // Objects of other kinds are judged as a PropagationPolicy too: the rules must cope with anything.
    const manifest_verdict v = validate_manifest(kind.value_or(policy_kind::propagation_policy), *parsed, "default", {});
    (void)doc::to_json(v.defaulted);
}

} // namespace

int manifest(bytes data)
{
    const std::string_view text = as_text(data);
    lint_as_file(text);
    load_as_json(text);
    return 0;
}

} // namespace kpw::fuzz
