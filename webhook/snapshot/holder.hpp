// SPDX-License-Identifier: Apache-2.0
// holder: the current snapshot, swapped whole on reload while request threads keep reading the old one.
#pragma once

#include <atomic>
#include <memory>

#include "snapshot/load.hpp"

namespace kpw::snapshot {

// A request takes one reference for its whole evaluation, so a reload never changes the snapshot
// under it; the previous state is freed when its last reader finishes.
class holder {
public:
    holder() = default;
    explicit holder(std::shared_ptr<const state> initial) : current_(std::move(initial)) {}

    std::shared_ptr<const state> current() const { return current_.load(std::memory_order_acquire); }
    void replace(std::shared_ptr<const state> next) { current_.store(std::move(next), std::memory_order_release); }

private:
    std::atomic<std::shared_ptr<const state>> current_;
};

} // namespace kpw::snapshot
