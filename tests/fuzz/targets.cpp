// SPDX-License-Identifier: Apache-2.0
// The target table and the invariant reporter.
#include "targets.hpp"

#include <cstdio>
#include <cstdlib>

namespace kpw::fuzz {

std::span<const target> all_targets()
{
    static constexpr target table[] = {
        {"admission_review", &admission_review},
        {"manifest", &manifest},
        {"http_request", &http_request},
        {"schedule", &schedule},
        {"bindings", &bindings},
        {"scenario", &scenario},
        {"reschedule", &reschedule},
        {"kubeconfig", &kubeconfig},
        {"watch_event", &watch_event},
        {"proxy_url", &proxy_url},
        {"karmada_release", &karmada_release},
        {"member_state", &member_state},
    };
    return table;
}

void invariant_failed(std::string_view target, std::string_view what)
{
    std::fprintf(stderr, "fuzz target %.*s: invariant violated: %.*s\n", static_cast<int>(target.size()),
                 target.data(), static_cast<int>(what.size()), what.data());
    std::abort();
}

} // namespace kpw::fuzz
