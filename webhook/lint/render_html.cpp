// SPDX-License-Identifier: Apache-2.0
// --report FILE.html: one self-contained page (inline CSS, SVG, a little plain JS; the CSP forbids any
// network access): the placements as bars, the diff before/after, the findings, a workload filter.
#include "lint/render.hpp"

#include <ostream>

#include "lint/diff_report.hpp"
#include "lint/html.hpp"

namespace kpw::lint {
namespace {

using html::escape;

constexpr std::string_view head = R"(<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy"
      content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'">
<script>window.addEventListener('error', function (e) {
  var d = document.documentElement;
  d.setAttribute('data-errors', (d.getAttribute('data-errors') || '') + e.message + ';');
});</script>
<title>Karmada placement report</title>
<style>
body{font:14px/1.4 system-ui,sans-serif;margin:1.5em;color:#1a202c;background:#fff}
h1{font-size:1.4em;margin:0 0 .3em} h2{font-size:1.15em;border-bottom:1px solid #e2e8f0;margin-top:1.5em}
h3{font-size:1em;margin:.2em 0} h4{margin:.2em 0;font-size:.85em;text-transform:uppercase;color:#4a5568}
.summary{color:#4a5568} #q{width:24em;padding:.3em;font:inherit}
.workload{border:1px solid #e2e8f0;border-radius:6px;padding:.6em .8em;margin:.6em 0}
.rows{display:flex;flex-wrap:wrap;gap:2em} .placement{min-width:300px}
.state,.legend{margin:.2em 0} .skipped{margin:.2em 0;color:#718096;font-size:.9em}
.skipped ul{margin:0;padding-left:1.4em}
.legend span{margin-right:1em;font-size:.85em} .legend i{display:inline-block;width:.8em;height:.8em;margin-right:.3em}
svg text{font-size:12px;fill:#2d3748} rect.capacity{fill:#e2e8f0} .bad{color:#c53030} .sign{font-family:monospace}
.change .detail{font-family:monospace;color:#4a5568}
table{border-collapse:collapse} td,th{border:1px solid #e2e8f0;padding:.25em .5em;text-align:left;vertical-align:top}
.error{color:#c53030} .warning{color:#b7791f}
</style></head><body>
)";

// Reads #q=... (or ?q=...) into the search box, then hides every workload whose text does not contain it.
constexpr std::string_view script = R"(<script>
(function () {
  var q = document.getElementById('q');
  var items = document.querySelectorAll('.workload');
  function apply() {
    var needle = q.value.toLowerCase(), shown = 0;
    items.forEach(function (w) {
      var hit = w.getAttribute('data-search').toLowerCase().indexOf(needle) >= 0;
      w.hidden = !hit; shown += hit ? 1 : 0;
    });
    document.getElementById('shown').textContent = shown + ' of ' + items.length + ' shown';
  }
  var m = /[#?&]q=([^&]*)/.exec(location.hash + location.search);
  if (m) q.value = decodeURIComponent(m[1].replace(/\+/g, ' '));
  q.addEventListener('input', apply);
  apply();
  document.body.setAttribute('data-ready', '1');
})();
</script>
)";

std::string location(const report& r, const std::string& file, position where)
{
    const std::string text = escape(ci_path(file)) + line_suffix(where);
    const std::string url = source_link(r.link_base, file, where.line);
    return url.empty() ? text : "<a href=\"" + escape(url) + "\">" + text + "</a>";
}

void finding_row(std::ostream& out, const report& r, const policy_result& p, const finding& f, const char* severity)
{
    out << "<tr class=\"" << severity << "\"><td>" << severity << "</td><td>"
        << location(r, p.file, f.where.known() ? f.where : p.start) << "</td><td>" << escape(policy_label(p))
        << "</td><td>" << escape(f.str()) << (f.id.empty() ? "" : " <small>[" + escape(f.id) + "]</small>")
        << "</td></tr>\n";
}

void findings(std::ostream& out, const report& r)
{
    out << "<h2>Findings</h2>\n<table id=\"findings\"><tr><th>severity</th><th>location</th><th>policy</th>"
           "<th>message</th></tr>\n";
    for (const auto& e : r.file_errors)
        out << "<tr class=\"error\"><td>error</td><td>" << location(r, e.file, e.where) << "</td><td></td><td>"
            << escape(e.message) << "</td></tr>\n";
    for (const auto& w : r.snapshot_warnings)
        out << "<tr class=\"warning\"><td>warning</td><td>" << location(r, w.file, w.where) << "</td><td></td><td>"
            << escape(w.message) << " <small>[" << escape(w.id) << "]</small></td></tr>\n";
    for (const auto& p : r.results) {
        for (const auto& e : p.errors)
            finding_row(out, r, p, e, "error");
        for (const auto& w : p.warnings)
            finding_row(out, r, p, w, "warning");
    }
    out << "</table>\n";
}

std::string search_text(const workload_key& w, const std::string& policy)
{
    return escape(workload_label(w) + ' ' + policy);
}

void diff_section(std::ostream& out, const placement_diff& d)
{
    out << "<h2>Placement diff</h2>\n<p class=\"summary\" id=\"diff-summary\">" << escape(diff_summary_line(d))
        << "</p>\n";
    for (const auto& c : d.changes) {
        out << "<article class=\"workload change\" data-search=\""
            << search_text(c.workload, c.before.policy + ' ' + c.after.policy) << "\"><h3><span class=\"sign\">"
            << change_sign(c.kind) << "</span> " << escape(workload_label(c.workload)) << " (" << c.replicas
            << " replicas)</h3><p class=\"detail\">" << escape(change_detail(c)) << "</p>";
        const html::labelled_placement rows[] = {{"before", &c.before}, {"after", &c.after}};
        html::placement_rows(out, rows, c.replicas);
        out << "</article>\n";
    }
}

void workloads_section(std::ostream& out, const report& r)
{
    out << "<h2>Placements</h2>\n";
    for (const auto& p : r.results)
        for (const auto& s : p.scheduling) {
            const placement where = placement_of(p, s);
            out << "<article class=\"workload placed\" data-search=\"" << search_text(key_of(s.workload), where.policy)
                << "\"><h3>" << escape(workload_label(key_of(s.workload))) << " (" << s.workload.replicas
                << " replicas)</h3>";
            if (!s.message.empty())
                out << "<p class=\"detail\">" << escape(s.message) << "</p>";
            const html::labelled_placement rows[] = {{r.diff ? "after" : "placement", &where}};
            html::placement_rows(out, rows, s.workload.replicas);
            out << "</article>\n";
        }
}

} // namespace

void render_html(const report& r, std::ostream& out)
{
    out << head << "<h1>Karmada placement report</h1>\n<p class=\"summary\" id=\"summary\">"
        << escape(summary_line(r)) << "</p>\n"
        << "<p><input id=\"q\" type=\"search\" placeholder=\"filter workloads (name, namespace, policy)\" "
           "aria-label=\"filter workloads\"> <span id=\"shown\"></span></p>\n";
    if (r.diff)
        diff_section(out, *r.diff);
    workloads_section(out, r);
    findings(out, r);
    out << script << "</body></html>\n";
}

} // namespace kpw::lint
