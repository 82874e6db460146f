// SPDX-License-Identifier: Apache-2.0
// Webster apportionment and karmada's uid-driven tie-breaker.
#include <doctest/doctest.h>

#include "scheduling/webster.hpp"

using namespace kpw::scheduling;

namespace {

std::vector<std::int32_t> deal(std::int32_t seats, std::vector<party> parties, name_order order = name_order::ascending)
{
    return allocate_webster(seats, parties, order);
}

} // namespace

TEST_CASE("FNV-1a 32 matches the reference vectors")
{
    CHECK(fnv1a_32("") == 0x811c9dc5u);
    CHECK(fnv1a_32("a") == 0xe40c292cu);
    CHECK(fnv1a_32("foobar") == 0xbf9cf968u);
}

TEST_CASE("the uid parity picks the name order: empty and \"a\" ascending, \"b\" descending")
{
    CHECK(name_order_for_uid("") == name_order::ascending);
    CHECK(name_order_for_uid("a") == name_order::ascending);
    CHECK(name_order_for_uid("b") == name_order::descending);
    // Odd exactly when the uid holds an even number of odd-valued bytes.
    CHECK(name_order_for_uid("ab") == name_order::ascending);
    CHECK(name_order_for_uid("ac") == name_order::descending);
}

TEST_CASE("the Sainte-Lague classic: 8 seats over 100000/80000/30000/20000 give 3/3/1/1")
{
    CHECK(deal(8, {{"A", 100000}, {"B", 80000}, {"C", 30000}, {"D", 20000}}) == std::vector<std::int32_t>{3, 3, 1, 1});
    CHECK(deal(4, {{"Alpha", 1200}, {"Beta", 900}, {"Gamma", 400}}) == std::vector<std::int32_t>{2, 1, 1});
}

TEST_CASE("on an equal priority the party with fewer seats wins before the name order")
{
    // After a gets 1 seat (3/3 = 1.0) and b none (1/1 = 1.0), b wins the tie on fewer seats.
    CHECK(deal(2, {{"a", 3}, {"b", 1}}) == std::vector<std::int32_t>{1, 1});
    CHECK(deal(2, {{"a", 3}, {"b", 1}}, name_order::descending) == std::vector<std::int32_t>{1, 1});
}

TEST_CASE("equal parties split a remainder by name order")
{
    CHECK(deal(3, {{"m1", 5}, {"m2", 5}}) == std::vector<std::int32_t>{2, 1});
    CHECK(deal(3, {{"m1", 5}, {"m2", 5}}, name_order::descending) == std::vector<std::int32_t>{1, 2});
}

TEST_CASE("zero-vote parties get seats only when nobody else has a positive priority")
{
    CHECK(deal(4, {{"a", 0}, {"b", 3}}) == std::vector<std::int32_t>{0, 4});
    CHECK(deal(3, {{"a", 0}, {"b", 0}, {"c", 0}}) == std::vector<std::int32_t>{1, 1, 1});
}

TEST_CASE("no seats or no parties deal nothing")
{
    CHECK(deal(0, {{"a", 1}}) == std::vector<std::int32_t>{0});
    CHECK(deal(5, {}).empty());
}
