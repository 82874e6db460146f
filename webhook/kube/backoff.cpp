// SPDX-License-Identifier: Apache-2.0
#include "kube/backoff.hpp"

#include <memory>
#include <random>

namespace kpw::kube {

backoff::backoff(backoff_policy policy, std::function<clock::time_point()> now, std::function<double()> random)
    : policy_(policy), now_(std::move(now)), random_(std::move(random)), duration_(policy.initial)
{
    if (!now_)
        now_ = [] { return clock::now(); };
    if (!random_) {
        auto engine = std::make_shared<std::minstd_rand>(std::random_device{}());
        random_ = [engine] { return std::uniform_real_distribution<double>(0.0, 1.0)(*engine); };
    }
    last_reset_ = now_();
}

std::chrono::milliseconds backoff::next()
{
    const auto now = now_();
    if (now - last_reset_ > policy_.reset) {
        duration_ = policy_.initial;
        capped_ = false;
        last_reset_ = now;
    }
    const auto current = duration_;
    // wait.Backoff's delay(): the un-jittered duration grows by `factor` until it would pass the cap,
    // then stays at the cap; the jitter is applied to what is returned only.
    if (!capped_) {
        const auto grown = std::chrono::milliseconds(
            static_cast<std::chrono::milliseconds::rep>(static_cast<double>(duration_.count()) * policy_.factor));
        if (grown > policy_.cap) {
            duration_ = policy_.cap;
            capped_ = true;
        } else {
            duration_ = grown;
        }
    }
    if (policy_.jitter <= 0)
        return current;
    return current + std::chrono::milliseconds(static_cast<std::chrono::milliseconds::rep>(
                         random_() * policy_.jitter * static_cast<double>(current.count())));
}

} // namespace kpw::kube
