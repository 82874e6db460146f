// SPDX-License-Identifier: Apache-2.0
// Output formats of `lint -o`: one report model, one renderer file per format.
#pragma once

#include <iosfwd>
#include <span>
#include <string>
#include <string_view>

#include "lint/report.hpp"

namespace kpw::lint {

struct output_format {
    std::string_view name;
    std::string_view description;
    void (*render)(const report&, std::ostream&);
};

// Every format lint knows, in the order --help lists them.
std::span<const output_format> output_formats();
const output_format* find_output_format(std::string_view name);

void render_text(const report& r, std::ostream& out);
void render_json(const report& r, std::ostream& out);
void render_junit(const report& r, std::ostream& out);
void render_sarif(const report& r, std::ostream& out);
void render_github(const report& r, std::ostream& out);
// -o markdown: GitHub-flavoured Markdown (summary first, capped tables, warnings and placements folded).
void render_markdown(const report& r, std::ostream& out);
// --report FILE.html: one self-contained page (inline CSS, SVG and a little JS; nothing from the network).
void render_html(const report& r, std::ostream& out);

// -o text with --base: the text report, then the placement diff (render_plan).
void render_text_with_plan(const report& r, std::ostream& out);
// The diff `terraform plan` style: "  ~ Deployment shop/web: idc-east-1 6 → 4, ...", then diff_summary_line;
// `against` names the base side ("--base", or the server for `plan`).
void render_plan(const placement_diff& d, std::string_view against, std::ostream& out);

// `plan`: "  + PropagationPolicy shop/web (create)" lines, one per object PATH touches, under the heading
// "<what> on the server once applied:" (what: "policies", "workloads").
void render_policy_plan(const std::vector<policy_plan_row>& rows, std::ostream& out, std::string_view what);
// '+' create, '~' change or apply, '=' unchanged, '!' denied, '-' delete.
char policy_plan_sign(const std::string& action);

// A report file name as CI tools want it: repository-relative (relative to the working directory),
// forward slashes, no leading "./". Names outside the working directory and "<stdin>" stay as given.
std::string ci_path(std::string_view file);

// "PropagationPolicy shop/web", "ClusterPropagationPolicy all": how every format names a policy.
std::string policy_label(const policy_result& p);

// --link-base: "URL/<ci_path(file)>#L<line>" with the path percent-encoded; "" without a link base.
std::string source_link(const std::string& link_base, const std::string& file, int line);

// ":14" for a known position, "" otherwise: how the Markdown and HTML reports name a place in a file.
std::string line_suffix(position where);

// The one-line run summary ("3 documents, 2 policies, 1 denied, ..."), without a newline.
std::string summary_line(const report& r);

} // namespace kpw::lint
