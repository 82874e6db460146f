// SPDX-License-Identifier: Apache-2.0
// A cluster snapshot prepared once for many dry runs: estimator inputs reduced to integers, names indexed.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "model/cluster.hpp"
#include "model/member_state.hpp"
#include "scheduling/accurate_estimator.hpp"
#include "scheduling/estimator.hpp"

namespace kpw::scheduling {

// Borrows the clusters: they must outlive the snapshot and stay unchanged.
class snapshot {
public:
    explicit snapshot(std::span<const model::cluster> clusters);

    std::span<const model::cluster> clusters() const { return clusters_; }
    const prepared_cluster& prepared(std::size_t index) const { return prepared_[index]; }
    const resource_table& resources() const { return table_; }
    bool contains(std::string_view name) const;
    // The cluster's position in name order: the canonical order's last key, compared as an integer.
    std::uint32_t name_rank(std::size_t index) const { return rank_[index]; }
    // The name rank of the cluster called `name`, or -1 when the snapshot has none.
    std::int64_t rank_of(std::string_view name) const;

    // The cluster's region as its place among the snapshot's distinct region names, in name order.
    std::uint32_t region_rank(std::size_t index) const { return region_rank_[index]; }

    // APIEnablement by interned "groupVersion/kind": -1 when no cluster serves it.
    int api_id(std::string_view api_version, std::string_view kind) const;
    bool api_enabled(std::size_t index, int api) const;

    // karmada-scheduler-estimator (--member-state): each cluster with a member state has one. Call before
    // the snapshot is shared; borrows `members` (it must outlive the snapshot). Without this call, or
    // with no member at all, the snapshot has no estimator: the general estimator alone, as before.
    void use_members(const model::member_states& members);
    bool has_estimators() const { return has_estimators_; }
    // The prepared nodes of cluster `index`, nullptr when it has no estimator.
    const prepared_member* member(std::size_t index) const
    {
        return index < members_.size() && members_[index] ? &*members_[index] : nullptr;
    }

private:
    std::span<const model::cluster> clusters_;
    resource_table table_;
    std::vector<prepared_cluster> prepared_;
    std::vector<std::string_view> sorted_names_;
    std::vector<std::uint32_t> rank_;
    std::vector<std::uint32_t> region_rank_;
    std::unordered_map<std::string, int> api_ids_;
    std::vector<std::vector<int>> apis_; // per cluster, sorted
    bool has_estimators_ = false;
    std::vector<std::optional<prepared_member>> members_; // per cluster
};

} // namespace kpw::scheduling
