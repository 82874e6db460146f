// SPDX-License-Identifier: Apache-2.0
// Test helpers: YAML policy snippets -> verdicts, and (reason, field) matching like apimachinery's ErrorMatcher.
#pragma once

#include <sstream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <doctest/doctest.h>

#include "doc/load.hpp"
#include "validate.hpp"

namespace kpw::testing {

// (reason wire name, field path)
using finding = std::pair<std::string, std::string>;

// Parses one YAML document; fails the test on a parse error.
inline doc::value parse(std::string_view yaml)
{
    auto docs = doc::load_yaml(yaml);
    REQUIRE_MESSAGE(docs.ok(), (docs.ok() ? "" : docs.error().message));
    REQUIRE(docs->size() == 1);
    return docs->front().root;
}

// A PropagationPolicy "p" in "default" selecting Deployment nginx (unless the snippet has its own
// resourceSelectors), with `spec_tail` (YAML at spec
// level, unindented) appended to its spec.
inline std::string policy_yaml(std::string_view spec_tail, std::string_view kind = "PropagationPolicy")
{
    std::string out = "apiVersion: policy.karmada.io/v1alpha1\nkind: " + std::string(kind) +
                      "\nmetadata:\n  name: p\n  namespace: default\nspec:\n";
    // The default selector, unless the snippet brings its own.
    if (!spec_tail.starts_with("resourceSelectors:") && spec_tail.find("\nresourceSelectors:") == std::string_view::npos)
        out += "  resourceSelectors:\n    - apiVersion: apps/v1\n      kind: Deployment\n      name: nginx\n";
    std::istringstream lines{std::string(spec_tail)};
    for (std::string line; std::getline(lines, line);)
        out.append("  ").append(line).append("\n");
    return out;
}

inline manifest_verdict lint(std::string_view yaml, validation_options opts = {})
{
    const doc::value v = parse(yaml);
    auto kind = policy_kind_of(v.string_at("apiVersion"), v.string_at("kind"));
    REQUIRE(kind.has_value());
    return validate_manifest(*kind, v, "default", opts);
}

inline manifest_verdict lint_spec(std::string_view spec_tail, validation_options opts = {})
{
    return lint(policy_yaml(spec_tail), opts);
}

// A PP object as the validating webhook receives it (JSON), `spec_json` being the spec's members
// (a default selector is added unless they include resourceSelectors).
inline std::string admission_json(std::string_view spec_json, std::string_view kind = "PropagationPolicy")
{
    const bool pp = kind == "PropagationPolicy";
    return std::string(R"({"apiVersion":"policy.karmada.io/v1alpha1","kind":")") + std::string(kind) +
           R"(","metadata":{"name":"p",)" + (pp ? R"("namespace":"default",)" : "") + R"("labels":{")" +
           (pp ? "propagationpolicy" : "clusterpropagationpolicy") +
           R"(.karmada.io/permanent-id":"1"}},"spec":{)" +
           (spec_json.find("\"resourceSelectors\"") != std::string_view::npos
                ? std::string(spec_json)
                : R"("resourceSelectors":[{"apiVersion":"apps/v1","kind":"Deployment","namespace":")" +
                      std::string(pp ? "default" : "") + R"(","name":"nginx"}])" + (spec_json.empty() ? "" : ",") +
                      std::string(spec_json)) +
           "}}";
}

inline doc::value parse_json(std::string_view json)
{
    auto v = doc::parse_json(json);
    REQUIRE_MESSAGE(v.ok(), (v.ok() ? "" : v.error().message));
    return *v;
}

inline admission_verdict admit_spec(std::string_view spec_json, validation_options opts = {})
{
    return validate_admission(policy_kind::propagation_policy, admission_operation::create,
                              parse_json(admission_json(spec_json)), nullptr, "default", true, opts);
}

inline std::vector<finding> findings(const field::error_list& errs)
{
    std::vector<finding> out;
    for (const auto& e : errs)
        out.emplace_back(std::string(field::wire_name(e.type)), e.field);
    return out;
}

inline std::vector<std::string> warning_ids(const field::warning_list& ws)
{
    std::vector<std::string> out;
    for (const auto& w : ws)
        out.push_back(w.id);
    return out;
}

} // namespace kpw::testing

namespace doctest {
template <>
struct StringMaker<kpw::testing::finding> {
    static String convert(const kpw::testing::finding& f) { return (f.first + " " + f.second).c_str(); }
};
template <class T>
struct StringMaker<std::vector<T>> {
    static String convert(const std::vector<T>& v)
    {
        String s = "{";
        for (const auto& x : v)
            s += StringMaker<T>::convert(x) + "; ";
        return s + "}";
    }
};
} // namespace doctest
