// SPDX-License-Identifier: Apache-2.0
// `lint` end to end through the real binary: inputs, exit codes, output shapes, hostile files.
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include <doctest/doctest.h>

#include "support/hang_bound.hpp"
#include "support/lint_run.hpp"
#include "support/temp_dir.hpp"

namespace fs = std::filesystem;

namespace {

const std::string policy_yaml = "apiVersion: policy.karmada.io/v1alpha1\n"
                                "kind: PropagationPolicy\n"
                                "metadata:\n"
                                "  name: web\n"
                                "  namespace: shop\n"
                                "spec:\n"
                                "  resourceSelectors:\n"
                                "    - apiVersion: apps/v1\n"
                                "      kind: Deployment\n"
                                "      name: web\n";

using kpw::test::json_of;
using kpw::test::temp_dir;
using kpw::test::run_lint;

} // namespace

TEST_CASE("empty standard input is not an error")
{
    auto r = run_lint({"-o", "json", "-"}, "");
    CHECK(r.exit_code == 0);
    const auto v = json_of(r.out);
    CHECK(v.find_path({"summary", "documents"})->as_int() == 0);
    CHECK(v.find("results")->items().empty());
}

TEST_CASE("a file with no objects is exit 2 at file:1:1, as kubectl apply refuses it")
{
    temp_dir dir;
    for (const char* text : {"", "\n\n", "# only a comment\n", "---\n---\n"}) {
        CAPTURE(text);
        const auto p = dir.write("empty.yaml", text);
        auto r = run_lint({p.string()});
        CHECK(r.exit_code == 2);
        CHECK(r.out.find(p.string() + ":1:1: error: no objects in this file") != std::string::npos);
    }
    // Next to a real policy the empty file is still reported; the policy is still linted.
    dir.write("policy.yaml", policy_yaml);
    auto both = run_lint({"-o", "json", dir.path.string()});
    CHECK(both.exit_code == 2);
    CHECK(json_of(both.out).find_path({"summary", "policies"})->as_int() == 1);
}

TEST_CASE("documents of other kinds are skipped and counted; List items are linted one by one")
{
    const std::string deployment = "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\n";
    std::string list = "apiVersion: v1\nkind: List\nitems:\n";
    for (const char* name : {"a", "b"})
        list += std::string("  - apiVersion: policy.karmada.io/v1alpha1\n    kind: ClusterPropagationPolicy\n"
                            "    metadata: {name: ") + name + "}\n    spec:\n      resourceSelectors:\n"
                            "        - {apiVersion: v1, kind: ConfigMap}\n";
    auto r = run_lint({"-o", "json", "-"}, deployment + "---\n" + list);
    CHECK(r.exit_code == 0);
    const auto v = json_of(r.out);
    CHECK(v.find_path({"summary", "documents"})->as_int() == 3);
    CHECK(v.find_path({"summary", "policies"})->as_int() == 2);
    const auto& results = v.find("results")->items();
    REQUIRE(results.size() == 2);
    CHECK(results[0].string_at("name") == "a");
    CHECK(results[1].string_at("kind") == "ClusterPropagationPolicy");
    CHECK(results[1].find("line")->as_int() == 14);
    CHECK(results[0].string_at("file") == "<stdin>");
}

TEST_CASE("a policy kind in a version the CRDs do not serve is exit 2 at its apiVersion, not skipped")
{
    for (const char* version : {"policy.karmada.io/v1", "policy.karmada.io", "policy.karmada.io/v1beta1"}) {
        CAPTURE(version);
        std::string text = policy_yaml;
        text.replace(0, text.find('\n'), std::string("apiVersion: ") + version);
        auto r = run_lint({"-"}, text);
        CHECK(r.exit_code == 2);
        CHECK(r.out.find(std::string("<stdin>:1:13: error: no matches for kind \"PropagationPolicy\" in version \"") +
                         version + "\"") != std::string::npos);
    }
    // The served version still lints.
    CHECK(run_lint({"-"}, policy_yaml).exit_code == 0);
}

TEST_CASE("json output has the contract's keys in order")
{
    auto r = run_lint({"-o", "json", "-"}, policy_yaml);
    const auto v = json_of(r.out);
    std::vector<std::string> summary_keys, result_keys;
    for (const auto& [k, _] : v.find("summary")->members())
        summary_keys.push_back(k);
    CHECK(summary_keys == std::vector<std::string>{"documents", "policies", "denied", "warnings", "unschedulable"});
    for (const auto& [k, _] : v.find("results")->items().at(0).members())
        result_keys.push_back(k);
    CHECK(result_keys == std::vector<std::string>{"file", "document", "line", "kind", "namespace", "name", "allowed",
                                                  "errors", "warnings", "scheduling"});
}

TEST_CASE("directories are walked recursively for yaml, yml and json files in sorted order")
{
    temp_dir dir;
    auto named = [](const char* name) {
        std::string s = policy_yaml;
        s.replace(s.find("name: web"), 9, std::string("name: ") + name);
        return s;
    };
    dir.write("b.yaml", named("b"));
    dir.write("a/z.yml", named("az"));
    dir.write("c.json", R"({"apiVersion":"policy.karmada.io/v1alpha1","kind":"ClusterPropagationPolicy",)"
                        R"("metadata":{"name":"c"},"spec":{"resourceSelectors":[{"apiVersion":"v1","kind":"Secret"}]}})");
    dir.write("notes.txt", "not a manifest: [");
    auto r = run_lint({"-o", "json", dir.path.string()});
    CHECK(r.exit_code == 0);
    const auto v = json_of(r.out);
    const auto& results = v.find("results")->items();
    REQUIRE(results.size() == 3);
    CHECK(results[0].string_at("name") == "az");
    CHECK(results[1].string_at("name") == "b");
    CHECK(results[2].string_at("name") == "c");
}

TEST_CASE("a file that cannot be parsed is exit 2 with file:line:column")
{
    temp_dir dir;
    const auto bad = dir.write("bad.yaml", "apiVersion: v1\nkind: [unclosed\n");
    auto r = run_lint({bad.string()});
    CHECK(r.exit_code == 2);
    CHECK(r.out.find(bad.string() + ":3:") != std::string::npos);
    CHECK(r.out.find("error: ") != std::string::npos);

    auto j = run_lint({"-o", "json", bad.string()});
    CHECK(j.exit_code == 2);
    CHECK(j.err.find(bad.string() + ":") == 0);
}

TEST_CASE("a file cut off inside a quoted string is exit 2 at the opening quote, not a policy named to the end")
{
    temp_dir dir;
    const auto cut = dir.write("cut.yaml", "apiVersion: policy.karmada.io/v1alpha1\nkind: PropagationPolicy\n"
                                           "metadata:\n  name: \"web\nspec:\n  resourceSelectors: []\n");
    auto r = run_lint({cut.string()});
    CHECK(r.exit_code == 2);
    CHECK(r.out.find(cut.string() + ":4:9: error: unterminated quoted string: the closing \" is missing") !=
          std::string::npos);
    CHECK(r.out.find("0 policies") != std::string::npos);
}

TEST_CASE("usage and I/O errors are exit 2")
{
    CHECK(run_lint({"-o", "yaml", "x"}).exit_code == 2);
    CHECK(run_lint({"/nonexistent/policy.yaml"}).exit_code == 2);
    CHECK(run_lint({"--no-such-flag"}).exit_code == 2);
    auto help = run_lint({"--help"});
    CHECK(help.exit_code == 0);
    CHECK(help.out.find("--allow-aggregated-overflow") != std::string::npos);
}

TEST_CASE("hostile files get exit 2 with a message within a second")
{
    temp_dir dir;
    std::string bomb = "a: &a [x,x,x,x,x,x,x,x,x]\n";
    for (char c = 'b'; c <= 'j'; ++c) {
        bomb += std::string(1, c) + ": &" + c + " [";
        for (int i = 0; i < 9; ++i)
            bomb += std::string(i ? "," : "") + "*" + static_cast<char>(c - 1);
        bomb += "]\n";
    }
    const std::vector<std::pair<std::string, std::string>> cases = {
        {"binary.yaml", std::string("\x7f" "ELF\x02\x01\x01\0\0\0\0", 12)},
        {"prose.yaml", "This is just a sentence, not a manifest.\n"},
        {"tabs.yaml", "apiVersion: v1\nkind: List\nitems:\n\t- a: 1\n"},
        {"deep.yaml", std::string(100000, '[') + std::string(100000, ']')},
        {"bomb.yaml", bomb},
        // (a repeated key is no longer one: kubectl's reader keeps the last value)
        {"control.yaml", "apiVersion: v1\nkind: ConfigMap\x01\n"},
        {"latin1.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: caf\xe9}\n"},
        {"scalar-root.yaml", "42\n"},
    };
    for (const auto& c : cases) {
        const std::string& name = c.first;
        CAPTURE(name);
        const auto p = dir.write(name, c.second);
        auto r = run_lint({p.string()});
        CHECK(r.exit_code == 2);
        CHECK(r.out.find(p.string()) != std::string::npos);
        CHECK(r.elapsed < kpw::test::hang_bound());
    }
}

TEST_CASE("a symlink loop inside a directory is an error, not a hang")
{
    temp_dir dir;
    fs::create_symlink(dir.path / "loop-b.yaml", dir.path / "loop-a.yaml");
    fs::create_symlink(dir.path / "loop-a.yaml", dir.path / "loop-b.yaml");
    fs::create_directories(dir.path / "sub");
    fs::create_directory_symlink(dir.path, dir.path / "sub" / "up"); // a directory cycle: not followed
    dir.write("sub/ok.yaml", policy_yaml);
    auto r = run_lint({dir.path.string()});
    CHECK(r.exit_code == 2);
    CHECK(r.out.find("loop-a.yaml") != std::string::npos);
    CHECK(r.elapsed < kpw::test::hang_bound());
}

TEST_CASE("--feature-gates takes karmada-scheduler's syntax; an unknown gate is a usage error naming it")
{
    auto known = run_lint({"--feature-gates", "MultiplePodTemplatesScheduling=true,AllBeta=false", "-"}, "");
    CHECK(known.exit_code == 0);
    auto unknown = run_lint({"--feature-gates=MultiplePodTemplateScheduling=true", "-"}, "");
    CHECK(unknown.exit_code == 2);
    CHECK(unknown.err.find("MultiplePodTemplateScheduling") != std::string::npos);
    auto bad_value = run_lint({"--feature-gates=Failover=yes", "-"}, "");
    CHECK(bad_value.exit_code == 2);
}

TEST_CASE("--validate: strict (the default) refuses an unknown field with the API server's text at its key")
{
    const std::string typo = policy_yaml + "  placement:\n    clusterAfinity:\n      clusterNames: [member1]\n";
    const std::string refused = "<stdin>:12:5: error: PropagationPolicy in version \"v1alpha1\" cannot be handled as "
                                "a PropagationPolicy: strict decoding error: unknown field "
                                "\"spec.placement.clusterAfinity\"\n";
    for (const std::vector<std::string>& args : {std::vector<std::string>{"-"}, {"--validate=strict", "-"},
                                                {"--validate", "true", "-"}}) {
        auto r = run_lint(args, typo);
        CHECK(r.exit_code == 1);
        CHECK(r.out.starts_with(refused));
        CHECK(r.out.find("1 policies, 1 denied, 0 warnings") != std::string::npos);
    }
    auto json = run_lint({"-o", "json", "-"}, typo);
    const auto v = json_of(json.out);
    const auto& error = v.find("results")->items().at(0).find("errors")->items().at(0);
    CHECK(error.string_at("reason") == "BadRequest");
    CHECK(error.string_at("field") == "spec.placement.clusterAfinity");
    CHECK(error.find("line")->as_int() == 12);
    CHECK(error.find("column")->as_int() == 5);
}

TEST_CASE("--validate=warn warns with the API server's warning and admits; ignore says nothing")
{
    const std::string typo = policy_yaml + "  propagatDeps: true\n";
    auto warn = run_lint({"--validate=warn", "-"}, typo);
    CHECK(warn.exit_code == 0);
    CHECK(warn.out.starts_with("<stdin>:11:3: warning: unknown field \"spec.propagatDeps\" [unknown-field]\n"));
    for (const char* ignore : {"--validate=ignore", "--validate=false"}) {
        auto r = run_lint({ignore, "-"}, typo);
        CHECK(r.exit_code == 0);
        CHECK(r.out == "1 documents, 1 policies, 0 denied, 0 warnings, 0 unschedulable, 0 skipped\n");
    }
    auto bad = run_lint({"--validate=loose", "-"}, typo);
    CHECK(bad.exit_code == 2);
    CHECK(bad.err.find("--validate") != std::string::npos);
}

TEST_CASE("metadata that does not decode into ObjectMeta: kubectl refuses the file and sends nothing")
{
    // kubectl v1.35.3 against the loopback plane: "error: unable to decode \"l.yaml\": json: cannot
    // unmarshal object into Go struct field ObjectMeta.metadata.annotations of type string" (cli-runtime
    // metadata_decoder.go). lint read it as kubectl dropping the annotations until session 15.
    std::string text = policy_yaml;
    text.insert(text.find("spec:"), "  annotations: {owner: team-a, note: {}}\n");
    auto r = run_lint({"-"}, text);
    CHECK(r.exit_code == 2);
    CHECK(r.out.find("<stdin>:6:32: error: unable to decode \"<stdin>\": json: cannot unmarshal object into Go struct "
                     "field ObjectMeta.metadata.annotations of type string") != std::string::npos);
    // A null label value is pruned by kubectl apply (the key is never validated); a null annotation value is
    // sent as "" (unstructured's GetAnnotations coerces it): both admitted.
    text = policy_yaml;
    text.insert(text.find("spec:"), "  labels: {-x: null, team: a}\n  annotations: {owner: null}\n");
    r = run_lint({"-"}, text);
    CHECK(r.exit_code == 0);
    CHECK(r.out.find("error") == std::string::npos);
}

TEST_CASE("kubectl sends a file's documents up to one that does not parse, and skips one it cannot decode")
{
    // cli-runtime's builder with ContinueOnError (visitor.go StreamVisitor, EagerVisitorList): kubectl apply
    // sends the policies before a document that does not parse and around one it cannot decode, and exits 1.
    std::string second = policy_yaml;
    second.replace(second.find("name: web\n  namespace"), 9, "name: api");
    const std::string unparsable = "---\napiVersion: v1\nkind: ConfigMap\ndata: [\n";
    auto r = run_lint({"-o", "json", "-"}, policy_yaml + unparsable);
    CHECK(r.exit_code == 2);
    auto v = json_of(r.out);
    REQUIRE(v.find("results")->items().size() == 1);
    CHECK(v.find("results")->items()[0].string_at("name") == "web");
    auto text = run_lint({"-"}, policy_yaml + unparsable);
    CHECK(text.out.find("kubectl stops reading the file here; it applies the documents before") != std::string::npos);

    const std::string undecodable = "---\napiVersion: a/b/c\nkind: X\n---\n";
    r = run_lint({"-o", "json", "-"}, policy_yaml + undecodable + second);
    CHECK(r.exit_code == 2);
    v = json_of(r.out);
    REQUIRE(v.find("results")->items().size() == 2);
    CHECK(v.find("results")->items()[1].string_at("name") == "api");
}
