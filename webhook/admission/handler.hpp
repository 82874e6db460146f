// SPDX-License-Identifier: Apache-2.0
// admission::handler: the one-method interface a webhook path is served by.
#pragma once

#include "admission/types.hpp"

namespace kpw::admission {

// Called concurrently from several server threads: implementations must be const and thread-safe.
// Returns a decision for every request; throwing is a bug (the server answers 500 and logs it).
class handler {
public:
    virtual ~handler() = default;
    virtual response handle(const request& req) const = 0;
};

} // namespace kpw::admission
