// SPDX-License-Identifier: Apache-2.0
// The shared filter cache gives filter_group's answer, with a re-schedule's targets and evictions on top.
#include <doctest/doctest.h>

#include "../../bench/bench_corpus.hpp"
#include "fixtures.hpp"
#include "scheduling/filter_cache.hpp"

using namespace kpw;
using namespace kpw::scheduling;
using namespace kpw::scheduling::test;

namespace {

bool same(const group_filter& a, const group_filter& b)
{
    if (a.rejected != b.rejected || a.feasible.size() != b.feasible.size())
        return false;
    for (std::size_t i = 0; i < a.feasible.size(); ++i)
        if (a.feasible[i].index != b.feasible[i].index || a.feasible[i].tier != b.feasible[i].tier)
            return false;
    return true;
}

std::vector<model::cluster> inventory()
{
    std::vector<model::cluster> cs;
    for (int i = 0; i < 12; ++i) {
        auto c = cluster("member" + std::to_string(i), 5, i % 3 ? "r1" : "");
        if (i % 4 == 1)
            c.taints = {{"maintenance", "", "NoSchedule"}};
        if (i == 7)
            c.api_enablements.clear();
        cs.push_back(std::move(c));
    }
    return cs;
}

} // namespace

TEST_CASE("the cache answers like filter_group, with and without targets and evictions")
{
    auto cs = inventory();
    snapshot snap(cs);
    filter_cache cache(snap);
    auto affinity = names({"member1", "member2", "member3", "member5", "member7", "member9"});
    std::vector<model::overflow_cluster_affinity> overflow{{"burst", names({"member10", "member11"})}};
    std::vector<model::spread_constraint> spread{{"region", "", 2, 1}};
    std::vector<std::uint32_t> targets{snap.name_rank(1), snap.name_rank(7)};
    std::vector<std::uint32_t> evicting{snap.name_rank(2), snap.name_rank(10)};
    std::sort(targets.begin(), targets.end());
    std::sort(evicting.begin(), evicting.end());
    int api = snap.api_id("apps/v1", "Deployment");
    for (int variant = 0; variant < 8; ++variant) {
        filter_scope s{{"g", &affinity, overflow}, {}, {}, "apps/v1", "Deployment", api, {}, {}};
        if (variant & 1)
            s.spread = spread;
        if (variant & 2)
            s.targets = targets;
        if (variant & 4)
            s.evicting = evicting;
        CAPTURE(variant);
        CHECK(same(cache.filter(s), filter_group(snap, s)));
    }
    CHECK(cache.size() == 2); // with and without the spread constraint
}

TEST_CASE("a schedule through the cache equals one without it")
{
    auto cs = inventory();
    snapshot snap(cs);
    filter_cache cache(snap);
    options cached;
    cached.filters = &cache;
    auto spec = dynamic_weight_spec();
    spec.placement.cluster_affinity = names({"member1", "member2", "member3", "member4"});
    previous_result prev;
    prev.clusters = {{"member1", 2, {}}};
    prev.evicting = {"member2"};
    for (int round = 0; round < 2; ++round) {
        CHECK(split(schedule(spec, deployment(6, "a"), snap, cached)) ==
              split(schedule(spec, deployment(6, "a"), snap)));
        CHECK(split(schedule(spec, deployment(6, "a"), snap, cached, &prev)) ==
              split(schedule(spec, deployment(6, "a"), snap, {}, &prev)));
    }
    CHECK(cache.size() == 1);
}

TEST_CASE("schedules through the cache equal those without it, estimates shared by equal requests")
{
    auto cs = inventory();
    for (std::size_t i = 0; i < cs.size(); ++i)
        cs[i].resource_summary->allocatable["cpu"] = model::quantity::from_int(std::int64_t(i % 5));
    snapshot snap(cs);
    filter_cache cache(snap);
    options shared;
    shared.filters = &cache;
    model::propagation_spec spec;
    spec.placement.replica_scheduling = model::replica_scheduling_strategy{"Divided", "Weighted",
                                                                          model::cluster_preferences{{}, "AvailableReplicas"}};
    for (int replicas : {3, 9, 17}) {
        for (std::int64_t cpu : {500, 1000}) {
            model::workload w = deployment(replicas);
            w.has_requirements = true;
            w.request = {{"cpu", cpu}};
            auto plain = schedule(spec, w, snap);
            auto cached = schedule(spec, w, snap, shared);
            REQUIRE(plain.clusters.size() == cached.clusters.size());
            for (std::size_t i = 0; i < plain.clusters.size(); ++i) {
                CHECK(plain.clusters[i].name == cached.clusters[i].name);
                CHECK(plain.clusters[i].replicas == cached.clusters[i].replicas);
                CHECK(plain.clusters[i].available == cached.clusters[i].available);
            }
            CHECK(plain.message == cached.message);
        }
    }
    CHECK(cache.request_shapes() == 2); // two per-replica requests, whatever the replica counts
}

namespace {

// Everything a decision says about where replicas go, in order.
std::string placement_of(const decision& d)
{
    std::string s = std::to_string(d.scheduled) + "|" + d.affinity_name + "|" + d.message + "|" + d.condition_message + "|";
    for (const auto& c : d.clusters)
        s += c.name + ":" + std::to_string(c.replicas) + ":" + c.tier + ":" + std::to_string(c.available) + ",";
    s += "|";
    for (const auto& c : d.candidates)
        s += c.name + ":" + std::to_string(c.replicas) + ":" + c.tier + ":" + std::to_string(c.available) + ",";
    return s;
}

} // namespace

// The re-plan path through the cache merges each binding's targets into a shared first-schedule order:
// over the benchmark's six policy shapes, with targets that score 100, carry current replicas, newly pass
// (tainted or without the API) or are being evicted, it must order and divide exactly as a lone schedule.
TEST_CASE("re-schedules through the shared order equal lone re-schedules over the benchmark shapes")
{
    std::vector<model::cluster> cs;
    for (std::size_t i = 0; i < 240; ++i)
        cs.push_back(bench::make_cluster(i));
    cs[7].api_enablements.clear(); // a target that passes APIEnablement only because it is targeted
    snapshot snap(cs);
    filter_cache cache(snap);
    options shared;
    shared.filters = &cache;
    std::size_t compared = 0, with_targets = 0;
    for (std::size_t i = 0; i < 120; ++i) {
        auto spec = bench::make_spec(i % 24, cs.size());
        auto w = bench::make_workload(i);
        auto first = schedule(spec, w, snap);
        CAPTURE(i);
        CHECK(placement_of(schedule(spec, w, snap, shared)) == placement_of(first));
        previous_result prev;
        for (const auto& c : first.clusters)
            prev.clusters.push_back({c.name, c.replicas, {}});
        prev.clusters.push_back({cs[(i * 13) % cs.size()].name, 1, {}}); // tainted or unmatched now and then
        prev.clusters.push_back({cs[7].name, 2, {}});
        if (i % 3 == 0 && !first.clusters.empty())
            prev.evicting = {first.clusters.front().name};
        prev.observed_affinity_name = first.affinity_name;
        with_targets += first.clusters.empty() ? 0 : 1;
        for (std::int32_t replicas : {w.replicas + 3, std::max(1, w.replicas - 2)}) {
            auto scaled = w;
            scaled.replicas = replicas;
            CHECK(placement_of(schedule(spec, scaled, snap, shared, &prev)) == placement_of(schedule(spec, scaled, snap, {}, &prev)));
            ++compared;
        }
    }
    CHECK(compared == 240);
    CHECK(with_targets > 100);
}
