// SPDX-License-Identifier: Apache-2.0
// reply_batch: the replies one io_context writes together, once per reactor round.
#pragma once

#include <memory>

#include <boost/asio/execution_context.hpp>

#include "server/context_pool.hpp"

namespace kpw::server {

// A connection whose reply waits for the batch.
class batched_writer {
public:
    virtual ~batched_writer() = default;
    // Writes the waiting reply (and goes on with the connection). Runs on the context's thread.
    virtual void write_reply() = 0;
};

// Replies are written after every connection that was ready in the same round has been answered
// (Redis writes its replies before sleeping the same way): each write to a sleeping client wakes
// it, and back to back the later writes find it awake; and every connection gets one request per
// turn, so a fast client cannot keep the thread to itself.
//
// An Asio service: one per io_context, reached through use_service. A context has one thread, so
// no locking. The round being filled is owned by the posted handler that flushes it: if the
// context is destroyed first (a hard stop), the waiting connections go with its other handlers.
class reply_batch final : public boost::asio::execution_context::service {
public:
    static boost::asio::execution_context::id id;

    explicit reply_batch(boost::asio::execution_context& owner) : service(owner) {}

    // Adds `writer` to this round; the round's first writer posts the flush behind the handlers
    // already queued, i.e. after the round's ready connections.
    void add(std::shared_ptr<batched_writer> writer, const executor& ex);

private:
    struct round;

    void shutdown() override { filling_ = nullptr; }

    round* filling_ = nullptr;
};

} // namespace kpw::server
