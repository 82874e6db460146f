// SPDX-License-Identifier: Apache-2.0
// wait_until: bounded polling for a condition (never a blind sleep).
#pragma once

#include <chrono>
#include <thread>

namespace kpw::test {

template <class F>
bool wait_until(F condition, int timeout_ms)
{
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
    while (!condition()) {
        if (std::chrono::steady_clock::now() >= deadline)
            return false;
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    return true;
}

} // namespace kpw::test
