// SPDX-License-Identifier: Apache-2.0
// Accept loop with a back-off on resource errors (EMFILE) instead of a busy spin.
#include "server/listener.hpp"

#include <boost/asio/dispatch.hpp>
#include <boost/beast/core/bind_handler.hpp>

#include "server/address.hpp"

namespace kpw::server {

namespace net = boost::asio;
using tcp = net::ip::tcp;

listener::listener(net::io_context& ioc, accept_handler on_accept, const logger& log, context_pool* spread)
    : ioc_(ioc), spread_(spread), acceptor_(ioc), retry_(ioc), on_accept_(std::move(on_accept)), log_(log)
{
}

result<std::shared_ptr<listener>> listener::open(net::io_context& ioc, const tcp::endpoint& ep,
                                                 accept_handler on_accept, const logger& log, context_pool* spread)
{
    auto l = std::make_shared<listener>(ioc, std::move(on_accept), log, spread);
    boost::system::error_code ec;
    l->acceptor_.open(ep.protocol(), ec);
    if (!ec)
        l->acceptor_.set_option(net::socket_base::reuse_address(true), ec);
    if (!ec)
        l->acceptor_.bind(ep, ec);
    if (!ec)
        l->acceptor_.listen(net::socket_base::max_listen_connections, ec);
    if (!ec)
        l->endpoint_ = l->acceptor_.local_endpoint(ec);
    if (ec)
        return failure{"cannot listen on " + endpoint_text(ep) + ": " + ec.message(), {}};
    return l;
}

void listener::run()
{
    net::dispatch(acceptor_.get_executor(), boost::beast::bind_front_handler(&listener::do_accept, shared_from_this()));
}

void listener::close()
{
    net::dispatch(acceptor_.get_executor(), boost::beast::bind_front_handler(&listener::on_close, shared_from_this()));
}

void listener::on_close()
{
    closed_ = true;
    boost::system::error_code ignored;
    acceptor_.close(ignored);
    retry_.cancel();
}

void listener::do_accept()
{
    if (closed_)
        return;
    acceptor_.async_accept(spread_ ? spread_->next() : ioc_,
                           boost::beast::bind_front_handler(&listener::on_accept, shared_from_this()));
}

void listener::on_accept(boost::system::error_code ec, tcp_socket socket)
{
    if (closed_ || ec == net::error::operation_aborted)
        return;
    if (ec) {
        // Out of descriptors or memory: wait a little instead of spinning on the same error.
        log_.warning("accept failed", "error=" + logger::quote(ec.message()));
        retry_.expires_after(std::chrono::milliseconds(100));
        retry_.async_wait([self = shared_from_this()](boost::system::error_code wec) {
            if (!wec)
                self->do_accept();
        });
        return;
    }
    try {
        on_accept_(std::move(socket));
    } catch (const std::exception& e) { // out of memory starting the session: drop this one only
        log_.error("cannot start a connection", "error=" + logger::quote(e.what()));
    }
    do_accept(); // always re-armed: one failed connection must not stop the port
}

} // namespace kpw::server
