// SPDX-License-Identifier: Apache-2.0
// Webster apportionment over a binary heap, with the uid-derived name order on exact ties.
#include "scheduling/webster.hpp"

#include <algorithm>

namespace kpw::scheduling {

std::uint32_t fnv1a_32(std::string_view data)
{
    std::uint32_t h = 2166136261u;
    for (unsigned char c : data) {
        h ^= c;
        h *= 16777619u;
    }
    return h;
}

name_order name_order_for_uid(std::string_view uid)
{
    if (uid.empty())
        return name_order::ascending;
    return fnv1a_32(uid) % 2 == 0 ? name_order::ascending : name_order::descending;
}

namespace {

struct entry {
    std::size_t index;
    std::int32_t seats;
};

class higher_priority {
public:
    higher_priority(std::span<const party> parties, name_order order) : parties_(parties), order_(order) {}

    // true when a should be dealt the next seat before b.
    bool operator()(const entry& a, const entry& b) const
    {
        // Go: float64(votes) / float64(2*seats+1); IEEE division is the same in C++.
        double pa = static_cast<double>(parties_[a.index].votes) / static_cast<double>(2 * std::int64_t(a.seats) + 1);
        double pb = static_cast<double>(parties_[b.index].votes) / static_cast<double>(2 * std::int64_t(b.seats) + 1);
        if (pa != pb)
            return pa > pb;
        if (a.seats != b.seats)
            return a.seats < b.seats;
        auto na = parties_[a.index].name, nb = parties_[b.index].name;
        return order_ == name_order::ascending ? na < nb : na > nb;
    }

private:
    std::span<const party> parties_;
    name_order order_;
};

} // namespace

std::vector<std::int32_t> allocate_webster(std::int32_t seats, std::span<const party> parties, name_order order)
{
    std::vector<std::int32_t> out(parties.size(), 0);
    if (parties.empty() || seats <= 0)
        return out;
    std::vector<entry> heap;
    heap.reserve(parties.size());
    for (std::size_t i = 0; i < parties.size(); ++i)
        heap.push_back({i, 0});
    higher_priority first(parties, order);
    // std heaps put the "largest" on top; the comparator must say "a ranks below b".
    auto below = [&](const entry& a, const entry& b) { return first(b, a); };
    std::make_heap(heap.begin(), heap.end(), below);
    for (std::int32_t s = 0; s < seats; ++s) {
        std::pop_heap(heap.begin(), heap.end(), below);
        ++heap.back().seats;
        std::push_heap(heap.begin(), heap.end(), below);
    }
    for (const auto& e : heap)
        out[e.index] = e.seats;
    return out;
}

} // namespace kpw::scheduling
