// SPDX-License-Identifier: Apache-2.0
// --report HTML: self-contained, one bar per cluster with its replicas, the diff side by side, escaping.
#include <sstream>

#include <doctest/doctest.h>

#include "lint/render.hpp"
#include "render_test_support.hpp"

using namespace kpw::lint;

namespace {

const std::string hostile = "<script>alert(\"x\")</script>'";

std::string html_of(const report& r)
{
    std::ostringstream out;
    render_html(r, out);
    return out.str();
}

std::size_t count(const std::string& text, std::string_view needle)
{
    std::size_t n = 0;
    for (auto at = text.find(needle); at != std::string::npos; at = text.find(needle, at + needle.size()))
        ++n;
    return n;
}

// A policy, workload, cluster, tier and message all named `hostile`, scheduled and changed by a diff.
report hostile_report()
{
    report r = kpw::test::sample_report();
    r.results[0].name = hostile;
    scheduling_result s;
    s.workload = {"apps/v1", "Deployment", hostile, hostile, 5};
    s.scheduled = true;
    s.affinity_name = hostile;
    s.message = hostile;
    s.attempts = {hostile + ": no cluster fits"};
    s.clusters = {{hostile, 3, hostile, 3, {}}, {"cloud", 2, "public-cloud", 40, {}}};
    r.results[0].scheduling.push_back(s);
    placement_diff d;
    workload_change c;
    c.workload = {"apps/v1", "Deployment", hostile, hostile};
    c.replicas = 5;
    c.before = {true, hostile, hostile, true, {{hostile, 5, hostile, {}}}, {}};
    c.after = {true, hostile, hostile, true, {{hostile, 3, hostile, {}}, {"cloud", 2, "public-cloud", {}}}, {}};
    c.moves = {{hostile, 5, 3}, {"cloud", 0, 2}};
    d.changes.push_back(c);
    r.diff = d;
    return r;
}

} // namespace

TEST_CASE("the HTML report renders every input string as text: a policy named <script> stays text")
{
    const std::string page = html_of(hostile_report());
    CHECK(count(page, "<script>") == 2); // the error hook and the filter, nothing from the input
    CHECK(page.find("<script>alert") == std::string::npos);
    CHECK(page.find("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&#39;") != std::string::npos);
    CHECK(page.find(kpw::test::hostile_text) == std::string::npos);
    CHECK(page.find("]]&gt; line") != std::string::npos);
}

TEST_CASE("the HTML report is self-contained: a CSP without network sources and no external reference")
{
    const std::string page = html_of(hostile_report());
    CHECK(page.find("content=\"default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'\"") !=
          std::string::npos);
    CHECK(page.find("src=") == std::string::npos);
    CHECK(page.find("<link") == std::string::npos);
    CHECK(page.find("http://") == std::string::npos);
}

TEST_CASE("the HTML report draws one bar per cluster with its replicas and the capacity behind it")
{
    const std::string page = html_of(hostile_report());
    // The diff's before (1 cluster) and after (2), then the placements: this one (2), the sample's
    // unschedulable workload (none).
    CHECK(count(page, "<g class=\"bar\"") == 5);
    CHECK(count(page, "<div class=\"placement\" data-label=\"before\">") == 1);
    CHECK(count(page, "<div class=\"placement\" data-label=\"after\">") == 3);
    CHECK(page.find("data-cluster=\"cloud\" data-replicas=\"2\" data-tier=\"public-cloud\"") != std::string::npos);
    CHECK(count(page, "<rect class=\"capacity\"") == 2); // only the dry-run rows know their capacity
    CHECK(page.find("<title>available: 40</title>") != std::string::npos);
    CHECK(page.find("(overflow)") != std::string::npos);
}

TEST_CASE("the HTML report lists every finding with file:line, linked under --link-base")
{
    report r = kpw::test::sample_report();
    r.link_base = "https://example.com/blob/main";
    const std::string page = html_of(r);
    CHECK(count(page, "<tr class=\"error\">") == 5); // 2 unreadable files, 3 errors
    CHECK(count(page, "<tr class=\"warning\">") == 1);
    CHECK(page.find("<a href=\"https://example.com/blob/main/policies/shop.yaml#L14\">policies/shop.yaml:14</a>") !=
          std::string::npos);
}
