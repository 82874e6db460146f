// SPDX-License-Identifier: Apache-2.0
// Replica division on a re-schedule: Steady, Fresh, overflow tiers and error texts (spec §6, day2 §2.3).
#include <doctest/doctest.h>

#include <algorithm>
#include <deque>

#include "fixtures.hpp"
#include "scheduling/assign.hpp"

using namespace kpw;
using namespace kpw::scheduling;
using namespace kpw::scheduling::test;

namespace {

struct member {
    std::string name;
    std::int32_t allocatable = 0; // the estimator's answer
    std::int32_t current = 0;     // previous replicas
    int tier = 0;
};

// Candidates as the selection hands them over: available = allocatable + current, in the given order.
class pool {
public:
    explicit pool(const std::vector<member>& members)
    {
        std::vector<std::string> sorted;
        for (const auto& m : members)
            sorted.push_back(m.name);
        std::sort(sorted.begin(), sorted.end());
        for (const auto& m : members) {
            clusters_.push_back(cluster(m.name, m.allocatable));
            auto rank = std::find(sorted.begin(), sorted.end(), m.name) - sorted.begin();
            candidate c{&clusters_.back(), m.tier, m.allocatable + m.current, static_cast<std::uint32_t>(rank)};
            c.allocatable = m.allocatable;
            c.current = m.current;
            c.score = m.current > 0 ? 100 : 0;
            selected.push_back(c);
        }
    }

    std::vector<candidate> selected;

private:
    std::deque<model::cluster> clusters_; // stable addresses for candidate::cluster
};

replicas_map by_name(const assignment& a)
{
    replicas_map out;
    for (const auto& c : a.clusters)
        out[c.target->cluster->name] = c.replicas;
    return out;
}

const model::placement dynamic_weight = dynamic_weight_spec().placement;
const model::placement aggregated = aggregated_spec().placement;

assignment divide(const pool& p, const model::placement& placement, strategy s, std::int32_t replicas,
                  division_mode mode, name_order order = name_order::ascending)
{
    return assign_strategy(p.selected, placement, s, replicas, order, mode);
}

} // namespace

TEST_CASE("steady dynamic weight scale-down 12 to 6 keeps the previous proportions 2:4:6 as 1/2/3")
{
    pool p({{"member1", 1, 2}, {"member2", 1, 4}, {"member3", 1, 6}});
    auto a = divide(p, dynamic_weight, strategy::dynamic_weight, 6, division_mode::steady);
    CHECK(a.error.empty());
    CHECK(by_name(a) == replicas_map{{"member1", 1}, {"member2", 2}, {"member3", 3}});
}

TEST_CASE("steady dynamic weight scale-up 12 to 24 deals the 12 extra over allocatable 10/10/10 and adds them")
{
    pool p({{"member1", 10, 2}, {"member2", 10, 4}, {"member3", 10, 6}});
    auto a = divide(p, dynamic_weight, strategy::dynamic_weight, 24, division_mode::steady);
    CHECK(by_name(a) == replicas_map{{"member1", 6}, {"member2", 8}, {"member3", 10}});
}

TEST_CASE("steady aggregated scale-up 12 to 24 moves the used clusters to the front: m1 7, m2 12, m3 5")
{
    // Selection order is the canonical one on a re-schedule: score 100 first, then available.
    pool p({{"member2", 6, 8}, {"member1", 4, 4}, {"member3", 8, 0}});
    auto a = divide(p, aggregated, strategy::aggregated, 24, division_mode::steady);
    CHECK(by_name(a) == replicas_map{{"member1", 7}, {"member2", 12}, {"member3", 5}});
}

TEST_CASE("steady aggregated scale-up stops the prefix at the used clusters when they hold the extra replicas")
{
    // assignment_test.go "replica 12 -> 24, aggregated 6:6:20": 6+6 covers the 12 extra, member3 stays out.
    pool p({{"member2", 6, 8}, {"member1", 6, 4}, {"member3", 20, 0}});
    auto a = divide(p, aggregated, strategy::aggregated, 24, division_mode::steady);
    CHECK(by_name(a) == replicas_map{{"member1", 10}, {"member2", 14}});
}

TEST_CASE("steady aggregated scale-down 12 to 6 keeps the largest previous cluster alone: m2 6")
{
    pool p({{"member2", 1, 8}, {"member1", 1, 4}, {"member3", 1, 0}});
    auto a = divide(p, aggregated, strategy::aggregated, 6, division_mode::steady);
    CHECK(by_name(a) == replicas_map{{"member2", 6}});
    // "replica 12 -> 8, aggregated 100:100": the prefix is still member2 alone, free capacity plays no part.
    pool roomy({{"member1", 100, 4}, {"member2", 100, 8}});
    CHECK(by_name(divide(roomy, aggregated, strategy::aggregated, 8, division_mode::steady)) ==
          replicas_map{{"member2", 8}});
}

TEST_CASE("steady aggregated scale-down orders equal previous counts by name, not by selection order")
{
    pool p({{"member2", 9, 4}, {"member1", 1, 4}});
    auto a = divide(p, aggregated, strategy::aggregated, 3, division_mode::steady);
    CHECK(by_name(a) == replicas_map{{"member1", 3}});
}

TEST_CASE("steady with an unchanged total keeps the previous result whatever the free capacity")
{
    pool p({{"member1", 100, 2}, {"member2", 0, 4}, {"member3", 0, 6}});
    for (auto s : {strategy::dynamic_weight, strategy::aggregated}) {
        auto a = divide(p, s == strategy::aggregated ? aggregated : dynamic_weight, s, 12, division_mode::steady);
        CHECK(by_name(a) == replicas_map{{"member1", 2}, {"member2", 4}, {"member3", 6}});
    }
}

TEST_CASE("steady scale-up places the replicas of a vanished cluster as extra replicas")
{
    // assignment_test.go: member2 (8) is no candidate any more; 20 extra over 4:12:8 from member1 first.
    pool agg({{"member1", 4, 4}, {"member4", 12, 0}, {"member3", 8, 0}});
    CHECK(by_name(divide(agg, aggregated, strategy::aggregated, 24, division_mode::steady)) ==
          replicas_map{{"member1", 7}, {"member3", 7}, {"member4", 10}});
    // Dynamic weight 3:3 with member3 (6) vanished: 6 extra split 3/3.
    pool dyn({{"member1", 3, 6}, {"member2", 3, 0}});
    CHECK(by_name(divide(dyn, dynamic_weight, strategy::dynamic_weight, 12, division_mode::steady)) ==
          replicas_map{{"member1", 9}, {"member2", 3}});
}

TEST_CASE("steady scale-up breaks an exact tie by the uid's name order")
{
    pool p({{"member1", 5, 1}, {"member2", 5, 1}});
    CHECK(by_name(divide(p, dynamic_weight, strategy::dynamic_weight, 3, division_mode::steady)) ==
          replicas_map{{"member1", 2}, {"member2", 1}});
    CHECK(by_name(divide(p, dynamic_weight, strategy::dynamic_weight, 3, division_mode::steady,
                         name_order::descending)) == replicas_map{{"member1", 1}, {"member2", 2}});
}

TEST_CASE("fresh dynamic weight deals everything again over allocatable plus current")
{
    // Votes 4+4, 6+8, 8+0 = 8:14:8; the remainder tie between member1 and member3 follows the name order.
    pool p({{"member2", 6, 8}, {"member1", 4, 4}, {"member3", 8, 0}});
    CHECK(by_name(divide(p, dynamic_weight, strategy::dynamic_weight, 24, division_mode::fresh)) ==
          replicas_map{{"member1", 7}, {"member2", 11}, {"member3", 6}});
    CHECK(by_name(divide(p, dynamic_weight, strategy::dynamic_weight, 24, division_mode::fresh,
                         name_order::descending)) == replicas_map{{"member1", 6}, {"member2", 11}, {"member3", 7}});
}

TEST_CASE("fresh aggregated cuts its prefix from zero even when the total is unchanged")
{
    pool p({{"member2", 6, 8}, {"member1", 4, 4}, {"member3", 8, 0}});
    // Steady keeps 4/8; Fresh sorts 14, 8, 8 and member2 alone covers 12.
    CHECK(by_name(divide(p, aggregated, strategy::aggregated, 12, division_mode::steady)) ==
          replicas_map{{"member1", 4}, {"member2", 8}});
    CHECK(by_name(divide(p, aggregated, strategy::aggregated, 12, division_mode::fresh)) ==
          replicas_map{{"member2", 12}});
}

TEST_CASE("static weight is recomputed from zero: 7 to 8 adds exactly one and the previous split has no say")
{
    const auto placement = static_weight_spec({{"member1", 3}, {"member2", 2}, {"member3", 1}}).placement;
    pool first({{"member1", 0, 0}, {"member2", 0, 0}, {"member3", 0, 0}});
    auto seven = divide(first, placement, strategy::static_weight, 7, division_mode::first);
    REQUIRE(by_name(seven) == replicas_map{{"member1", 4}, {"member2", 2}, {"member3", 1}});
    pool again({{"member1", 0, 4}, {"member2", 0, 2}, {"member3", 0, 1}});
    CHECK(by_name(divide(again, placement, strategy::static_weight, 8, division_mode::steady)) ==
          replicas_map{{"member1", 4}, {"member2", 3}, {"member3", 1}});
    // A skewed previous result changes nothing, in Fresh mode neither.
    pool skewed({{"member1", 0, 0}, {"member2", 0, 0}, {"member3", 0, 7}});
    for (auto mode : {division_mode::steady, division_mode::fresh})
        CHECK(by_name(divide(skewed, placement, strategy::static_weight, 7, mode)) == by_name(seven));
}

TEST_CASE("duplicated gives every selected cluster the full count on a re-schedule too")
{
    pool p({{"member1", 0, 3}, {"member2", 9, 3}});
    for (auto mode : {division_mode::first, division_mode::steady, division_mode::fresh})
        CHECK(by_name(divide(p, duplicated_spec().placement, strategy::duplicated, 5, mode)) ==
              replicas_map{{"member1", 5}, {"member2", 5}});
}

TEST_CASE("a first schedule is a steady scale-up from nothing over the available replicas")
{
    // The simulator's first-time candidates carry available only; allocatable and current stay 0.
    std::deque<model::cluster> cs{cluster("member1", 10), cluster("member2", 8)};
    std::vector<candidate> selected{{&cs[0], 0, 10, 0}, {&cs[1], 0, 8, 1}};
    auto a = assign_strategy(selected, aggregated, strategy::aggregated, 12, name_order::ascending);
    CHECK(by_name(a) == replicas_map{{"member1", 7}, {"member2", 5}});
    auto d = assign_strategy(selected, dynamic_weight, strategy::dynamic_weight, 9, name_order::ascending);
    CHECK(by_name(d) == replicas_map{{"member1", 5}, {"member2", 4}});
    auto fail = assign_strategy(selected, dynamic_weight, strategy::dynamic_weight, 19, name_order::ascending);
    CHECK(fail.clusters.empty());
    CHECK(fail.error == "failed to scale up: Clusters available replicas 18 are not enough to schedule.");
}

TEST_CASE("a steady scale-up reports the allocatable replicas of the selected clusters when short")
{
    pool p({{"member1", 1, 2}, {"member2", 1, 4}, {"member3", 1, 6}});
    for (auto s : {strategy::dynamic_weight, strategy::aggregated}) {
        auto a = divide(p, s == strategy::aggregated ? aggregated : dynamic_weight, s, 24, division_mode::steady);
        CHECK(a.clusters.empty());
        CHECK(a.error == "failed to scale up: Clusters available replicas 3 are not enough to schedule.");
    }
}

TEST_CASE("a fresh division reports allocatable plus current replicas when short")
{
    pool p({{"member1", 1, 2}, {"member2", 1, 3}});
    auto a = divide(p, dynamic_weight, strategy::dynamic_weight, 10, division_mode::fresh);
    CHECK(a.clusters.empty());
    CHECK(a.error == "failed to do fresh scale: Clusters available replicas 7 are not enough to schedule.");
}

TEST_CASE("overflow scale-down 5 to 3 keeps the full primary and shrinks the overflow tier: 2/1")
{
    pool p({{"member1", 0, 2, 0}, {"member2", 5, 3, 1}});
    auto a = assign_tiers(p.selected, dynamic_weight, strategy::dynamic_weight, 3, name_order::ascending,
                          division_mode::steady);
    CHECK(a.error.empty());
    CHECK(by_name(a) == replicas_map{{"member1", 2}, {"member2", 1}});
}

TEST_CASE("overflow scale-up 5 to 6 with a primary that has room again drops the overflow replicas")
{
    pool p({{"member1", 10, 2, 0}, {"member2", 5, 3, 1}});
    auto a = assign_tiers(p.selected, dynamic_weight, strategy::dynamic_weight, 6, name_order::ascending,
                          division_mode::steady);
    CHECK(by_name(a) == replicas_map{{"member1", 6}});
}

TEST_CASE("overflow scale-down also pulls replicas back into a primary that has room again")
{
    // day2 §0 item 11: tier 0 gets min(4, 10+2) = 4; nothing remains for member2.
    pool p({{"member1", 10, 2, 0}, {"member2", 5, 3, 1}});
    auto a = assign_tiers(p.selected, aggregated, strategy::aggregated, 4, name_order::ascending,
                          division_mode::steady);
    CHECK(by_name(a) == replicas_map{{"member1", 4}});
}

TEST_CASE("overflow in fresh mode divides each tier afresh against its own clusters")
{
    pool p({{"member1", 1, 2, 0}, {"member3", 4, 0, 0}, {"member2", 5, 3, 1}});
    // Tier 0 gets min(9, 3+4) = 7 over votes 3:4; tier 1 the last 2 from zero.
    auto a = assign_tiers(p.selected, dynamic_weight, strategy::dynamic_weight, 9, name_order::ascending,
                          division_mode::fresh);
    CHECK(by_name(a) == replicas_map{{"member1", 3}, {"member2", 2}, {"member3", 4}});
}

TEST_CASE("exhausted overflow tiers fail without a number; a tier's own error is returned as is")
{
    pool p({{"member1", 1, 2, 0}, {"member2", 1, 3, 1}});
    auto a = assign_tiers(p.selected, dynamic_weight, strategy::dynamic_weight, 9, name_order::ascending,
                          division_mode::steady);
    CHECK(a.clusters.empty());
    CHECK(a.error == "Clusters available replicas are not enough to schedule.");
    // A candidate whose available exceeds allocatable + current lets the tier's scale-up fail first.
    pool odd({{"member1", 0, 0, 0}});
    odd.selected[0].available = 4;
    auto b = assign_tiers(odd.selected, dynamic_weight, strategy::dynamic_weight, 4, name_order::ascending,
                          division_mode::steady);
    CHECK(b.error == "failed to scale up: Clusters available replicas 0 are not enough to schedule.");
}
