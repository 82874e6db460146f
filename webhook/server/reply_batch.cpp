// SPDX-License-Identifier: Apache-2.0
// One write batch per reactor round and io_context.
#include "server/reply_batch.hpp"

#include <vector>

#include <boost/asio/post.hpp>

namespace kpw::server {

boost::asio::execution_context::id reply_batch::id;

struct reply_batch::round {
    std::vector<std::shared_ptr<batched_writer>> writers;
};

void reply_batch::add(std::shared_ptr<batched_writer> writer, const executor& ex)
{
    if (!filling_) {
        auto next = std::make_shared<round>();
        filling_ = next.get();
        boost::asio::post(ex, [this, next] {
            filling_ = nullptr; // writers that answer again below join the next round
            for (auto& w : next->writers)
                w->write_reply();
        });
    }
    filling_->writers.push_back(std::move(writer));
}

} // namespace kpw::server
