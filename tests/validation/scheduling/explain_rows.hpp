// SPDX-License-Identifier: Apache-2.0
// The considered row of one cluster in an explained group (the explain and component-explain suites).
#pragma once

#include <string>

#include <doctest/doctest.h>

#include "scheduling/simulator.hpp"

namespace kpw::scheduling::test {

inline const considered_cluster& row(const group_outcome& g, const std::string& name)
{
    for (const auto& c : g.considered)
        if (c.name == name)
            return c;
    FAIL("no considered row for " << name);
    return g.considered.front();
}

} // namespace kpw::scheduling::test
