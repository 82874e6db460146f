// SPDX-License-Identifier: Apache-2.0
// kube::backoff: client-go's reflector delays (wait.Backoff{800ms, x2, jitter 1.0, cap 30s} with a 2 min
// reset), on an injected clock and random source.
#include "kube/backoff.hpp"

#include <doctest/doctest.h>

#include <vector>

using namespace kpw::kube;
using namespace std::chrono_literals;

namespace {

struct fake_clock {
    backoff::clock::time_point now{};
    std::function<backoff::clock::time_point()> fn()
    {
        return [this] { return now; };
    }
};

} // namespace

TEST_CASE("backoff: without jitter, 800 ms doubling to the 30 s cap, then the cap")
{
    fake_clock t;
    backoff_policy p;
    p.jitter = 0;
    backoff b(p, t.fn());
    std::vector<long long> got;
    for (int i = 0; i < 9; ++i)
        got.push_back(b.next().count());
    CHECK(got == std::vector<long long>{800, 1600, 3200, 6400, 12800, 25600, 30000, 30000, 30000});
}

TEST_CASE("backoff: jitter 1.0 adds up to the delay again (client-go's wait.Jitter), never below it")
{
    fake_clock t;
    double r = 0.0;
    backoff b({}, t.fn(), [&] { return r; });
    CHECK(b.next() == 800ms);
    r = 0.5;
    CHECK(b.next() == 2400ms); // 1600 + 0.5 x 1600
    r = 0.999;
    CHECK(b.next() == 6396ms); // 3200 + 0.999 x 3200, rounded down
    backoff capped({}, t.fn(), [] { return 0.999; });
    for (int i = 0; i < 6; ++i)
        capped.next();
    CHECK(capped.next() == 59970ms); // at the cap: 30 s .. 60 s, as the reflector's comment says
}

TEST_CASE("backoff: back to 800 ms once 2 minutes have passed since the last reset")
{
    fake_clock t;
    backoff_policy p;
    p.jitter = 0;
    backoff b(p, t.fn());
    CHECK(b.next() == 800ms);
    t.now += 100s;
    CHECK(b.next() == 1600ms);
    t.now += 19s; // 119 s since the start: no reset yet
    CHECK(b.next() == 3200ms);
    t.now += 2s; // 121 s since the last reset (the start), though only 2 s since the last delay
    CHECK(b.next() == 800ms);
    t.now += 60s;
    CHECK(b.next() == 1600ms);
}
