// SPDX-License-Identifier: Apache-2.0
// The objects of a stream of Kubernetes objects as lint reads them, for the targets that schedule (schedule, reschedule).
#pragma once

#include <cstddef>
#include <string_view>
#include <vector>

#include "doc/load.hpp"
#include "model/policy.hpp"
#include "model/workload.hpp"
#include "scheduling/binding_inventory.hpp"
#include "scheduling/inventory.hpp"

namespace kpw::fuzz {

struct stream_inputs {
    scheduling::cluster_inventory clusters; // sealed
    std::vector<model::workload> workloads;
    std::vector<model::policy> policies;    // admitted ones, as stored (CRD + mutating defaults)
    scheduling::binding_inventory bindings; // sealed
};

// How many of each kind are kept: bounds that keep one input in milliseconds (the interesting shapes
// are small); 0 bindings leaves ResourceBindings to the other readers, which ignore them.
struct stream_limits {
    std::size_t policies = 4, workloads = 8, bindings = 0;
};

// `text` read as lint reads a snapshot (doc::load_documents: one JSON object through RapidJSON, else a
// YAML stream). Policies, documents or a List's items as lint takes them, through validate_manifest
// (only a policy Karmada would admit is scheduled); every other document offered to the cluster
// inventory, the workload reader and the binding inventory (each takes its own kinds, in Lists too).
// Issues are dropped: the targets check what is kept. False when `text` does not load (nothing read).
bool read_stream_inputs(std::string_view text, const stream_limits& limits, stream_inputs& in);

} // namespace kpw::fuzz
