// SPDX-License-Identifier: Apache-2.0
// metadata as kube-apiserver checks it before any webhook (apimachinery ValidateObjectMetaAccessor): the
// exact texts, where apimachinery's two packages word the same limit differently.
#include "rules/rules.hpp"
#include "support.hpp"

using namespace kpw;

namespace {

std::string meta_errors(const model::object_meta& meta, bool namespaced)
{
    field::error_list errs;
    rules::validate_object_meta(meta, namespaced, errs);
    return field::aggregate(errs);
}

model::object_meta named(std::string name, std::string ns = "")
{
    model::object_meta m;
    m.name = std::move(name);
    m.ns = std::move(ns);
    return m;
}

// "metadata.<field>: Invalid value: \"<value>\": <message>" (built with append: g++ 12's -Wrestrict
// misfires on chained operator+ at -O3).
std::string invalid(std::string_view field, std::string_view value, std::string_view message)
{
    std::string s("metadata.");
    s.append(field).append(": Invalid value: \"").append(value).append("\": ").append(message);
    return s;
}

const std::string label_regex = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or "
                                "'-', and must start and end with an alphanumeric character (e.g. 'my-name',  or "
                                "'123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";

} // namespace

TEST_CASE("an object name's length is counted in characters, a label key prefix's in bytes")
{
    // util/validation.MaxLenError (names) against content.MaxLenError (label keys); found by the oracle.
    const std::string long_name(254, 'p');
    CHECK(meta_errors(named(long_name), false) == invalid("name", long_name, "must be no more than 253 characters"));
    model::object_meta labelled = named("p");
    const std::string long_prefix(254, 'a');
    labelled.labels.emplace(std::string(long_prefix).append("/k"), std::string("v"));
    CHECK(meta_errors(labelled, false).find("prefix part must be no more than 253 bytes") != std::string::npos);
}

TEST_CASE("generateName is checked with its trailing dash masked")
{
    model::object_meta m;
    m.generate_name = "web-";
    CHECK(meta_errors(m, false).empty());
    m.generate_name = "Web-";
    CHECK(meta_errors(m, false).starts_with("metadata.generateName: Invalid value: \"Web-\": a lowercase RFC 1123 "
                                            "subdomain"));
}

TEST_CASE("a namespaced policy's namespace must be a DNS-1123 label")
{
    CHECK(meta_errors(named("p", "Bad_NS"), true) == invalid("namespace", "Bad_NS", label_regex));
    CHECK(meta_errors(named("p", "a.b"), true) == invalid("namespace", "a.b", "must not contain dots"));
    const std::string long_ns(64, 'n');
    CHECK(meta_errors(named("p", long_ns), true) == invalid("namespace", long_ns, "must be no more than 63 characters"));
    CHECK(meta_errors(named("p", "team-a"), true).empty());
    CHECK(meta_errors(named("p", ""), true).empty()); // kubectl's context namespace
    // A cluster-scoped object's namespace is cleared by the API server, never checked.
    CHECK(meta_errors(named("p", "Bad_NS"), false).empty());
}
