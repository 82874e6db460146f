// SPDX-License-Identifier: Apache-2.0
// Filter plugins: a passing and a failing cluster for each, and the reasons a failed group reports.
#include <doctest/doctest.h>

#include "fixtures.hpp"
#include "scheduling/filter.hpp"

using namespace kpw;
using namespace kpw::scheduling;
using namespace kpw::scheduling::test;

namespace {

model::selector_requirement req(std::string key, std::string op, std::vector<std::string> values = {})
{
    return {std::move(key), std::move(op), std::move(values)};
}

model::cluster_affinity by_labels(model::label_selector s)
{
    model::cluster_affinity a;
    a.label_selector = std::move(s);
    return a;
}

model::cluster_affinity by_fields(std::vector<model::selector_requirement> reqs)
{
    model::cluster_affinity a;
    a.field_selector = model::field_selector{std::move(reqs)};
    return a;
}

model::cluster located(std::string provider, std::string region, std::vector<std::string> zones)
{
    auto c = cluster("c", 10);
    c.provider = std::move(provider);
    c.region = std::move(region);
    c.zones = std::move(zones);
    return c;
}

} // namespace

TEST_CASE("clusterNames: a listed cluster passes, another fails, an empty list passes all")
{
    CHECK(cluster_matches(cluster("member1", 1), names({"member1", "member2"})));
    CHECK_FALSE(cluster_matches(cluster("member3", 1), names({"member1", "member2"})));
    CHECK(cluster_matches(cluster("member3", 1), names({})));
}

TEST_CASE("exclude beats clusterNames and labels")
{
    auto a = names({"member1"});
    a.exclude = {"member1"};
    CHECK_FALSE(cluster_matches(cluster("member1", 1), a));
    a.exclude = {"member2"};
    CHECK(cluster_matches(cluster("member1", 1), a));
}

TEST_CASE("labelSelector: matchLabels and each operator")
{
    auto c = cluster("m", 1, "", {{"env", "prod"}, {"tier", "gold"}});
    CHECK(cluster_matches(c, by_labels({{{"env", "prod"}}, {}})));
    CHECK_FALSE(cluster_matches(c, by_labels({{{"env", "dev"}}, {}})));
    CHECK(cluster_matches(c, by_labels({{}, {req("tier", "In", {"gold", "silver"})}})));
    CHECK_FALSE(cluster_matches(c, by_labels({{}, {req("tier", "In", {"bronze"})}})));
    CHECK(cluster_matches(c, by_labels({{}, {req("zone", "NotIn", {"a"})}}))); // absent key matches NotIn
    CHECK_FALSE(cluster_matches(c, by_labels({{}, {req("tier", "NotIn", {"gold"})}})));
    CHECK(cluster_matches(c, by_labels({{}, {req("env", "Exists")}})));
    CHECK_FALSE(cluster_matches(c, by_labels({{}, {req("gpu", "Exists")}})));
    CHECK(cluster_matches(c, by_labels({{}, {req("gpu", "DoesNotExist")}})));
    CHECK_FALSE(cluster_matches(c, by_labels({{}, {req("env", "DoesNotExist")}})));
    CHECK(cluster_matches(c, by_labels({}))); // {} matches everything
}

TEST_CASE("labelSelector that would not parse matches nothing")
{
    auto c = cluster("m", 1, "", {{"env", "prod"}});
    CHECK_FALSE(cluster_matches(c, by_labels({{}, {req("env", "In")}})));
    CHECK_FALSE(cluster_matches(c, by_labels({{}, {req("env", "Exists", {"prod"})}})));
    CHECK_FALSE(cluster_matches(c, by_labels({{}, {req("env", "Gt", {"1"})}})));
}

TEST_CASE("fieldSelector provider and region match as labels of a synthetic set")
{
    auto c = located("aws", "us-east-1", {});
    CHECK(cluster_matches(c, by_fields({req("provider", "In", {"aws", "gcp"})})));
    CHECK_FALSE(cluster_matches(c, by_fields({req("provider", "In", {"gcp"})})));
    CHECK(cluster_matches(c, by_fields({req("region", "NotIn", {"eu-west-1"})})));
    CHECK_FALSE(cluster_matches(c, by_fields({req("region", "NotIn", {"us-east-1"})})));
    auto bare = located("", "", {});
    CHECK(cluster_matches(bare, by_fields({req("region", "NotIn", {"x"})}))); // no region matches NotIn
    CHECK_FALSE(cluster_matches(bare, by_fields({req("provider", "In", {"aws"})})));
    CHECK_FALSE(cluster_matches(c, by_fields({req("name", "In", {"c"})}))); // unknown key: In fails
    CHECK(cluster_matches(c, by_fields({req("name", "NotIn", {"c"})})));   // ... and NotIn passes
}

TEST_CASE("fieldSelector zone is matched against the zone list")
{
    auto c = located("aws", "us-east-1", {"us-east-1a", "us-east-1b"});
    CHECK(cluster_matches(c, by_fields({req("zone", "In", {"us-east-1b"})})));
    CHECK_FALSE(cluster_matches(c, by_fields({req("zone", "In", {"us-east-1c"})})));
    CHECK_FALSE(cluster_matches(c, by_fields({req("zone", "NotIn", {"us-east-1a"})})));
    CHECK(cluster_matches(c, by_fields({req("zone", "NotIn", {"us-east-1c"})})));
    auto none = located("aws", "us-east-1", {});
    CHECK_FALSE(cluster_matches(none, by_fields({req("zone", "In", {"us-east-1a"})})));
    CHECK(cluster_matches(none, by_fields({req("zone", "NotIn", {"us-east-1a"})})));
    CHECK_FALSE(cluster_matches(c, by_fields({req("zone", "Gt", {"1"})})));
}

TEST_CASE("taints: NoSchedule and NoExecute need a toleration, PreferNoSchedule does not")
{
    auto c = cluster("m", 1);
    c.taints = {{"cluster.karmada.io/not-ready", "", "NoSchedule"}};
    CHECK(untolerated_taint(c, {}) != nullptr);
    std::vector<model::toleration> exists{{"cluster.karmada.io/not-ready", "Exists", "", "NoSchedule", {}}};
    CHECK(untolerated_taint(c, exists) == nullptr);
    c.taints = {{"maintenance", "", "PreferNoSchedule"}};
    CHECK(untolerated_taint(c, {}) == nullptr);
    c.taints = {{"dedicated", "gpu", "NoExecute"}};
    CHECK(untolerated_taint(c, std::vector<model::toleration>{{"dedicated", "Equal", "cpu", "", {}}}) != nullptr);
    CHECK(untolerated_taint(c, std::vector<model::toleration>{{"dedicated", "", "gpu", "", {}}}) == nullptr);
    CHECK(untolerated_taint(c, std::vector<model::toleration>{{"dedicated", "Exists", "", "NoSchedule", {}}}) != nullptr);
    CHECK(untolerated_taint(c, std::vector<model::toleration>{{"", "Exists", "", "", {}}}) == nullptr);
    CHECK(untolerated_taint(c, std::vector<model::toleration>{{"", "", "gpu", "", {}}}) == nullptr); // empty key: any
    CHECK(untolerated_taint(c, std::vector<model::toleration>{{"dedicated", "Gt", "gpu", "", {}}}) != nullptr);
}

TEST_CASE("API enablement: the group version must list the kind; absence fails")
{
    auto c = cluster("m", 1);
    CHECK(api_enabled(c, "apps/v1", "Deployment"));
    CHECK_FALSE(api_enabled(c, "apps/v1", "DaemonSet"));
    CHECK_FALSE(api_enabled(c, "batch/v1", "Job"));
    c.api_enablements.clear();
    CHECK_FALSE(api_enabled(c, "apps/v1", "Deployment"));
}

TEST_CASE("spread constraint fields: provider, region and zone need a value; cluster and labels do not")
{
    auto c = located("", "", {});
    std::vector<model::spread_constraint> region{{"region", "", 0, 1}};
    CHECK(missing_spread_field(c, region) == "region");
    CHECK(missing_spread_field(located("", "r1", {}), region).empty());
    std::vector<model::spread_constraint> zone{{"zone", "", 0, 1}};
    CHECK(missing_spread_field(c, zone) == "zone");
    CHECK(missing_spread_field(located("", "", {"z"}), zone).empty());
    std::vector<model::spread_constraint> provider{{"provider", "", 0, 1}};
    CHECK(missing_spread_field(c, provider) == "provider");
    CHECK(missing_spread_field(located("aws", "", {}), provider).empty());
    std::vector<model::spread_constraint> other{{"cluster", "", 0, 1}, {"", "team", 0, 1}};
    CHECK(missing_spread_field(c, other).empty());
}

TEST_CASE("a failed group names the clusters that failed a filter and those missing from the snapshot")
{
    auto spec = duplicated_spec();
    spec.placement.cluster_affinities = {term("dc-shanghai", {"unavailable"}),
                                         term("dc-beijing", {"member1", "member2"})};
    auto tainted = cluster("member1", 5);
    tainted.taints = {{"cluster.karmada.io/not-ready", "", "NoSchedule"}};
    auto deleting = cluster("member2", 5);
    deleting.deleting = true;
    auto d = schedule(spec, deployment(2), std::vector<model::cluster>{tainted, deleting});
    CHECK_FALSE(d.scheduled);
    REQUIRE(d.failures.size() == 2);
    CHECK(d.failures[0].str() == "dc-shanghai: no cluster passed the filters (unavailable: not in the snapshot)");
    CHECK(d.failures[1].str() == "dc-beijing: no cluster passed the filters (member1: taint "
                                 "cluster.karmada.io/not-ready:NoSchedule not tolerated, member2: being deleted)");
    CHECK(d.message == "no affinity group can host the workload");
}

TEST_CASE("the Ready condition is never read: a not-ready cluster without taints still gets replicas")
{
    auto c = cluster("member1", 5);
    c.ready = "False";
    auto d = schedule(duplicated_spec(), deployment(2), std::vector<model::cluster>{c});
    REQUIRE(d.scheduled);
    CHECK(split(d) == replicas_map{{"member1", 2}});
}

TEST_CASE("legacy default tolerations cover NoExecute only")
{
    auto c = cluster("member1", 5);
    c.taints = {{"cluster.karmada.io/not-ready", "", "NoExecute"}};
    std::vector<model::cluster> cs{c};
    CHECK_FALSE(schedule(duplicated_spec(), deployment(1), cs).scheduled);
    options legacy;
    legacy.legacy_default_tolerations = true;
    CHECK(schedule(duplicated_spec(), deployment(1), cs, legacy).scheduled);
    cs[0].taints[0].effect = "NoSchedule";
    CHECK_FALSE(schedule(duplicated_spec(), deployment(1), cs, legacy).scheduled);
}

TEST_CASE("a workload whose API the cluster lacks is filtered with the reason")
{
    auto w = deployment(1);
    w.api_version = "batch/v1";
    w.kind = "Job";
    auto d = schedule(duplicated_spec(), w, std::vector<model::cluster>{cluster("member1", 5)});
    CHECK_FALSE(d.scheduled);
    CHECK(d.message == "no cluster passed the filters (member1: API batch/v1/Job not enabled)");
}
