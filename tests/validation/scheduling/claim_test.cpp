// SPDX-License-Identifier: Apache-2.0
// Claim rules: resource selectors and the detector's policy ranking (spec 1.2).
#include <doctest/doctest.h>

#include "fixtures.hpp"
#include "scheduling/claim.hpp"

using namespace kpw;
using namespace kpw::scheduling;
using namespace kpw::scheduling::test;

namespace {

model::resource_selector sel(std::string name = {}, std::optional<model::label_selector> labels = {},
                             std::string ns = {})
{
    return {"apps/v1", "Deployment", std::move(ns), std::move(name), std::move(labels)};
}

model::workload web()
{
    auto w = deployment(3);
    w.labels = {{"app", "web"}, {"tier", "front"}};
    return w;
}

model::propagation_spec selecting(std::vector<model::resource_selector> selectors, std::optional<std::int32_t> priority = {})
{
    model::propagation_spec s;
    s.resource_selectors = std::move(selectors);
    s.priority = priority;
    return s;
}

} // namespace

TEST_CASE("a selector matches on apiVersion, kind, namespace, then name or labels or everything")
{
    auto w = web();
    CHECK(selector_match(sel("web"), w) == match_priority::name);
    CHECK(selector_match(sel("other"), w) == match_priority::mismatch);
    // With a name, the labelSelector is ignored.
    CHECK(selector_match(sel("web", model::label_selector{{{"app", "nope"}}, {}}), w) == match_priority::name);
    CHECK(selector_match(sel({}, model::label_selector{{{"app", "web"}}, {}}), w) == match_priority::label_selector);
    CHECK(selector_match(sel({}, model::label_selector{{{"app", "db"}}, {}}), w) == match_priority::mismatch);
    CHECK(selector_match(sel(), w) == match_priority::match_all);
    CHECK(selector_match(sel("web", {}, "shop"), w) == match_priority::mismatch);
    CHECK(selector_match(sel("web", {}, "default"), w) == match_priority::name);
    auto other_kind = sel("web");
    other_kind.kind = "StatefulSet";
    CHECK(selector_match(other_kind, w) == match_priority::mismatch);
    auto other_version = sel("web");
    other_version.api_version = "apps/v1beta1";
    CHECK(selector_match(other_version, w) == match_priority::mismatch);
}

TEST_CASE("a labelSelector with matchExpressions claims by expression")
{
    model::label_selector s{{}, {{"tier", "In", {"front", "edge"}}}};
    CHECK(selector_match(sel({}, s), web()) == match_priority::label_selector);
    s.match_expressions[0].op = "NotIn";
    CHECK(selector_match(sel({}, s), web()) == match_priority::mismatch);
}

TEST_CASE("ranking: priority first, then the selector match, then the smaller name")
{
    auto by_name = selecting({sel("web")});
    auto by_labels = selecting({sel({}, model::label_selector{{{"app", "web"}}, {}})});
    auto all = selecting({sel()});
    auto all_high = selecting({sel()}, 5);
    std::vector<policy_view> pols{{&all, "default", "a-all", false}, {&by_labels, "default", "b-labels", false},
                                  {&by_name, "default", "c-name", false}};
    CHECK(claiming_policy(pols, web()) == 2u);
    pols.push_back({&all_high, "default", "z-high", false});
    CHECK(claiming_policy(pols, web()) == 3u);
    std::vector<policy_view> tied{{&by_name, "default", "zeta", false}, {&by_name, "default", "alpha", false}};
    CHECK(claiming_policy(tied, web()) == 1u);
}

TEST_CASE("a namespaced policy beats any cluster policy and only claims its own namespace")
{
    auto high = selecting({sel("web")}, 100);
    auto low = selecting({sel()});
    std::vector<policy_view> pols{{&high, "", "cpp", true}, {&low, "default", "pp", false}};
    CHECK(claiming_policy(pols, web()) == 1u);
    std::vector<policy_view> elsewhere{{&high, "", "cpp", true}, {&low, "shop", "pp", false}};
    CHECK(claiming_policy(elsewhere, web()) == 0u);
    std::vector<policy_view> none{{&low, "shop", "pp", false}};
    CHECK_FALSE(claiming_policy(none, web()));
}
