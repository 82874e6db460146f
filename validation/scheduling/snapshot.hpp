// SPDX-License-Identifier: Apache-2.0
// A cluster snapshot prepared once for many dry runs: estimator inputs reduced to integers, names indexed.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "model/cluster.hpp"
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

private:
    std::span<const model::cluster> clusters_;
    resource_table table_;
    std::vector<prepared_cluster> prepared_;
    std::vector<std::string_view> sorted_names_;
    std::vector<std::uint32_t> rank_;
    std::vector<std::uint32_t> region_rank_;
    std::unordered_map<std::string, int> api_ids_;
    std::vector<std::vector<int>> apis_; // per cluster, sorted
};

} // namespace kpw::scheduling
