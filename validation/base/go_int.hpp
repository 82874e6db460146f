// SPDX-License-Identifier: Apache-2.0
// Go's integer arithmetic, which wraps on overflow (two's complement), where C++'s signed overflow is
// undefined behaviour. Karmada sums requests, capacities and replica counts in int64 and int32; going
// through these, an absurd input (a request of 2^63-1m times 4 replicas) gets Go's answer.
#pragma once

#include <cstdint>

namespace kpw::go {

constexpr std::int64_t add(std::int64_t a, std::int64_t b)
{
    return static_cast<std::int64_t>(static_cast<std::uint64_t>(a) + static_cast<std::uint64_t>(b));
}

constexpr std::int64_t sub(std::int64_t a, std::int64_t b)
{
    return static_cast<std::int64_t>(static_cast<std::uint64_t>(a) - static_cast<std::uint64_t>(b));
}

constexpr std::int64_t mul(std::int64_t a, std::int64_t b)
{
    return static_cast<std::int64_t>(static_cast<std::uint64_t>(a) * static_cast<std::uint64_t>(b));
}

// int32 addition, the second operand converted as Go's int32(x) does (its low 32 bits).
constexpr std::int32_t add32(std::int32_t a, std::int64_t b)
{
    return static_cast<std::int32_t>(static_cast<std::uint32_t>(a) + static_cast<std::uint32_t>(b));
}

// Go's int32(x) of an int64: its low 32 bits (Karmada's estimators convert their int64 answers so).
constexpr std::int32_t int32(std::int64_t v)
{
    return static_cast<std::int32_t>(static_cast<std::uint32_t>(static_cast<std::uint64_t>(v)));
}

static_assert(add(INT64_MAX, 1) == INT64_MIN);
static_assert(sub(INT64_MIN, 1) == INT64_MAX);
static_assert(mul(INT64_MAX, 4) == -4);
static_assert(add32(INT32_MAX, 1) == INT32_MIN);
static_assert(int32(5000000000) == 705032704);
static_assert(int32(4294967295) == -1);

} // namespace kpw::go
