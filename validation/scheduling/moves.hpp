// SPDX-License-Identifier: Apache-2.0
// Replica moves between two placements (spec.clusters before and after), compared as sets.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "model/binding.hpp"

namespace kpw::scheduling {

struct replica_move {
    std::string cluster;
    std::int64_t from = 0; // 0 where the cluster is absent
    std::int64_t to = 0;
    friend bool operator==(const replica_move&, const replica_move&) = default;
};

// Every cluster whose replica count differs, or that appears or disappears (a non-workload's
// clusters carry 0 replicas, so for it only appearing and disappearing count), in name order.
// Karmada's spec.clusters order carries no meaning (day2-semantics §1.2), so neither does the input's.
std::vector<replica_move> moves_between(std::span<const model::target_cluster> before,
                                        std::span<const model::target_cluster> after);

} // namespace kpw::scheduling
