// SPDX-License-Identifier: Apache-2.0
#include "doc/locate.hpp"
#include "doc/load.hpp"

#include <doctest/doctest.h>

using namespace kpw;

TEST_CASE("locate: scalars at their value, containers at their key, missing fields at the nearest ancestor")
{
    auto r = doc::load_yaml("metadata:\n"
                            "  labels:\n"
                            "    app.kubernetes.io/name: web\n"
                            "spec:\n"
                            "  placement:\n"
                            "    clusterAffinities:\n"
                            "      - affinityName: a\n"
                            "      - affinityName: b\n"
                            "        overflowAffinities:\n"
                            "          - affinityName: c\n");
    REQUIRE(r.ok());
    const doc::value& root = (*r)[0].root;
    CHECK(doc::locate(root, "spec.placement.clusterAffinities[1].affinityName") == position{8, 23});
    CHECK(doc::locate(root, "spec.placement.clusterAffinities") == position{6, 5});
    CHECK(doc::locate(root, "spec.placement.clusterAffinities[1].overflowAffinities[0].affinityName") ==
          position{10, 27});
    CHECK(doc::locate(root, "spec.placement.replicaScheduling.replicaSchedulingType") == position{5, 3});
    CHECK(doc::locate(root, "metadata.labels[app.kubernetes.io/name]") == position{3, 29});
    CHECK(doc::locate(root, "spec.placement.clusterAffinities[7]") == position{6, 5});
    // locate_key: the member's key, for a finding about the key itself.
    CHECK(doc::locate_key(root, "metadata.labels[app.kubernetes.io/name]") == position{3, 5});
    CHECK(doc::locate_key(root, "spec.placement.clusterAffinities") == position{6, 5});
}
