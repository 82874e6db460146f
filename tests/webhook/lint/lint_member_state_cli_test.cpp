// SPDX-License-Identifier: Apache-2.0
// `lint --member-state DIR` end to end: karmada-scheduler-estimator's answers beside the general estimator's
// on the checkout overflow (tests/data/member-state/checkout/README.md explains the numbers).
#include <filesystem>
#include <fstream>
#include <map>
#include <string>

#include <doctest/doctest.h>

#include "support/lint_run.hpp"
#include "support/temp_dir.hpp"

namespace fs = std::filesystem;
using kpw::test::json_of;
using kpw::test::run_lint;
using kpw::test::temp_dir;

namespace {

const std::string examples = std::string(KPW_SOURCE_ROOT) + "/manifests/examples/";
const std::string members = std::string(KPW_TEST_DATA) + "/member-state/checkout";

std::vector<std::string> checkout_args(std::vector<std::string> extra)
{
    std::vector<std::string> args{"--clusters", examples + "clusters.yaml", "--workloads", examples + "workloads.yaml"};
    args.insert(args.end(), extra.begin(), extra.end());
    args.push_back(examples + "checkout-local-idc.yaml");
    return args;
}

// name -> replicas of the first scheduling entry of the checkout policy.
std::map<std::string, std::int64_t> placement(const kpw::doc::value& report)
{
    std::map<std::string, std::int64_t> out;
    for (const auto& r : report.find("results")->items())
        for (const auto& s : r.find("scheduling")->items())
            for (const auto& c : s.find("clusters")->items())
                out[std::string(c.string_at("name"))] = c.find("replicas")->as_int();
    return out;
}

void copy_dir(const fs::path& from, const fs::path& to)
{
    fs::copy(from, to, fs::copy_options::recursive);
}

} // namespace

TEST_CASE("the IDC fills up on its nodes: 4 stay, the public-cloud tier takes 6 (general only: 6 and 4)")
{
    auto general = run_lint(checkout_args({"-o", "json"}));
    REQUIRE(general.exit_code == 0);
    CHECK(placement(json_of(general.out)) == std::map<std::string, std::int64_t>{{"cloud-east-1", 4}, {"idc-east-1", 6}});

    auto both = run_lint(checkout_args({"-o", "json", "--member-state", members}));
    REQUIRE(both.exit_code == 0);
    CHECK(placement(json_of(both.out)) ==
          std::map<std::string, std::int64_t>{{"cloud-east-1", 5}, {"cloud-east-2", 1}, {"idc-east-1", 4}});
}

TEST_CASE("--explain names the estimator that bound each cluster, and the note says both were used")
{
    auto r = run_lint(checkout_args({"--explain", "--member-state", members}));
    REQUIRE(r.exit_code == 0);
    CHECK(r.out.find("the smaller of the general estimator (resourceSummary and resource models) and "
                     "karmada-scheduler-estimator") != std::string::npos);
    CHECK(r.out.find("not karmada-scheduler-estimator") == std::string::npos);
    CHECK(r.out.find("available 4 (bound by karmada-scheduler-estimator: cpu (2 of 3 node(s) match; excluded idc-b: "
                     "taint dedicated=batch:NoSchedule))") != std::string::npos);
    CHECK(r.out.find("available 3 (bound by general estimator: resource models (karmada-scheduler-estimator: 26))") !=
          std::string::npos);
}

TEST_CASE("a feasible cluster without a member state: Karmada drops every accurate answer of the scheduling")
{
    temp_dir dir;
    copy_dir(members, dir.path / "m");
    fs::remove_all(dir.path / "m" / "cloud-east-2");
    auto r = run_lint(checkout_args({"-o", "json", "--member-state", (dir.path / "m").string()}));
    REQUIRE(r.exit_code == 0);
    CHECK(placement(json_of(r.out)) == std::map<std::string, std::int64_t>{{"cloud-east-1", 4}, {"idc-east-1", 6}});
    auto text = run_lint(checkout_args({"--member-state", (dir.path / "m").string()}));
    CHECK(text.out.find("cluster cloud-east-2 has no karmada-scheduler-estimator") != std::string::npos);
}

TEST_CASE("an empty --member-state directory is today's behaviour")
{
    temp_dir dir;
    fs::create_directory(dir.path / "empty");
    auto r = run_lint(checkout_args({"--member-state", (dir.path / "empty").string()}));
    REQUIRE(r.exit_code == 0);
    CHECK(r.out.find("not karmada-scheduler-estimator") != std::string::npos);
}

TEST_CASE("bad member state: file:line:column, exit 2")
{
    temp_dir dir;
    copy_dir(members, dir.path / "m");
    {
        std::ofstream bad(dir.path / "m" / "idc-east-1" / "quota.yaml");
        bad << "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n  namespace: d\nspec:\n  nodeName: idc-a\n"
               "  containers:\n  - name: c\n    resources:\n      requests:\n        cpu: lots\n";
    }
    auto r = run_lint(checkout_args({"--member-state", (dir.path / "m").string()}));
    CHECK(r.exit_code == 2);
    const std::string file = (dir.path / "m" / "idc-east-1" / "quota.yaml").string();
    CHECK(r.out.find(file + ":3:1: error: Pod d/p: metadata.uid: Required value") != std::string::npos);
    CHECK(r.out.find(file + ":12:14: error: Pod d/p: spec.containers[0].resources.requests[cpu]: Invalid value: \"lots\"") !=
          std::string::npos);

    fs::create_directory(dir.path / "m" / "no-such-cluster");
    auto unknown = run_lint(checkout_args({"--member-state", (dir.path / "m").string()}));
    CHECK(unknown.out.find("no Cluster no-such-cluster in the snapshot") != std::string::npos);

    auto missing = run_lint(checkout_args({"--member-state", (dir.path / "absent").string()}));
    CHECK(missing.exit_code == 2);
    CHECK(missing.out.find("--member-state: not a directory") != std::string::npos);
}

TEST_CASE("--member-state without --clusters is a usage error")
{
    auto r = run_lint({"--member-state", members, examples + "checkout-local-idc.yaml"});
    CHECK(r.exit_code == 2);
    CHECK(r.err.find("--member-state needs --clusters") != std::string::npos);
}
