// SPDX-License-Identifier: Apache-2.0
// backoff: the delays between retries as client-go's reflector spaces them (tools/cache/reflector.go,
// NewReflectorWithOptions: wait.Backoff{800ms, factor 2.0, jitter 1.0, cap 30s}.DelayWithReset(clock, 2min);
// k8s.io/apimachinery pkg/util/wait/backoff.go: delay() and backoffManager.Step()).
#pragma once

#include <chrono>
#include <functional>

namespace kpw::kube {

struct backoff_policy {
    std::chrono::milliseconds initial{800};
    std::chrono::milliseconds cap{30'000};
    // Back to `initial` when this long has passed since the last reset (not since the last delay: as
    // apimachinery's backoffManager, whose lastStart moves only on a reset).
    std::chrono::milliseconds reset{120'000};
    double factor = 2.0;
    double jitter = 1.0; // each delay is d + random[0,1) * jitter * d, so d..2d with 1.0
};

class backoff {
public:
    using clock = std::chrono::steady_clock;
    // `now` and `random` (a value in [0, 1)) are injectable for tests; the defaults are the steady
    // clock and a seeded generator.
    explicit backoff(backoff_policy policy = {}, std::function<clock::time_point()> now = {},
                     std::function<double()> random = {});

    // The next delay to wait: initial, then times `factor` up to `cap` (then cap each time), each jittered.
    std::chrono::milliseconds next();

private:
    backoff_policy policy_;
    std::function<clock::time_point()> now_;
    std::function<double()> random_;
    std::chrono::milliseconds duration_;
    bool capped_ = false;
    clock::time_point last_reset_;
};

} // namespace kpw::kube
