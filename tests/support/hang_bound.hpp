// SPDX-License-Identifier: Apache-2.0
// The bound under which a run of lint on a hostile input counts as not hung, measured beside it.
#pragma once

#include <algorithm>
#include <chrono>
#include <string>

#include "support/process.hpp"

namespace kpw::test {

// How long a hostile file may take before lint counts as hung on it: ten times the slowest of three
// runs on a one-line valid policy in this same build and moment (an ASan build on a loaded machine is
// slower for both), and at least a second. A guard against hangs and blow-ups, not a speed figure: the
// speed of lint is measured by tests/bench/.
inline std::chrono::milliseconds hang_bound()
{
    static const std::chrono::milliseconds bound = [] {
        const std::string policy = "apiVersion: policy.karmada.io/v1alpha1\nkind: PropagationPolicy\n"
                                   "metadata: {name: web, namespace: shop}\nspec:\n  resourceSelectors: "
                                   "[{apiVersion: apps/v1, kind: Deployment, name: web}]\n";
        std::chrono::milliseconds slowest{0};
        for (int i = 0; i < 3; ++i)
            slowest = std::max(slowest, run_process({KPW_BINARY, "lint", "-"}, policy).elapsed);
        return std::max(std::chrono::milliseconds(1000), 10 * slowest);
    }();
    return bound;
}

} // namespace kpw::test
