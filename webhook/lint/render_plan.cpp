// SPDX-License-Identifier: Apache-2.0
// The placement diff as text, `terraform plan` style: one line per workload that moves, then a summary.
#include "lint/render.hpp"

#include <ostream>

namespace kpw::lint {

void render_plan(const placement_diff& d, std::ostream& out)
{
    out << "placement diff against --base:\n";
    for (const auto& c : d.changes)
        out << "  " << change_sign(c.kind) << ' ' << workload_label(c.workload) << ": " << change_detail(c) << '\n';
    out << diff_summary_line(d) << '\n';
}

void render_text_with_plan(const report& r, std::ostream& out)
{
    render_text(r, out);
    if (r.diff)
        render_plan(*r.diff, out);
}

} // namespace kpw::lint
