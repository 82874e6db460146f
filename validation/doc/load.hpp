// SPDX-License-Identifier: Apache-2.0
// Loading text into doc::value trees: JSON for admission bodies, YAML (JSON too) with positions for lint.
#pragma once

#include <cstddef>
#include <span>
#include <string_view>
#include <vector>

#include "base/result.hpp"
#include "doc/value.hpp"

namespace kpw::doc {

struct load_limits {
    int max_depth = 512;
    // Upper bound on nodes built, aliases counted as the copies they expand to; 0 derives it from the
    // input size, so a "billion laughs" file fails in milliseconds instead of being expanded.
    std::size_t max_nodes = 0;
};

struct document {
    int index = 0;       // 0-based position in the stream
    position start;      // where the document's root starts
    value root;
};

// A member parse_json does not store because the caller never reads it (an admission review's
// managedFields, userInfo, ...): it is still parsed and checked, and counts for the depth limit.
struct json_prune {
    std::string_view key;
    std::span<const json_prune> below; // empty: drop the member `key`; else prune inside its object
};

// Strict JSON (RFC 8259): UTF-8 validated, depth bounded (so is the parser's recursion).
// Failures carry the line:column of the offending byte. `prune` applies to the root object's members.
result<value> parse_json(std::string_view text, const load_limits& limits = {}, std::span<const json_prune> prune = {});

// YAML 1.1 as kubectl reads it (sigs.k8s.io/yaml over go-yaml v2, non-strict): multi-document, a
// repeated key keeps its last value (merge keys included, in the order written), anchors and merge keys
// expanded under the node budget, every node positioned. JSON input works too.
// Empty documents are dropped; indices still count them.
result<std::vector<document>> load_yaml(std::string_view text, const load_limits& limits = {});

// A file of Kubernetes objects as lint reads a snapshot: a text that is one JSON object (`kubectl get
// -o json`) through RapidJSON, an order of magnitude faster than the YAML scanner but with no node
// positions (and, as Go's encoding/json, a repeated key keeps its last value where YAML refuses it);
// anything else, or JSON that RapidJSON rejects, through load_yaml, whose error (with its line:column)
// is the one returned.
result<std::vector<document>> load_documents(std::string_view text, const load_limits& limits = {});

// Whether `text` is valid UTF-8 without NUL bytes; on failure `where` is the offending byte.
bool is_clean_utf8(std::string_view text, std::size_t& where);

// 1-based line:column of a byte offset.
position position_of(std::string_view text, std::size_t offset);

} // namespace kpw::doc
