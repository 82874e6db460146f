// SPDX-License-Identifier: Apache-2.0
// lint's duplicate-key warning: a key written twice in one mapping of a file lint reads (its policies, and
// the --clusters, --workloads and --bindings files). kubectl reads the last value and says nothing
// (doc::repeated_key); every YAML linter warns, and so does lint, at the later key.
#pragma once

#include <string>
#include <vector>

#include "doc/load.hpp"
#include "lint/report.hpp"

namespace kpw::lint {

// A repeated key and the object kubectl reads it in: the document, or the List item its path starts in
// (kubectl applies a List's items one by one).
struct placed_repeat {
    const doc::value* object = nullptr; // the document's root or a List item
    std::string field;                  // the member's path inside `object`
    const doc::repeated_key* key = nullptr;
};

std::vector<placed_repeat> place_repeated_keys(const doc::document& d);

// As a warning of the object's own (a linted policy's), at the later key.
finding repeated_key_finding(const placed_repeat& r);

// As a warning about the object in `file` (a document lint does not lint, a snapshot file's object).
snapshot_warning repeated_key_warning(const placed_repeat& r, const std::string& file);

// Every repeated key of `d` as repeated_key_warning.
void add_repeated_key_warnings(const doc::document& d, const std::string& file, std::vector<snapshot_warning>& out);

} // namespace kpw::lint
