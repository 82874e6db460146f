// SPDX-License-Identifier: Apache-2.0
// lint on hostile policy files not covered by lint_cli_test: wrong types and huge numbers in every
// kind of field. Each is a denial (exit 1) naming the field at file:line:column, within a second.
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include <doctest/doctest.h>

#include "support/hang_bound.hpp"
#include "support/process.hpp"

namespace fs = std::filesystem;

namespace {

const std::string header = "apiVersion: policy.karmada.io/v1alpha1\n"
                           "kind: PropagationPolicy\n"
                           "metadata: {name: web, namespace: shop}\n"
                           "spec:\n"
                           "  resourceSelectors: [{apiVersion: apps/v1, kind: Deployment, name: web}]\n";

struct hostile_spec {
    std::string line;  // appended under spec:
    std::string field; // the field the denial must name
};

const hostile_spec cases[] = {
    {"  priority: 123456789012345678901234567890", "spec.priority"},
    {"  priority: -9223372036854775809", "spec.priority"},
    {"  priority: 1e400", "spec.priority"},
    {"  priority: 0x7fffffffffffffffffff", "spec.priority"},
    {"  priority: \"7\"", "spec.priority"},
    {"  placement: []", "spec.placement"},
    {"  placement: {clusterAffinity: {clusterNames: [1, true, null, {a: b}]}}",
     "spec.placement.clusterAffinity.clusterNames[3]"},
    {"  placement: {replicaScheduling: {replicaSchedulingType: Divided, replicaDivisionPreference: Weighted, "
     "weightPreference: {staticWeightList: [{targetCluster: {clusterNames: [a]}, weight: 99999999999999999999}]}}}",
     "spec.placement.replicaScheduling.weightPreference.staticWeightList[0].weight"},
    {"  placement: {spreadConstraints: [{spreadByField: cluster, maxGroups: 1e308, minGroups: -1e308}]}",
     "spec.placement.spreadConstraints[0].maxGroups"},
    {"  propagateDeps: \"yes\"", "spec.propagateDeps"},
    {"  failover: {application: {decisionConditions: {tolerationSeconds: 18446744073709551616}}}",
     "spec.failover.application.decisionConditions.tolerationSeconds"},
    {"  suspension: [[[[[[[[[[]]]]]]]]]]", "spec.suspension"},
};

} // namespace

TEST_CASE(".nan and .inf values fail the file, as kubectl's YAML-to-JSON conversion does")
{
    std::string tmpl = (fs::temp_directory_path() / "kpw-hostile-XXXXXX").string();
    const fs::path dir = ::mkdtemp(tmpl.data());
    for (const char* value : {".nan", ".inf", "-.Inf"}) {
        CAPTURE(value);
        const fs::path file = dir / "policy.yaml";
        std::ofstream(file, std::ios::trunc) << header << "  priority: " << value << "\n";
        const auto r = kpw::test::run_process({KPW_BINARY, "lint", file.string()});
        CHECK(r.exit_code == 2);
        CHECK(r.out.find(file.string() + ":6:13: error: json: unsupported value: ") != std::string::npos);
    }
    fs::remove_all(dir);
}

TEST_CASE("wrong types and huge numbers are denials naming the field, without hanging")
{
    std::string tmpl = (fs::temp_directory_path() / "kpw-hostile-XXXXXX").string();
    const fs::path dir = ::mkdtemp(tmpl.data());
    for (const hostile_spec& c : cases) {
        CAPTURE(c.line);
        const fs::path file = dir / "policy.yaml";
        std::ofstream(file, std::ios::trunc) << header << c.line << "\n";
        const auto r = kpw::test::run_process({KPW_BINARY, "lint", file.string()});
        CHECK(r.exit_code == 1);
        CHECK(r.out.find(file.string() + ":6:") != std::string::npos);
        // A field error ("error: spec.priority: ...") or Karmada's decode error, which names the field by
        // its Go path without indices ("... into Go struct field PropagationSpec.spec.priority of type int32").
        std::string go_path;
        for (bool in_index = false; char ch : c.field) {
            in_index = ch == '[' || (in_index && ch != ']');
            if (!in_index && ch != ']')
                go_path += ch;
        }
        CHECK((r.out.find(" error: " + c.field + ": ") != std::string::npos ||
               r.out.find("." + go_path + " of type ") != std::string::npos));
        CHECK(r.elapsed < kpw::test::hang_bound());
    }
    fs::remove_all(dir);
}
