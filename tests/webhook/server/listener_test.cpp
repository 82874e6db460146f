// SPDX-License-Identifier: Apache-2.0
// The accept loop on its own: a connection that cannot be started must not stop the port.
#include "server/listener.hpp"

#include <chrono>
#include <new>

#include <doctest/doctest.h>

namespace net = boost::asio;
using net::ip::tcp;
using namespace kpw::server;

TEST_CASE("listener: a connection whose start throws is dropped and accepting goes on")
{
    net::io_context ioc;
    const logger log(0);
    int accepted = 0;
    auto opened = listener::open(
        ioc, {net::ip::address_v4::loopback(), 0},
        [&](tcp_socket&&) {
            if (++accepted == 1)
                throw std::bad_alloc(); // as make_shared of a session can, out of memory
            ioc.stop();                 // the second connection reached the handler: done
        },
        log);
    REQUIRE(opened.ok());
    const auto l = *opened;
    l->run();

    // Both connections complete in the kernel's backlog before the listener runs.
    net::io_context client;
    tcp::socket first(client), second(client);
    first.connect(l->local_endpoint());
    second.connect(l->local_endpoint());
    ioc.run_for(std::chrono::seconds(10));
    CHECK(accepted == 2);
    l->close();
}
