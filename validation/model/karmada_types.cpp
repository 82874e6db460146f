// SPDX-License-Identifier: Apache-2.0
#include "model/karmada_types.hpp"

#include <string>

#include "schema/go_types.hpp"

namespace kpw::model {

void check_karmada_type(const doc::value& object, std::string_view go_type, std::string_view kind,
                        field::error_list& errors)
{
    auto bad = schema::go_type_check(object, go_type);
    if (!bad)
        return;
    field::error e = field::internal(bad->at, "Karmada's clientsets cannot decode this " + std::string(kind) + ": " +
                                                  bad->message);
    e.locate_at = bad->at.str();
    errors.push_back(std::move(e));
}

} // namespace kpw::model
