// SPDX-License-Identifier: Apache-2.0
// field::error: one validation finding in apimachinery's shape, and the aggregate Karmada returns.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include "field/path.hpp"

namespace kpw::field {

// The wire reasons of k8s.io/apimachinery/pkg/util/validation/field; also lint's JSON "reason".
enum class reason {
    required,
    invalid,
    not_supported,
    forbidden,
    duplicate,
    too_long,
    too_many,
    type_invalid,
    internal,
};

std::string_view wire_name(reason r); // "FieldValueInvalid", ...

struct error {
    reason type = reason::invalid;
    std::string field;     // rendered path
    std::string bad_value; // already rendered the Go way (%q string, bare number, compact JSON)
    std::string detail;
    // Where a person fixes it, when that is not `field` itself: Karmada reports some errors on a list or
    // map because of one element (a duplicated affinityName is reported on clusterAffinities); the
    // message keeps Karmada's path, positions use this one. Empty: `field`.
    std::string locate_at = {};
    bool locate_key = false; // point at the key of `locate_at` (a bad label key), not at its value

    // "<field>: <body>", exactly as apimachinery's (*Error).Error() prints it.
    std::string str() const;
    std::string body() const;
};

using error_list = std::vector<error>;

// `e`, positioned at `where` (its value; its key with `at_key`) while its field stays Karmada's.
error located(error e, const path& where, bool at_key = false);

// One constructor per reason; the arguments are fixed by the reason, as in apimachinery.
// `rendered_value` must already be in Go rendering: use go_quote / go_int / compact JSON.
error required(const path& p, std::string detail = {});
error invalid(const path& p, std::string rendered_value, std::string detail);
error not_supported(const path& p, std::string rendered_value, std::initializer_list<std::string_view> valid);
error not_supported(const path& p, std::string rendered_value, const std::vector<std::string>& valid);
error too_long(const path& p, std::size_t max_bytes);
error type_invalid(const path& p, std::string rendered_value, std::string detail);
error forbidden(const path& p, std::string detail);
error internal(const path& p, std::string detail);

// apimachinery utilerrors.NewAggregate(...).Error(): duplicates (by full text) dropped, first kept;
// one error bare, several as "[e1, e2]". Empty list gives "".
std::string aggregate(const error_list& errors);

// A finding that does not deny: a policy that is valid but almost certainly not what was meant.
struct warning {
    std::string id;    // stable catalogue id, e.g. "overflow-cluster-repeated"
    std::string field; // rendered path
    std::string message;
    std::string str() const; // "<field>: <message>" (just the message when field is empty)
};

using warning_list = std::vector<warning>;

// Go %q of a string (strconv.Quote).
std::string go_quote(std::string_view s);
// Go %v of an integer.
std::string go_int(std::int64_t v);

} // namespace kpw::field
