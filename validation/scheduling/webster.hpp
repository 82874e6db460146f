// SPDX-License-Identifier: Apache-2.0
// Webster (Sainte-Laguë) apportionment with karmada's tie-breaker (spec 3.8).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace kpw::scheduling {

// The order in which equal-priority, equal-seat parties win: karmada derives it from the workload uid.
enum class name_order { ascending, descending };

// karmada: pkg/util/helper/binding.go — ascending for an empty uid or an even 32-bit FNV-1a hash,
// descending for an odd hash.
name_order name_order_for_uid(std::string_view uid);

std::uint32_t fnv1a_32(std::string_view data);

struct party {
    std::string_view name;
    std::int64_t votes = 0;
};

// karmada: pkg/util/helper/webstermethod.go AllocateWebsterSeats. Deals `seats` one at a time to the
// party with the highest votes/(2*seats+1), computed in float64 exactly as Go does; on an equal priority
// fewer seats win, then the name order. Returns the seats per party, in the input order.
std::vector<std::int32_t> allocate_webster(std::int32_t seats, std::span<const party> parties, name_order order);

} // namespace kpw::scheduling
