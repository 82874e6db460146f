// SPDX-License-Identifier: Apache-2.0
// A snapshot file that stops parsing part-way is read as kubectl's reader reads it: the documents before
// the one that does not parse still count, and their own refusals are reported beside the parse error.
#include <doctest/doctest.h>

#include <algorithm>
#include <string>

#include "snapshot/load.hpp"
#include "support/temp_dir.hpp"

namespace {

bool any_message(const std::vector<kpw::lint::file_error>& errors, std::string_view text)
{
    return std::any_of(errors.begin(), errors.end(),
                       [&](const auto& e) { return e.message.find(text) != std::string::npos; });
}

} // namespace

TEST_CASE("a Cluster before a YAML document that does not parse is read and refused on its own")
{
    kpw::test::temp_dir dir;
    // The first document is a Cluster without a name; the second never closes its quoted scalar.
    const auto clusters = dir.write("clusters.yaml", "apiVersion: cluster.karmada.io/v1alpha1\nkind: Cluster\n"
                                                     "metadata:\n  labels: {location: idc}\n---\nkind: \"Cluster\n");
    kpw::snapshot::state s;
    std::vector<kpw::lint::file_error> errors;
    kpw::snapshot::load(s, {clusters.string()}, {}, "default", errors);
    CHECK(any_message(errors, "unterminated quoted string"));
    CHECK(any_message(errors, "metadata.name: Required value"));
}

TEST_CASE("the JSON value before a JSON syntax error is a document of the snapshot")
{
    kpw::test::temp_dir dir;
    const auto clusters =
        dir.write("clusters.json", R"({"apiVersion":"cluster.karmada.io/v1alpha1","kind":"Cluster","metadata":{"name":"idc-1"}}},)");
    kpw::snapshot::state s;
    std::vector<kpw::lint::file_error> errors;
    kpw::snapshot::load(s, {clusters.string()}, {}, "default", errors);
    CHECK_FALSE(errors.empty());
    REQUIRE(s.clusters.size() == 1);
    CHECK(s.clusters.clusters().front().name == "idc-1");
}
