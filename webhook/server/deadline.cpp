// SPDX-License-Identifier: Apache-2.0
// One re-armed-when-needed timer per connection.
#include "server/deadline.hpp"

#include <algorithm>

#include <boost/asio/error.hpp>

namespace kpw::server {

void deadline::set(clock::duration d)
{
    limit_ = clock::now() + d;
    if (armed_ == clock::time_point{} || limit_ < armed_)
        arm(limit_);
}

void deadline::arm(clock::time_point at)
{
    armed_ = at;
    timer_.expires_at(at);
    // `this` is a member of the owner: alive whenever the owner is.
    timer_.async_wait([owner = owner_, this](boost::system::error_code ec) {
        if (auto alive = owner.lock())
            on_timer(ec);
    });
}

void deadline::on_timer(boost::system::error_code ec)
{
    if (ec == boost::asio::error::operation_aborted)
        return; // re-armed: a newer wait is pending
    const auto now = clock::now();
    armed_ = {};
    if (now < limit_)
        return arm(std::min(limit_, now + max_step_));
    expired_ = true;
    boost::system::error_code ignored;
    if (socket_)
        socket_->close(ignored);
}

} // namespace kpw::server
