// SPDX-License-Identifier: Apache-2.0
// Structure-aware edits of the schedule target's input, for its libFuzzer custom mutator.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace kpw::fuzz {

// Loads `input` as the schedule target does (doc::load_documents; Lists are flattened into their items),
// makes one to three edits chosen by `seed` - a workload's replicas or requests, a cluster's capacity,
// region / zone / provider, a cluster copied or dropped, a policy's replica scheduling (Duplicated,
// Aggregated, static or dynamic weights), spread constraints or cluster affinity - and writes the
// objects back as one JSON List (read through RapidJSON, not the YAML scanner). nullopt when the input
// holds no document to edit; "" when the edits emptied every object.
// Loaded inputs and edited outputs are remembered (by hash) so the next edit of the same bytes skips
// the load; the edit is the same either way.
std::optional<std::string> edit_schedule_input(std::string_view input, std::uint32_t seed);

// Drops what edit_schedule_input remembers (tests compare remembered and fresh loads).
void forget_loaded_inputs();

} // namespace kpw::fuzz
