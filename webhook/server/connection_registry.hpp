// SPDX-License-Identifier: Apache-2.0
// connection_registry: open connections, for the connection caps and graceful shutdown.
#pragma once

#include <cstddef>
#include <memory>
#include <mutex>
#include <unordered_map>

namespace kpw::server {

class metrics;

// What shutdown asks of a session: close when idle, finish and close when busy. Thread-safe.
class session_control {
public:
    virtual ~session_control() = default;
    virtual void stop() = 0;
};

// Registry entries are weak: a session's lifetime stays tied to its pending operations (Beast's
// model); the registry only finds the live ones. Sessions add themselves in run() and remove
// themselves in their destructor.
class connection_registry {
public:
    // At most `limit` connections; with `stats`, the registry's size is the open-connections gauge
    // (the webhook port's).
    connection_registry(std::size_t limit, metrics* stats) : limit_(limit), stats_(stats) {}

    void add(session_control* key, std::weak_ptr<session_control> session);
    void remove(session_control* key);
    std::size_t size() const;
    // Whether a new connection would be over the limit (the listener then closes it).
    bool full() const { return size() >= limit_; }
    // Calls stop() on every live session (outside the lock).
    void stop_all();

private:
    std::size_t limit_;
    metrics* stats_;
    mutable std::mutex mutex_;
    std::unordered_map<session_control*, std::weak_ptr<session_control>> sessions_;
};

} // namespace kpw::server
