// SPDX-License-Identifier: Apache-2.0
// --karmada-version's parsing and the table of changes between the supported releases.
#include "settings/karmada_release.hpp"

#include <doctest/doctest.h>

#include "settings/feature_gates.hpp"

using namespace kpw::settings;

TEST_CASE("a minor, with or without v and with any patch, names the pinned release of that minor")
{
    struct row {
        const char* text;
        karmada_release want;
    };
    for (const row r : {row{"v1.16", karmada_release::v1_16_0}, row{"1.16", karmada_release::v1_16_0},
                        row{"v1.16.8", karmada_release::v1_16_0}, row{"v1.17", karmada_release::v1_17_1},
                        row{"v1.17.0", karmada_release::v1_17_1}, row{"1.17.5", karmada_release::v1_17_1},
                        row{"v1.18", karmada_release::v1_18_2}, row{"v1.18.0", karmada_release::v1_18_2}}) {
        CAPTURE(r.text);
        auto got = parse_karmada_version(r.text);
        REQUIRE(got.ok());
        CHECK(*got == r.want);
    }
}

TEST_CASE("an unsupported or malformed version is an error listing what is supported")
{
    // Leading zeros are no version (semver, Go modules): "v1.018.2" was answered as v1.18.2 (fuzz finding).
    for (const char* text : {"v1.15.9", "v1.19", "v2.0", "latest", "v1", "v1.x", "", "v1.18.2.1", "v1.18.", "v1.018.2",
                             "v01.18", "1.17.01"}) {
        CAPTURE(text);
        auto got = parse_karmada_version(text);
        REQUIRE_FALSE(got.ok());
        CHECK(got.error().message.find("v1.16 (v1.16.0), v1.17 (v1.17.1), v1.18 (v1.18.2)") != std::string::npos);
    }
    CHECK(parse_karmada_version("v1.15.9").error().message.starts_with("Karmada v1.15.9 is not supported"));
}

TEST_CASE("releases are ordered and the newest is the default")
{
    const auto all = supported_karmada_releases();
    REQUIRE(all.size() == 3);
    CHECK(all.back() == newest_karmada_release);
    CHECK(release_name(all[0]) == "v1.16.0");
    CHECK(release_name(all[1]) == "v1.17.1");
    CHECK(release_name(all[2]) == "v1.18.2");
}

TEST_CASE("a field a later release added is found under any index and below it")
{
    CHECK(change_adding_field("spec.placement.clusterAffinities[0].overflowAffinities") ==
          &changes::overflow_affinities);
    CHECK(change_adding_field("spec.placement.clusterAffinities[12].overflowAffinities[1].affinityName") ==
          &changes::overflow_affinities);
    CHECK(change_adding_field("spec.placement.workloadAffinity.affinity.groupByLabelKey") ==
          &changes::workload_affinity);
    CHECK(change_adding_field("spec.placement.clusterAffinities[0].affinityName") == nullptr);
    CHECK(change_adding_field("spec.placement.workloadAffinityX") == nullptr);
    CHECK_FALSE(has(karmada_release::v1_17_1, changes::overflow_affinities));
    CHECK(has(karmada_release::v1_17_1, changes::workload_affinity));
    CHECK_FALSE(has(karmada_release::v1_16_0, changes::resource_selector_namespace));
}

TEST_CASE("feature gates are each release's: registered gates and their defaults")
{
    // karmada v1.16.0 pkg/features/features.go registers neither WorkloadAffinity nor
    // SchedulingOvercommitProtection; v1.17.1 has WorkloadAffinity only.
    auto old = parse_feature_gates("WorkloadAffinity=true", karmada_release::v1_16_0);
    REQUIRE_FALSE(old.ok());
    CHECK(old.error().message.starts_with("unrecognized feature gate: WorkloadAffinity (known to Karmada v1.16.0: "));
    CHECK(parse_feature_gates("WorkloadAffinity=true", karmada_release::v1_17_1).ok());
    CHECK_FALSE(parse_feature_gates("SchedulingOvercommitProtection=true", karmada_release::v1_17_1).ok());
    CHECK(parse_feature_gates("SchedulingOvercommitProtection=true", karmada_release::v1_18_2).ok());
    // ControllerPriorityQueue: alpha and off in v1.16.0, beta and on from v1.17.0.
    CHECK_FALSE(feature_gates(karmada_release::v1_16_0).enabled("ControllerPriorityQueue"));
    CHECK(feature_gates(karmada_release::v1_17_1).enabled("ControllerPriorityQueue"));
    auto all_alpha = parse_feature_gates("AllAlpha=true", karmada_release::v1_16_0);
    REQUIRE(all_alpha.ok());
    CHECK(all_alpha->enabled("ControllerPriorityQueue"));
}
