// SPDX-License-Identifier: Apache-2.0
// `simulate` with karmada-scheduler-estimator: the scenario's memberState (relative to the scenario file)
// and --member-state, on the checkout overflow of tests/data/member-state/checkout.
#include <filesystem>
#include <string>

#include <doctest/doctest.h>

#include "support/lint_run.hpp"
#include "support/temp_dir.hpp"

namespace fs = std::filesystem;
using kpw::test::json_of;
using kpw::test::run_process;
using kpw::test::temp_dir;

namespace {

const std::string examples = std::string(KPW_SOURCE_ROOT) + "/manifests/examples/";
const std::string members = std::string(KPW_TEST_DATA) + "/member-state/checkout";

kpw::test::process_result simulate(const fs::path& scenario, std::vector<std::string> extra = {})
{
    std::vector<std::string> args{KPW_BINARY, "simulate", "-o", "json", "--clusters", examples + "clusters.yaml",
                                  "--workloads", examples + "workloads.yaml", "--scenario", scenario.string(),
                                  examples + "checkout-local-idc.yaml"};
    args.insert(args.end(), extra.begin(), extra.end());
    return run_process(args);
}

// "idc-east-1=4,..." for checkout in every step.
std::vector<std::string> placements(const kpw::doc::value& v)
{
    std::vector<std::string> out;
    for (const auto& step : v.find("steps")->items())
        for (const auto& w : step.find("workloads")->items()) {
            if (w.find("workload")->string_at("name") != "checkout")
                continue;
            std::string s;
            for (const auto& c : w.find("clusters")->items())
                s.append(s.empty() ? "" : ",").append(c.string_at("name")).append("=").append(
                    std::to_string(c.find("replicas")->as_int()));
            out.push_back(s);
        }
    return out;
}

std::string scenario_text(const std::string& member_state_line)
{
    return "apiVersion: karmada-policy-webhook.io/v1alpha1\nkind: Scenario\nmetadata: {name: idc-fills-up}\n" +
           member_state_line + "steps:\n  - scale: {workload: Deployment/production/checkout, replicas: 14}\n";
}

} // namespace

// The member state is the drill's start: like resourceSummary without setResources, it does not grow by the
// pods of the replicas the drill places, so the scale step sees idc-east-1's 4 free replicas plus its 4
// current ones (availableReplicas = estimate + assigned), as the general estimator sees 6 + 6.
TEST_CASE("memberState: the IDC holds 4 of 10, the cloud tier takes the rest; without it, 6")
{
    temp_dir dir;
    fs::copy(members, dir.path / "members", fs::copy_options::recursive);
    const auto with = dir.write("with.yaml", scenario_text("memberState: members\n"));
    const auto without = dir.write("without.yaml", scenario_text(""));

    auto a = simulate(with);
    REQUIRE_MESSAGE(a.exit_code == 0, a.out, a.err);
    auto pa = placements(json_of(a.out));
    CHECK(pa == std::vector<std::string>{"idc-east-1=4,cloud-east-1=5,cloud-east-2=1", "idc-east-1=8,cloud-east-1=5,cloud-east-2=1"});

    auto b = simulate(without);
    REQUIRE_MESSAGE(b.exit_code == 0, b.out, b.err);
    auto pb = placements(json_of(b.out));
    CHECK(pb == std::vector<std::string>{"idc-east-1=6,cloud-east-1=4", "idc-east-1=12,cloud-east-1=2"});

    // --member-state wins over the scenario's key (here: the scenario has none).
    auto c = simulate(without, {"--member-state", members});
    REQUIRE_MESSAGE(c.exit_code == 0, c.out, c.err);
    CHECK(placements(json_of(c.out)) == pa);
}

TEST_CASE("a memberState that is not a directory is exit 2")
{
    temp_dir dir;
    const auto bad = dir.write("bad.yaml", scenario_text("memberState: nowhere\n"));
    auto r = simulate(bad);
    CHECK(r.exit_code == 2);
    CHECK((r.out + r.err).find("--member-state: not a directory") != std::string::npos);
}
