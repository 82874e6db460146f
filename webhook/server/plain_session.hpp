// SPDX-License-Identifier: Apache-2.0
// plain_session: one health-probe or metrics connection over plain HTTP.
#pragma once

#include <memory>

#include <boost/asio/ip/tcp.hpp>

#include "server/http_session.hpp"

namespace kpw::server {

class plain_session final : public http_session<plain_session>, public std::enable_shared_from_this<plain_session> {
public:
    plain_session(tcp_socket&& socket, port_role role, server_state& state);

    void run();

    tcp_socket& stream() { return stream_; }
    void do_eof();

private:
    tcp_socket stream_;
};

} // namespace kpw::server
