// SPDX-License-Identifier: Apache-2.0
// The controllers' flags: binary defaults, the assumed-settings listing, and kcm's own checks.
#include <doctest/doctest.h>

#include "settings/controller_settings.hpp"

using namespace kpw;

TEST_CASE("the listing names every assumed setting with Karmada's flag names and binary defaults")
{
    settings::controller_settings s;
    CHECK(settings::describe(s) == std::vector<std::string>{
                                       "--feature-gates=",
                                       "--enable-taint-manager=true",
                                       "--enable-no-execute-taint-eviction=false",
                                       "--no-execute-taint-eviction-purge-mode=Gracefully",
                                       "--graceful-eviction-timeout=10m0s",
                                       "--resource-eviction-rate=0.5",
                                       "--cluster-failure-threshold=30s",
                                       "--cluster-success-threshold=30s",
                                       "--cluster-monitor-grace-period=40s",
                                       "--scheduler-name=default-scheduler",
                                   });
    s.gates.set("Failover", true);
    CHECK(settings::describe(s)[0] == "--feature-gates=Failover=true");
    CHECK(settings::eviction_interval_seconds(s) == doctest::Approx(2.0));
    s.resource_eviction_rate = 0;
    CHECK(settings::eviction_interval_seconds(s) == doctest::Approx(1800.0));
}

TEST_CASE("kcm rejects an unknown purge mode only with eviction on, and a negative eviction rate")
{
    settings::controller_settings s;
    s.no_execute_taint_eviction_purge_mode = "Never";
    CHECK(settings::validate(s).empty());
    s.enable_no_execute_taint_eviction = true;
    auto errs = settings::validate(s);
    REQUIRE(errs.size() == 1);
    CHECK(errs[0].str() ==
          "ClusterFailoverOptions.NoExecuteTaintEvictionPurgeMode: Invalid value: \"Never\": Invalid mode");
    s.no_execute_taint_eviction_purge_mode = "Directly";
    s.resource_eviction_rate = -1;
    REQUIRE(settings::validate(s).size() == 1);
    CHECK(settings::validate(s)[0].str() == "ClusterFailoverOptions.ResourceEvictionRate: Invalid value: -1: must be "
                                            "non-negative");
}
