// SPDX-License-Identifier: Apache-2.0
// Spread constraint rules S1-S6 (validation-rules §6.6), judged after the M2/M3 defaults.
#include "rules/rules.hpp"

#include <map>

#include "model/encode.hpp"

namespace kpw::rules {

// karmada: pkg/util/validation/validation.go ValidateSpreadConstraint
void validate_spread_constraints(const std::vector<model::spread_constraint>& constraints, const field::path& at,
                                 field::error_list& errs)
{
    std::map<std::string_view, int> seen_fields;
    bool any_field = false;
    for (std::size_t i = 0; i < constraints.size(); ++i) {
        const auto& c = constraints[i];
        const field::path item = at.index(i);
        // Reported on the constraint; positioned at the member to change.
        auto fail = [&](std::string_view member, std::string msg) {
            errs.push_back(field::located(field::invalid(item, model::go_json(c), std::move(msg)), item.child(member)));
        };
        if (!c.spread_by_field.empty() && !c.spread_by_label.empty())
            fail("spreadByLabel", "spreadByLabel should not co-exist with spreadByField");
        if (c.min_groups < 0)
            fail("minGroups", "minGroups lower than 0 is not allowed");
        if (c.max_groups < 0)
            fail("maxGroups", "maxGroups lower than 0 is not allowed");
        if (c.max_groups > 0 && c.max_groups < c.min_groups)
            fail("maxGroups", "maxGroups lower than minGroups is not allowed");
        if (c.spread_by_field.empty())
            continue;
        any_field = true;
        // Reported once per value, on its second occurrence (later repeats would render identically):
        // on the whole list, positioned at that second spreadByField.
        if (++seen_fields[c.spread_by_field] == 2)
            errs.push_back(field::located(
                field::invalid(at, model::go_json(constraints),
                               "multiple " + c.spread_by_field + " spread constraints are not allowed"),
                item.child("spreadByField")));
    }
    if (any_field && !seen_fields.contains(model::spread_by_field_cluster))
        errs.push_back(field::invalid(at, model::go_json(constraints),
                                      "the cluster spread constraint must be enabled in one of the constraints in "
                                      "case of SpreadByField is enabled"));
}

} // namespace kpw::rules
