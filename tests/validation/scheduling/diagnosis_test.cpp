// SPDX-License-Identifier: Apache-2.0
// Karmada's FitError text: each plugin's reason, the histogram rules, and the worked examples of day2 §2.5.
#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <random>
#include <set>

#include "fixtures.hpp"
#include "scheduling/diagnosis.hpp"
#include "scheduling/filter.hpp"

using namespace kpw;
using namespace kpw::scheduling;
using namespace kpw::scheduling::test;

namespace {

model::cluster tainted(std::string name, model::taint t, model::label_map labels = {})
{
    auto c = cluster(std::move(name), 10, {}, std::move(labels));
    c.taints = {std::move(t)};
    return c;
}

model::propagation_spec prod_only()
{
    model::propagation_spec spec;
    model::cluster_affinity a;
    a.label_selector = model::label_selector{{{"env", "prod"}}, {}};
    spec.placement.cluster_affinity = a;
    return spec;
}

// The one group's single failure list for cluster `name` after a schedule with explain on.
const considered_cluster& row(const decision& d, std::size_t group, const std::string& name)
{
    for (const auto& c : d.groups.at(group).considered)
        if (c.name == name)
            return c;
    FAIL("no considered row for " << name);
    return d.groups.front().considered.front();
}

} // namespace

TEST_CASE("the histogram sorts byte-wise, so 10 comes before 2, and equal counts are ordered by text")
{
    std::vector<std::string> reasons(10, "zeta");
    reasons.insert(reasons.end(), {"alpha", "alpha"});
    CHECK(fit_error_text(12, reasons) == "0/12 clusters are available: 10 zeta, 2 alpha.");
    std::array<std::string, 2> tie{"b reason", "a reason"};
    CHECK(fit_error_text(5, tie) == "0/5 clusters are available: 1 a reason, 1 b reason.");
}

TEST_CASE("no reason at all, or no cluster, reads no cluster exists")
{
    CHECK(fit_error_text(0, {}) == "0/0 clusters are available: no cluster exists.");
    std::vector<model::cluster> cs{cluster("member1", 5), cluster("member2", 5)};
    for (auto& c : cs)
        c.deleting = true;
    auto d = schedule(duplicated_spec(), deployment(1), snapshot(cs));
    CHECK(d.condition_reason == "NoClusterFit");
    CHECK(d.condition_message == "0/2 clusters are available: no cluster exists.");
}

TEST_CASE("example A: mixed reasons, a deleting cluster counted in N only")
{
    std::vector<model::cluster> cs{
        tainted("member1", {"cluster.karmada.io/not-ready", "", "NoSchedule"}, {{"env", "prod"}}),
        tainted("member2", {"cluster.karmada.io/not-ready", "", "NoSchedule"}, {{"env", "prod"}}),
        cluster("member3", 10, {}, {{"env", "dev"}}), cluster("member4", 10, {}, {{"env", "prod"}})};
    cs[3].deleting = true;
    auto d = schedule(prod_only(), deployment(2), snapshot(cs));
    REQUIRE_FALSE(d.scheduled);
    CHECK(d.condition_reason == "NoClusterFit");
    CHECK(d.condition_message ==
          "0/4 clusters are available: 1 cluster(s) did not match the placement cluster affinity constraint, 2 "
          "cluster(s) had untolerated taint {cluster.karmada.io/not-ready:NoSchedule}.");
    CHECK(d.condition_alternatives.empty());
    REQUIRE(d.groups.size() == 1);
    CHECK(d.groups[0].outcome == "fit-error");
    CHECK(d.groups[0].error == d.condition_message);
    // The project's own line is unchanged beside it.
    CHECK(d.message == "no cluster passed the filters (member1: taint cluster.karmada.io/not-ready:NoSchedule not "
                       "tolerated, member2: taint cluster.karmada.io/not-ready:NoSchedule not tolerated, member4: "
                       "being deleted)");
}

TEST_CASE("different taints are counted separately")
{
    std::vector<model::cluster> cs{tainted("a", {"maintenance", "", "NoSchedule"}),
                                   tainted("b", {"maintenance", "planned", "NoSchedule"}),
                                   tainted("c", {"maintenance", "", "NoSchedule"})};
    auto d = schedule(duplicated_spec(), deployment(1), snapshot(cs));
    CHECK(d.condition_message == "0/3 clusters are available: 1 cluster(s) had untolerated taint "
                                 "{maintenance=planned:NoSchedule}, 2 cluster(s) had untolerated taint "
                                 "{maintenance:NoSchedule}.");
}

TEST_CASE("taints render as Taint.ToString does")
{
    CHECK(taint_string({"k", "v", "NoExecute"}) == "k=v:NoExecute");
    CHECK(taint_string({"k", "", "NoSchedule"}) == "k:NoSchedule");
    CHECK(taint_string({"k", "v", ""}) == "k=v:");
    CHECK(taint_string({"k", "", ""}) == "k");
}

TEST_CASE("each filter plugin reports Karmada's reason and the project's detail")
{
    auto no_api = cluster("no-api", 5);
    no_api.api_enablements.clear();
    auto no_zone = cluster("no-zone", 5);
    no_zone.provider = "aws";
    std::vector<model::cluster> cs{no_api, tainted("tainted", {"gpu", "busy", "NoExecute"}), no_zone,
                                   cluster("evicted", 5), cluster("elsewhere", 5)};
    cs[2].region = "r";
    auto spec = duplicated_spec();
    spec.placement.cluster_affinity = names({"no-api", "tainted", "no-zone", "evicted"});
    spec.placement.spread_constraints = {{"zone", "", 1, 1}};
    previous_result prev;
    prev.evicting = {"evicted"};
    options opts;
    opts.explain = true;
    auto d = schedule(spec, deployment(1), snapshot(cs), opts, &prev);
    REQUIRE_FALSE(d.scheduled);
    auto check = [&](const std::string& name, filter_plugin p, const std::string& reason, const std::string& detail) {
        const auto& r = row(d, 0, name);
        CHECK_FALSE(r.passed);
        REQUIRE_FALSE(r.failures.empty());
        CHECK(r.failures.front().plugin == p);
        CHECK(r.failures.front().reason == reason);
        CHECK(r.failures.front().detail == detail);
    };
    check("no-api", filter_plugin::api_enablement, "cluster(s) did not have the API resource",
          "API apps/v1/Deployment not enabled");
    check("tainted", filter_plugin::taint_toleration, "cluster(s) had untolerated taint {gpu=busy:NoExecute}",
          "taint gpu=busy:NoExecute not tolerated");
    check("no-zone", filter_plugin::spread_constraint, "cluster(s) did not have zones property",
          "no zone for the spread constraint");
    // Every cluster lacks zones, so the evicted one fails SpreadConstraint first and ClusterEviction too.
    const auto& evicted = row(d, 0, "evicted");
    REQUIRE(evicted.failures.size() == 2);
    CHECK(evicted.failures[1].plugin == filter_plugin::cluster_eviction);
    CHECK(evicted.failures[1].reason == "cluster(s) is in the process of eviction");
    // A cluster the affinity does not select fails ClusterAffinity; it counts in the FitError, not in considered.
    auto f = d.groups[0].considered;
    CHECK(std::none_of(f.begin(), f.end(), [](const considered_cluster& c) { return c.name == "elsewhere"; }));
    CHECK(d.condition_message.find("cluster(s) did not match the placement cluster affinity constraint") !=
          std::string::npos);
}

TEST_CASE("a cluster failing several plugins gives one text per plugin order")
{
    std::vector<plugin_failure> both{{filter_plugin::taint_toleration, "T", ""},
                                     {filter_plugin::cluster_eviction, "E", ""}};
    std::vector<plugin_failure> affinity{{filter_plugin::cluster_affinity, "A", ""}};
    std::vector<std::vector<plugin_failure>> per_cluster{both, affinity, affinity};
    auto diag = diagnose_fit(3, per_cluster);
    CHECK(diag.text == "0/3 clusters are available: 1 T, 2 A.");
    CHECK(diag.alternatives == std::vector<std::string>{"0/3 clusters are available: 1 E, 2 A."});
}

namespace {

// The definition, order by order: each cluster counts the reason of the first plugin it fails in that
// order; diagnose_fit must give exactly these texts, however it avoids building all 120.
std::set<std::string> every_order_text(std::size_t all, const std::vector<std::vector<plugin_failure>>& per_cluster)
{
    std::array<int, 5> order{0, 1, 2, 3, 4};
    std::set<std::string> texts;
    do {
        std::vector<std::string> reasons;
        for (const auto& list : per_cluster) {
            if (list.empty())
                continue;
            const plugin_failure* first = &list.front();
            for (const auto& f : list)
                if (order[static_cast<std::size_t>(f.plugin)] < order[static_cast<std::size_t>(first->plugin)])
                    first = &f;
            reasons.push_back(first->reason);
        }
        texts.insert(fit_error_text(all, reasons));
    } while (std::next_permutation(order.begin(), order.end()));
    return texts;
}

} // namespace

TEST_CASE("the texts of all plugin orders, built once per distinct choice, are those of every order built alone")
{
    std::minstd_rand rng(16);
    const std::array<std::string, 4> reasons{"R", "S", "T", "U"};
    for (int round = 0; round < 200; ++round) {
        const std::size_t clusters = 1 + rng() % 7;
        std::vector<std::vector<plugin_failure>> per_cluster(clusters);
        for (auto& list : per_cluster)
            for (auto p : all_filter_plugins)
                if (rng() % 3 == 0) // two reasons per plugin, some shared across plugins
                    list.push_back({p, reasons[(static_cast<std::size_t>(p) + rng() % 2) % reasons.size()], ""});
        const auto expected = every_order_text(clusters + 1, per_cluster);
        const auto diag = diagnose_fit(clusters + 1, per_cluster);
        std::set<std::string> got(diag.alternatives.begin(), diag.alternatives.end());
        CHECK(got.size() == diag.alternatives.size());
        CHECK(got.count(diag.text) == 0);
        got.insert(diag.text);
        CHECK(got == expected);
        // The printed text is the registry order's.
        std::vector<std::string> registry;
        for (const auto& list : per_cluster)
            if (!list.empty())
                registry.push_back(list.front().reason);
        CHECK(diag.text == fit_error_text(clusters + 1, registry));
    }
}

TEST_CASE("example C: the primary term's FitError has two possible texts and backup places 3/3")
{
    auto member1 = tainted("member1", {"maintenance", "", "NoExecute"});
    std::vector<model::cluster> cs{member1, cluster("member2", 4), cluster("member3", 3)};
    auto spec = aggregated_spec();
    spec.placement.cluster_affinities = {term("primary", {"member1"}), term("backup", {"member2", "member3"})};
    previous_result prev;
    prev.observed_affinity_name = "primary";
    prev.evicting = {"member1"};
    auto d = schedule(spec, deployment(6), snapshot(cs), {}, &prev);
    REQUIRE(d.scheduled);
    CHECK(d.affinity_name == "backup");
    CHECK(split(d) == replicas_map{{"member2", 3}, {"member3", 3}});
    REQUIRE(d.groups.size() == 2);
    CHECK(d.groups[0].diagnosis ==
          "0/3 clusters are available: 1 cluster(s) had untolerated taint {maintenance:NoExecute}, 2 cluster(s) did "
          "not match the placement cluster affinity constraint.");
    CHECK(d.groups[0].diagnosis_alternatives ==
          std::vector<std::string>{"0/3 clusters are available: 1 cluster(s) is in the process of eviction, 2 "
                                   "cluster(s) did not match the placement cluster affinity constraint."});
    CHECK(d.groups[1].outcome == "scheduled");
    CHECK(d.condition_message.empty());
}

TEST_CASE("example C variant: backup short of capacity, so the first term's FitError decides and clears")
{
    auto member1 = tainted("member1", {"maintenance", "", "NoExecute"});
    std::vector<model::cluster> cs{member1, cluster("member2", 2), cluster("member3", 2)};
    auto spec = aggregated_spec();
    spec.placement.cluster_affinities = {term("primary", {"member1"}), term("backup", {"member2", "member3"})};
    previous_result prev;
    prev.observed_affinity_name = "primary";
    prev.evicting = {"member1"};
    auto d = schedule(spec, deployment(6), snapshot(cs), {}, &prev);
    REQUIRE_FALSE(d.scheduled);
    CHECK(d.groups[1].outcome == "assignment");
    CHECK(d.condition_reason == "NoClusterFit");
    CHECK(d.condition_message == d.groups[0].diagnosis);
    CHECK(d.condition_alternatives.size() == 1);
    CHECK_FALSE(d.keeps_previous);
}
