// SPDX-License-Identifier: Apache-2.0
// The placement diff (`lint --base`): per workload, what changes between two placements of the same snapshot.
#pragma once

#include <compare>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace kpw::lint {

// One cluster of a placement: replicas and the tier (primary or overflow affinityName) they come from.
struct placed_cluster {
    std::string name;
    std::int64_t replicas = 0;
    std::string tier;
    std::optional<std::int64_t> available; // the estimator's answer, when known (drawn behind HTML bars)
};

// One workload's outcome on one side, as plain data: a dry-run result or a binding's spec.clusters.
struct placement {
    bool claimed = false;      // a policy claims the workload (false: nothing propagates it)
    std::string policy;        // "PropagationPolicy shop/web"
    std::string affinity_name; // the group; "" for a plain clusterAffinity
    bool scheduled = false;
    std::vector<placed_cluster> clusters;
    std::vector<std::string> skipped_groups; // groups tried before the chosen one, with the reason
    // The change deletes the policy that held it and none claims it now: the binding keeps its clusters
    // and no policy (`policy` names the deleted one).
    bool released = false;
    std::string released_why{}; // "is deleted" | "no longer selects it"
    std::string ignored{};      // karmada-scheduler never queues its binding (another scheduler's name): why
};

struct workload_key {
    std::string api_version, kind, namespace_name, name;
    auto operator<=>(const workload_key&) const = default;
};

// A placement with its workload: one side of the diff is a list of these.
struct placed_workload {
    workload_key workload;
    std::int64_t replicas = 0;
    placement where;
};

// A cluster whose replica count changes (0 where the cluster is absent on that side).
struct replica_move {
    std::string cluster;
    std::int64_t from = 0, to = 0;
};

enum class change_kind { added, removed, changed }; // + claimed only after, - claimed only before, ~ both

struct workload_change {
    workload_key workload;
    std::int64_t replicas = 0;
    change_kind kind = change_kind::changed;
    placement before, after;
    std::vector<replica_move> moves;
};

struct placement_diff {
    std::vector<workload_change> changes; // workloads whose outcome changes, in workload order
    int unchanged = 0;                    // workloads claimed on either side with the same outcome
    int becomes_unschedulable = 0;        // scheduled before, claimed but unschedulable after
    int becomes_schedulable = 0;          // claimed but unschedulable before, scheduled after
};

// Compares two sides workload by workload (same snapshot): a workload on one side only is unclaimed on
// the other. Policy, group, scheduled and the clusters (name, replicas, tier) count; capacity does not.
placement_diff diff_placements(std::span<const placed_workload> before, std::span<const placed_workload> after);

// "3 workloads change placement, 1 becomes unschedulable, 12 unchanged" (no newline).
std::string diff_summary_line(const placement_diff& d);

// '+', '-' or '~' for a change.
char change_sign(change_kind k);

// "Deployment shop/web"
std::string workload_label(const workload_key& w);

// "idc-east-1 6 → 4, + cloud-east-1 2 (public-cloud)": the placement's change in one line, with the policy,
// group and scheduled state first when they change.
std::string change_detail(const workload_change& c);

// --fail-on: which outcome of a diff run exits 1.
enum class fail_on { unschedulable, move, none };

} // namespace kpw::lint
