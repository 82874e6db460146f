// SPDX-License-Identifier: Apache-2.0
// Charging placed replicas to a cluster's resourceSummary between drill steps.
#include <doctest/doctest.h>

#include <limits>

#include "simulate/resources.hpp"

using namespace kpw;

namespace {

model::cluster with_summary()
{
    model::cluster c;
    c.name = "member1";
    c.resource_summary = model::resource_summary{
        {{"cpu", *model::parse_quantity("8")}, {"memory", *model::parse_quantity("32Gi")}, {"pods", *model::parse_quantity("110")}},
        {},
        {},
        {}};
    return c;
}

model::workload requesting(std::int64_t cpu_millis, std::int64_t memory_bytes)
{
    model::workload w;
    w.replicas = 3;
    w.request = {{"cpu", cpu_millis}, {"memory", memory_bytes}};
    w.has_requirements = true;
    return w;
}

} // namespace

TEST_CASE("charge adds each replica's request and a pod, and a release never drops below zero")
{
    auto c = with_summary();
    simulate::charge(c, requesting(500, 1LL << 30), 3);
    const auto& allocated = c.resource_summary->allocated;
    CHECK(allocated.at("cpu") == *model::parse_quantity("1500m"));
    CHECK(allocated.at("memory") == *model::parse_quantity("3Gi"));
    CHECK(allocated.at("pods") == *model::parse_quantity("3"));
    simulate::charge(c, requesting(500, 1LL << 30), -5);
    CHECK(allocated.at("cpu") == model::quantity{});
    CHECK(allocated.at("pods") == model::quantity{});
}

TEST_CASE("an absurd request times a large scale-up is exact in 128 bits or saturates, never overflows")
{
    // INT64_MAX per replica x INT32_MAX replicas passes int64 (the product the old code took).
    auto c = with_summary();
    const auto huge = requesting(std::numeric_limits<std::int64_t>::max(), std::numeric_limits<std::int64_t>::max());
    simulate::charge(c, huge, std::numeric_limits<std::int32_t>::max());
    simulate::charge(c, huge, std::numeric_limits<std::int32_t>::max());
    const auto& allocated = c.resource_summary->allocated;
    // cpu: 2 x (2^63-1) x (2^31-1) millicores is 2.0e34 nano-units, inside a quantity: exact.
    const model::nano_int per_charge =
        model::nano_int(std::numeric_limits<std::int64_t>::max()) * std::numeric_limits<std::int32_t>::max() * 1'000'000;
    CHECK(allocated.at("cpu") == model::quantity::from_nanos(2 * per_charge));
    // memory: the same count of whole bytes is 2.0e37 nano-units, past what a quantity holds: saturated.
    CHECK(allocated.at("memory") == model::quantity::from_nanos(model::max_nanos));
    CHECK(allocated.at("pods") == *model::parse_quantity("4294967294"));
    for (int i = 0; i < 3; ++i)
        simulate::charge(c, huge, std::numeric_limits<std::int32_t>::min());
    CHECK(allocated.at("cpu") == model::quantity{});
    CHECK(allocated.at("memory") == model::quantity{});
    CHECK(allocated.at("pods") == model::quantity{});
}
