// SPDX-License-Identifier: Apache-2.0
// -o markdown: summary first, tables, warnings folded, the cap at 50 rows, escaping, --link-base links.
#include <sstream>

#include <doctest/doctest.h>

#include "lint/render.hpp"
#include "render_test_support.hpp"

using namespace kpw::lint;

namespace {

std::string markdown(const report& r)
{
    std::ostringstream out;
    render_markdown(r, out);
    return out.str();
}

std::size_t count(const std::string& text, std::string_view needle)
{
    std::size_t n = 0;
    for (auto at = text.find(needle); at != std::string::npos; at = text.find(needle, at + needle.size()))
        ++n;
    return n;
}

// sample_report with a scheduled workload and a one-change diff.
report with_placements()
{
    report r = kpw::test::sample_report();
    scheduling_result s;
    s.workload = {"apps/v1", "Deployment", "shop", "cart", 6};
    s.scheduled = true;
    s.affinity_name = "idc";
    s.clusters = {{"idc-east-1", 4, "idc", 4, {}}, {"cloud-east-1", 2, "public-cloud", 30, {}}};
    r.results[1].scheduling.push_back(s);
    placement_diff d;
    workload_change c;
    c.workload = {"apps/v1", "Deployment", "shop", "cart"};
    c.before = {true, "ClusterPropagationPolicy all", "idc", true, {{"idc-east-1", 6, "idc", {}}}, {}};
    c.after = {true, "ClusterPropagationPolicy all", "idc", true,
               {{"idc-east-1", 4, "idc", {}}, {"cloud-east-1", 2, "public-cloud", {}}}, {}};
    c.moves = {{"idc-east-1", 6, 4}, {"cloud-east-1", 0, 2}};
    d.changes.push_back(c);
    d.unchanged = 12;
    r.diff = d;
    return r;
}

} // namespace

TEST_CASE("markdown puts the verdict and the summary first, then the denials as a table")
{
    const std::string md = markdown(with_placements());
    CHECK(md.starts_with("## Karmada policy lint: failed\n\n4 documents, 3 policies, 2 denied"));
    CHECK(md.find("**Placement diff:** 1 workload changes placement, 12 unchanged") < md.find("### Denied (2)"));
    CHECK(md.find("| policy | location | error |\n|---|---|---|\n") != std::string::npos);
    CHECK(md.find("| PropagationPolicy shop/web | policies/shop.yaml:14 |") != std::string::npos);
    // A finding without a position points at the policy's first line.
    CHECK(md.find("| PropagationPolicy shop/web | policies/shop.yaml:3 | spec.resourceSelectors: Required value |") !=
          std::string::npos);
    CHECK(md.find("| (unreadable file) | policies/broken.yaml:2 |") != std::string::npos);
}

TEST_CASE("markdown folds warnings and scheduled placements in details, shows unschedulable and the diff open")
{
    const std::string md = markdown(with_placements());
    CHECK(md.find("<details><summary>Warnings (1)</summary>\n\n| policy | location | warning | id |") !=
          std::string::npos);
    CHECK(md.find("### Unschedulable (1)") != std::string::npos);
    CHECK(md.find("| Deployment shop/web | 3 | ClusterPropagationPolicy all | - | 0/2 clusters are available |") !=
          std::string::npos);
    CHECK(md.find("<details><summary>Placements (1 scheduled workloads)</summary>") != std::string::npos);
    CHECK(md.find("| idc | idc-east-1 4 (idc), cloud-east-1 2 (public-cloud) |") != std::string::npos);
    // The reviewer's question first: the diff comes before the unschedulable list and the folded parts.
    CHECK(md.find("### Placement diff\n") < md.find("### Unschedulable (1)"));
    CHECK(md.find("### Unschedulable (1)") < md.find("<details>"));
    CHECK(md.find("| \\~ | Deployment shop/cart | idc-east-1 6 → 4, \\+ cloud-east-1 2 \\(public-cloud\\) |") !=
          std::string::npos);
    CHECK(count(md, "<details>") == count(md, "</details>"));
}

TEST_CASE("markdown caps a table at 50 rows and says how many more there are")
{
    report r = kpw::test::sample_report();
    for (int i = 0; i < 120; ++i)
        r.results[0].warnings.push_back({"term-repeated", "spec.placement", "warning " + std::to_string(i), {40, 3}});
    r.totals.warnings = 121;
    const std::string md = markdown(r);
    CHECK(count(md, "| term-repeated |") == 49); // 50 rows: the sample's own warning and 49 of these
    CHECK(md.find("_and 71 more (the HTML report or `-o json` lists all)_") != std::string::npos);
}

TEST_CASE("markdown escapes names and messages and links file:line under --link-base")
{
    report r = kpw::test::sample_report();
    r.results[2].name = "<img src=x onerror=alert(1)>|@team";
    r.link_base = "https://github.com/o/r/blob/abc/";
    const std::string md = markdown(r);
    CHECK(md.find("<img") == std::string::npos);
    CHECK(md.find("&lt;img src=x onerror=alert\\(1\\)&gt;\\|&#64;team") != std::string::npos);
    // hostile_text: quotes, <&>, CR/LF and ]]> in a cell never break the table row.
    CHECK(md.find("100% sure: a, b &lt;&amp;&gt; &quot;q&quot; 'x'  next \\]\\]&gt; line |") != std::string::npos);
    CHECK(md.find("[policies/shop.yaml:14](https://github.com/o/r/blob/abc/policies/shop.yaml#L14)") !=
          std::string::npos);
    CHECK(md.find("(https://github.com/o/r/blob/abc/policies/odd%2C%20name%3A%25.yaml#L5)") != std::string::npos);
}
