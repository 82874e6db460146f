// SPDX-License-Identifier: Apache-2.0
// Generic object-metadata checks the API server applies before any webhook (validation-rules §4.2).
#include "rules/rules.hpp"

#include "rules/label_key.hpp"

namespace kpw::rules {

void validate_object_name(const model::object_meta& meta, field::error_list& errs)
{
    const field::path at = field::path::root("metadata").child("name");
    if (meta.name.empty()) {
        // generateName lets the server pick the name (kubectl create); the generated name is valid.
        if (meta.generate_name.empty())
            errs.push_back(field::required(at, "name or generateName is required"));
        return;
    }
    for (auto& msg : dns1123_subdomain_errors(meta.name))
        errs.push_back(field::invalid(at, field::go_quote(meta.name), std::move(msg)));
}

} // namespace kpw::rules
