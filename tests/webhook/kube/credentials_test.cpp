// SPDX-License-Identifier: Apache-2.0
// credentials: static and file tokens, basic auth, client certificates and exec credential plugins.
#include "kube/credentials.hpp"

#include <filesystem>
#include <string>

#include <doctest/doctest.h>

#include "support/temp_dir.hpp"

using kpw::kube::credentials;
using kpw::kube::rest_config;
using kpw::test::temp_dir;

TEST_CASE("a static token is sent as a Bearer token and a retry cannot change it")
{
    rest_config rc;
    rc.token = "abc";
    credentials c(rc);
    auto a = c.authorization();
    REQUIRE(a.ok());
    CHECK(*a == "Bearer abc");
    CHECK_FALSE(c.invalidate());
    auto cert = c.certificate();
    REQUIRE(cert.ok());
    CHECK_FALSE(cert->has_value());
}

TEST_CASE("a token file is read on first use and re-read after invalidate")
{
    temp_dir dir;
    const auto file = dir.write("token", "first\n");
    rest_config rc;
    rc.token_file = file.string();
    credentials c(rc);
    CHECK(c.authorization().value() == "Bearer first");
    dir.write("token", "second");
    CHECK(c.authorization().value() == "Bearer first"); // cached until a 401
    CHECK(c.invalidate());
    CHECK(c.authorization().value() == "Bearer second");
}

TEST_CASE("basic auth is base64 of user:password and a client certificate comes from the config")
{
    rest_config rc;
    rc.username = "admin";
    rc.password = "p@ss";
    rc.client_cert_pem = "CERT";
    rc.client_key_pem = "KEY";
    credentials c(rc);
    CHECK(c.authorization().value() == "Basic YWRtaW46cEBzcw==");
    auto cert = c.certificate();
    REQUIRE(cert.ok());
    REQUIRE(cert->has_value());
    CHECK((*cert)->cert_pem == "CERT");
    CHECK((*cert)->key_pem == "KEY");
}
