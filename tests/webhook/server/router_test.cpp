// SPDX-License-Identifier: Apache-2.0
// route_request as a pure function, and listen-address parsing.
#include "server/router.hpp"

#include <doctest/doctest.h>

#include "server/address.hpp"

using namespace kpw::server;
using boost::beast::http::verb;

TEST_CASE("the three webhook paths take POST and ignore the query string")
{
    CHECK(route_request(port_role::webhook, verb::post, "/validate").what == endpoint::review);
    const route pp = route_request(port_role::webhook, verb::post, "/validate-propagationpolicy?timeout=3s");
    CHECK(pp.what == endpoint::review);
    CHECK(pp.webhook == webhook_path::propagation_policy);
    CHECK(route_request(port_role::webhook, verb::post, "/validate-clusterpropagationpolicy?timeout=10s").webhook ==
          webhook_path::cluster_propagation_policy);
}

TEST_CASE("a webhook path with another method is 405 with Allow POST")
{
    const route r = route_request(port_role::webhook, verb::get, "/validate");
    CHECK(r.what == endpoint::method_not_allowed);
    CHECK(r.allow == "POST");
}

TEST_CASE("paths match exactly: prefixes, suffixes and other ports' paths are 404")
{
    for (const char* target : {"/", "/validate/", "/validatex", "/validate-propagationpolicy/x", "/mutate-propagationpolicy",
                               "/healthz", "/metrics", "?/validate"})
        CHECK(route_request(port_role::webhook, verb::post, target).what == endpoint::not_found);
    CHECK(route_request(port_role::health, verb::post, "/validate").what == endpoint::not_found);
    CHECK(route_request(port_role::metrics, verb::get, "/readyz").what == endpoint::not_found);
    CHECK(route_request(port_role::health, verb::get, "/metrics").what == endpoint::not_found);
}

TEST_CASE("readyz is served on the webhook port too, with and without the trailing slash")
{
    CHECK(route_request(port_role::webhook, verb::get, "/readyz").what == endpoint::readyz);
    CHECK(route_request(port_role::webhook, verb::get, "/readyz/").what == endpoint::readyz);
    CHECK(route_request(port_role::health, verb::head, "/readyz").what == endpoint::readyz);
    CHECK(route_request(port_role::health, verb::get, "/healthz").what == endpoint::healthz);
    const route r = route_request(port_role::health, verb::post, "/healthz");
    CHECK(r.what == endpoint::method_not_allowed);
    CHECK(r.allow == "GET, HEAD");
    CHECK(route_request(port_role::metrics, verb::get, "/metrics?x=1").what == endpoint::metrics);
}

TEST_CASE("listen addresses follow controller-runtime: host:port, :port, [v6]:port, 0 disables")
{
    auto all = parse_listen_address(":8000");
    REQUIRE(all.ok());
    REQUIRE(all->has_value());
    CHECK(endpoint_text(**all) == "0.0.0.0:8000");
    auto v6 = parse_listen_address("[::1]:0");
    REQUIRE(v6.ok());
    CHECK(endpoint_text(**v6) == "[::1]:0");
    auto off = parse_listen_address("0");
    REQUIRE(off.ok());
    CHECK_FALSE(off->has_value());
    CHECK_FALSE(parse_listen_address("8000").ok());
    CHECK_FALSE(parse_listen_address("host.example:80").ok());
    CHECK_FALSE(parse_listen_address("127.0.0.1:70000").ok());
    CHECK(endpoint_text(*make_endpoint("localhost", 1)) == "127.0.0.1:1");
}
