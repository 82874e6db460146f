// SPDX-License-Identifier: Apache-2.0
// Karmada's dynamic division: scale up from the previous result, scale down by it, or divide afresh.
#include "scheduling/division.hpp"

#include <algorithm>

#include "base/go_int.hpp"
#include "scheduling/assign.hpp"

namespace kpw::scheduling {

void deal_webster(const std::vector<candidate>& selected, const std::vector<voter>& voters, std::int32_t seats,
                  name_order order, std::vector<std::int32_t>& shares)
{
    std::vector<party> parties;
    parties.reserve(voters.size());
    for (const auto& v : voters)
        parties.push_back({selected[v.index].cluster->name, v.votes});
    auto seats_of = allocate_webster(seats, parties, order);
    for (std::size_t i = 0; i < voters.size(); ++i)
        shares[voters[i].index] += seats_of[i];
}

assignment collect(const std::vector<candidate>& selected, const std::vector<std::int32_t>& shares)
{
    assignment out;
    for (std::size_t i = 0; i < selected.size(); ++i)
        if (shares[i] > 0)
            out.clusters.push_back({&selected[i], shares[i]});
    return out;
}

namespace {

// Go adds replica counts in int32 (util.GetSumOfReplicas, the Fresh votes), wrapping on overflow.
std::int32_t go_sum(const std::vector<voter>& voters)
{
    std::int32_t sum = 0;
    for (const auto& v : voters)
        sum = go::add32(sum, v.votes);
    return sum;
}

// The estimator's answer alone: on a first schedule available is exactly that (nothing is assigned).
std::int32_t allocatable_of(const candidate& c, division_mode mode)
{
    // On a first schedule nothing is assigned, so available is the int32 estimate.
    return mode == division_mode::first ? static_cast<std::int32_t>(c.available) : c.allocatable;
}

std::int32_t previous_of(const candidate& c, division_mode mode)
{
    return mode == division_mode::first ? 0 : c.current;
}

// karmada: TargetClustersList sorted by sort.Sort, replicas descending. For ≤ 12 entries Go's sort.Sort
// is an insertion sort and so stable; stable here for any size.
void sort_by_votes(std::vector<voter>& voters)
{
    std::stable_sort(voters.begin(), voters.end(), [](const voter& a, const voter& b) { return a.votes > b.votes; });
}

std::string not_enough(std::int32_t available)
{
    return "Clusters available replicas " + std::to_string(available) + " are not enough to schedule.";
}

// karmada: division_algorithm.go dynamicDivideReplicas. Checks the capacity, lets Aggregated keep the
// shortest prefix whose sum reaches `target` (the sum in int32, as Go), then deals `target` by Webster
// and adds the seats to `shares` (util.MergeTargetClusters with the previous result, if any).
std::string divide(const std::vector<candidate>& selected, std::vector<voter> voters, bool aggregated,
                   std::int32_t target, name_order order, std::vector<std::int32_t>& shares)
{
    auto available = go_sum(voters);
    if (available < target)
        return not_enough(available);
    if (aggregated) {
        std::int32_t sum = 0;
        for (std::size_t i = 0; i < voters.size(); ++i) {
            sum = go::add32(sum, voters[i].votes);
            if (sum >= target) {
                voters.resize(i + 1);
                break;
            }
        }
    }
    deal_webster(selected, voters, target, order, shares);
    return {};
}

// karmada: dynamicScaleUp. The extra replicas are dealt over the allocatable (free) replicas; Aggregated
// first moves the clusters with previous replicas to the front (assignState.resortAvailableClusters).
std::string scale_up(const std::vector<candidate>& selected, bool aggregated, std::int32_t delta, name_order order,
                     division_mode mode, std::vector<std::int32_t>& shares)
{
    std::vector<voter> voters;
    for (std::size_t i = 0; i < selected.size(); ++i)
        voters.push_back({i, allocatable_of(selected[i], mode)});
    sort_by_votes(voters);
    if (aggregated)
        std::stable_partition(voters.begin(), voters.end(), [&](const voter& v) { return shares[v.index] > 0; });
    return divide(selected, std::move(voters), aggregated, delta, order, shares);
}

// karmada: dynamicScaleDown. The previous counts are the votes, dealt from zero. Go sorts a copy of
// spec.clusters, which Karmada writes in name order (AllocateWebsterSeats sorts its parties by name), so
// equal counts keep name order here.
std::string scale_down(const std::vector<candidate>& selected, bool aggregated, std::int32_t replicas,
                       name_order order, std::vector<std::int32_t>& shares)
{
    std::vector<voter> voters;
    for (std::size_t i = 0; i < selected.size(); ++i)
        if (shares[i] > 0)
            voters.push_back({i, shares[i]});
    std::sort(voters.begin(), voters.end(), [&](const voter& a, const voter& b) {
        return a.votes != b.votes ? a.votes > b.votes : selected[a.index].name_rank < selected[b.index].name_rank;
    });
    std::fill(shares.begin(), shares.end(), 0);
    return divide(selected, std::move(voters), aggregated, replicas, order, shares);
}

// karmada: dynamicFreshScale. Votes = allocatable + current for every candidate, dealt from zero.
std::string fresh_scale(const std::vector<candidate>& selected, bool aggregated, std::int32_t replicas,
                        name_order order, std::vector<std::int32_t>& shares)
{
    std::vector<voter> voters;
    for (std::size_t i = 0; i < selected.size(); ++i)
        voters.push_back({i, go::add32(selected[i].allocatable, selected[i].current)});
    sort_by_votes(voters);
    std::fill(shares.begin(), shares.end(), 0);
    return divide(selected, std::move(voters), aggregated, replicas, order, shares);
}

} // namespace

assignment divide_dynamically(const std::vector<candidate>& selected, bool aggregated, std::int32_t replicas,
                              name_order order, division_mode mode, settings::karmada_release release)
{
    // assignment.go wraps the division's error: with %w (v1.18) it stays an UnschedulableError, with %v
    // (before) it is a plain error and the condition's reason is SchedulerError.
    const auto failed = [release](std::string error) {
        assignment out = unschedulable_assignment(std::move(error));
        out.unschedulable = settings::has(release, settings::changes::wrapped_division_errors);
        return out;
    };
    // assignState.buildScheduledClusters: the previous replicas of the clusters that are still selected.
    std::vector<std::int32_t> shares(selected.size(), 0);
    for (std::size_t i = 0; i < selected.size(); ++i)
        shares[i] = previous_of(selected[i], mode);
    std::string error;
    if (mode == division_mode::fresh) {
        error = fresh_scale(selected, aggregated, replicas, order, shares);
        if (!error.empty())
            return failed("failed to do fresh scale: " + error);
        return collect(selected, shares);
    }
    std::int32_t assigned = 0;
    for (auto s : shares)
        assigned = go::add32(assigned, s);
    if (assigned > replicas)
        error = scale_down(selected, aggregated, replicas, order, shares);
    else if (assigned < replicas)
        error = scale_up(selected, aggregated, replicas - assigned, order, mode, shares);
    if (!error.empty())
        return failed((assigned > replicas ? "failed to scale down: " : "failed to scale up: ") + error);
    return collect(selected, shares);
}

} // namespace kpw::scheduling
