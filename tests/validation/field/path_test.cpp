// SPDX-License-Identifier: Apache-2.0
#include "field/path.hpp"

#include <doctest/doctest.h>

using kpw::field::path;

TEST_CASE("paths render children, indices and keys like apimachinery")
{
    const path spec = path::root("spec");
    CHECK(spec.str() == "spec");
    CHECK(spec.child("placement").child("clusterAffinities").index(1).child("affinityName").str() ==
          "spec.placement.clusterAffinities[1].affinityName");
    CHECK(path::root("metadata").child("labels").key("app").str() == "metadata.labels[app]");
}

TEST_CASE("a path is an immutable value")
{
    const path base = path::root("spec");
    const path a = base.child("a");
    const path b = base.child("b");
    CHECK(base.str() == "spec");
    CHECK(a.str() == "spec.a");
    CHECK(b.str() == "spec.b");
    CHECK(path().child("x").str() == "x");
}
