// SPDX-License-Identifier: Apache-2.0
// Live-session bookkeeping.
#include "server/connection_registry.hpp"

#include <vector>

#include "server/metrics.hpp"

namespace kpw::server {

void connection_registry::add(session_control* key, std::weak_ptr<session_control> session)
{
    std::lock_guard lock(mutex_);
    sessions_.emplace(key, std::move(session));
    if (stats_)
        stats_->set_open_connections(static_cast<std::int64_t>(sessions_.size()));
}

void connection_registry::remove(session_control* key)
{
    std::lock_guard lock(mutex_);
    sessions_.erase(key);
    if (stats_)
        stats_->set_open_connections(static_cast<std::int64_t>(sessions_.size()));
}

std::size_t connection_registry::size() const
{
    std::lock_guard lock(mutex_);
    return sessions_.size();
}

void connection_registry::stop_all()
{
    std::vector<std::shared_ptr<session_control>> live;
    {
        std::lock_guard lock(mutex_);
        live.reserve(sessions_.size());
        for (auto& [key, weak] : sessions_)
            if (auto s = weak.lock())
                live.push_back(std::move(s));
    }
    for (auto& s : live)
        s->stop();
}

} // namespace kpw::server
