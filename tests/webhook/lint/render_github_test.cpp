// SPDX-License-Identifier: Apache-2.0
// -o github: workflow commands parsed back (toolkit escaping undone) and checked for positions and counts.
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "lint/render.hpp"
#include "render_test_support.hpp"

namespace {

struct command {
    std::string level;
    std::map<std::string, std::string> props;
    std::string message;
};

// Reverses actions/toolkit escapeData / escapeProperty.
std::string unescape(std::string_view s)
{
    std::string out;
    for (std::size_t i = 0; i < s.size(); ++i) {
        if (s[i] == '%' && i + 2 < s.size()) {
            const std::string code(s.substr(i, 3));
            const char c = code == "%25" ? '%' : code == "%0D" ? '\r' : code == "%0A" ? '\n' : code == "%3A" ? ':'
                         : code == "%2C" ? ',' : '\0';
            REQUIRE_MESSAGE(c != '\0', "unknown escape " << code);
            out += c;
            i += 2;
        } else {
            out += s[i];
        }
    }
    return out;
}

// "::level k=v,k=v::message" as the runner splits it: properties end at the first "::", split on ','.
command parse_command(const std::string& line)
{
    REQUIRE(line.starts_with("::"));
    const auto space = line.find(' ');
    const auto end = line.find("::", 2);
    REQUIRE(space < end);
    command c{line.substr(2, space - 2), {}, unescape(line.substr(end + 2))};
    std::istringstream props(line.substr(space + 1, end - space - 1));
    for (std::string kv; std::getline(props, kv, ',');) {
        const auto eq = kv.find('=');
        REQUIRE(eq != std::string::npos);
        CHECK(c.props.count(kv.substr(0, eq)) == 0);
        c.props[kv.substr(0, eq)] = unescape(kv.substr(eq + 1));
    }
    return c;
}

std::vector<std::string> lines_of(const std::string& text)
{
    std::vector<std::string> lines;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);)
        lines.push_back(line);
    return lines;
}

std::vector<command> commands_of(const std::vector<std::string>& lines)
{
    std::vector<command> out;
    for (const auto& l : lines)
        if (l.starts_with("::"))
            out.push_back(parse_command(l));
    return out;
}

std::string rendered(const kpw::lint::report& r)
{
    std::ostringstream out;
    kpw::lint::render_github(r, out);
    return out.str();
}

} // namespace

TEST_CASE("every finding is one annotation at its own line and column, the policy start when it has none")
{
    const auto lines = lines_of(rendered(kpw::test::sample_report()));
    const auto cmds = commands_of(lines);
    REQUIRE(cmds.size() == 7); // 2 file errors + 3 errors + 1 warning + 1 unschedulable
    CHECK(lines.size() == cmds.size() + 1);

    CHECK(cmds[0].props == std::map<std::string, std::string>{
                               {"file", "policies/broken.yaml"}, {"line", "2"}, {"col", "1"}, {"title", "invalid input"}});
    CHECK(cmds[1].props.count("line") == 0); // no position: no invented line 1
    CHECK(cmds[1].props.at("file") == "missing.yaml");

    const command& invalid = cmds[2];
    CHECK(invalid.level == "error");
    CHECK(invalid.props.at("file") == "policies/shop.yaml"); // "./" dropped
    CHECK(invalid.props.at("line") == "14");
    CHECK(invalid.props.at("col") == "23");
    CHECK(invalid.props.at("title") == "FieldValueInvalid in PropagationPolicy shop/web");
    CHECK(invalid.message.starts_with("spec.placement.clusterAffinities[1].affinityName: Invalid value: \"primary\""));

    CHECK(cmds[3].props.at("line") == "3"); // Required without a position -> the policy's first line
    CHECK(cmds[3].props.at("col") == "1");
    CHECK(cmds[4].level == "warning");
    CHECK(cmds[4].props.at("line") == "20");
    CHECK(cmds[4].props.at("title") == "overflow-cluster-repeated in PropagationPolicy shop/web");
    CHECK(cmds[5].props.at("title") == "unschedulable in ClusterPropagationPolicy all");
    CHECK(cmds[5].props.at("line") == "30");
    CHECK(cmds[5].message.find("Deployment shop/web (3 replicas) is unschedulable: 0/2 clusters") != std::string::npos);
}

TEST_CASE("properties and messages are escaped exactly like actions/toolkit")
{
    const std::string out = rendered(kpw::test::sample_report());
    CHECK(out.find("::error file=policies/odd%2C name%3A%25.yaml,line=5,col=7,title=FieldValueInvalid in "
                   "PropagationPolicy shop/odd::metadata.name: 100%25 sure: a, b <&> \"q\" 'x'%0D%0Anext ]]> line\n") !=
          std::string::npos);
    const auto cmds = commands_of(lines_of(out));
    CHECK(cmds[6].props.at("file") == "policies/odd, name:%.yaml");
    CHECK(cmds[6].message == "metadata.name: " + kpw::test::hostile_text);
}

TEST_CASE("the last line is the summary and says when annotations overflow GitHub's limit of 10")
{
    auto r = kpw::test::sample_report();
    auto lines = lines_of(rendered(r));
    CHECK(lines.back() == "karmada-policy-webhook lint: 4 documents, 3 policies, 2 denied, 1 warnings, 1 unschedulable, "
                          "1 skipped, 2 unreadable");
    for (int i = 0; i < 6; ++i)
        r.results.push_back(r.results.front());
    lines = lines_of(rendered(r));
    CHECK(lines.back().find("use -o sarif") != std::string::npos);
}

TEST_CASE("an empty report is only the summary line")
{
    CHECK(rendered({}) == "karmada-policy-webhook lint: 0 documents, 0 policies, 0 denied, 0 warnings, 0 unschedulable, "
                         "0 skipped\n");
}

TEST_CASE("ci paths are repository-relative with forward slashes")
{
    using kpw::lint::ci_path;
    CHECK(ci_path("./policies/a.yaml") == "policies/a.yaml");
    CHECK(ci_path("policies//x/../a.yaml") == "policies/a.yaml");
    CHECK(ci_path((std::filesystem::current_path() / "policies" / "a.yaml").string()) == "policies/a.yaml");
    CHECK(ci_path("/nonexistent-root-dir/a.yaml").starts_with("/"));
    CHECK(ci_path("<stdin>") == "<stdin>");
}

TEST_CASE("end to end: annotations match the JSON report's positions")
{
    const kpw::test::lint_workspace ws;
    const auto json = ws.json_report();
    const auto r = ws.lint("github");
    CHECK(r.exit_code == 2); // the broken file
    const auto lines = lines_of(r.out);
    const auto cmds = commands_of(lines);
    REQUIRE(!cmds.empty());
    CHECK(cmds[0].props.at("file") == "policies/broken.yaml");
    CHECK(cmds[0].props.at("line") == "2");

    std::size_t expected = 1;
    for (const auto& result : json.find("results")->items())
        for (const char* key : {"errors", "warnings"})
            for (const auto& f : result.find(key)->items()) {
                REQUIRE(expected < cmds.size());
                const command& c = cmds[expected++];
                CHECK(c.props.at("file") == result.string_at("file"));
                const auto* line = f.find("line");
                CHECK(c.props.at("line") == std::to_string(line ? line->as_int() : result.find("line")->as_int()));
            }
    CHECK(cmds.size() == expected);
    CHECK(lines.back().find(" 2 policies, ") != std::string::npos);
    CHECK(lines.back().find(" 1 skipped, 1 unreadable") != std::string::npos);
}
