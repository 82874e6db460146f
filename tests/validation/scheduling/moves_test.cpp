// SPDX-License-Identifier: Apache-2.0
#include "scheduling/moves.hpp"

#include <doctest/doctest.h>

using kpw::model::target_cluster;
using kpw::scheduling::moves_between;
using kpw::scheduling::replica_move;

TEST_CASE("moves list changed, added and removed clusters by name, whatever the input order")
{
    std::vector<target_cluster> before{{"m2", 3, {}}, {"m1", 6, {}}, {"m3", 2, {}}};
    std::vector<target_cluster> after{{"m1", 4, {}}, {"m4", 2, {}}, {"m2", 3, {}}};
    auto moves = moves_between(before, after);
    REQUIRE(moves.size() == 3);
    CHECK(moves[0] == replica_move{"m1", 6, 4});
    CHECK(moves[1] == replica_move{"m3", 2, 0});
    CHECK(moves[2] == replica_move{"m4", 0, 2});
}

TEST_CASE("a non-workload moves only when a cluster appears or disappears")
{
    std::vector<target_cluster> before{{"m1", 0, {}}};
    std::vector<target_cluster> same{{"m1", 0, {}}};
    std::vector<target_cluster> other{{"m2", 0, {}}};
    CHECK(moves_between(before, same).empty());
    auto moves = moves_between(before, other);
    REQUIRE(moves.size() == 2);
    CHECK(moves[0] == replica_move{"m1", 0, 0});
    CHECK(moves[1] == replica_move{"m2", 0, 0});
}
