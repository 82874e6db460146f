// SPDX-License-Identifier: Apache-2.0
// Loading text into doc::value trees: JSON for admission bodies, YAML (JSON too) with positions for lint.
#pragma once

#include <cstddef>
#include <optional>
#include <span>
#include <string>
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

// A key written twice in one mapping. kubectl keeps the last value and says nothing: go-yaml v2 (under
// sigs.k8s.io/yaml, non-strict) stores each key of a mapping in turn into one Go map (decode.go
// d.mapping), and so does Go's encoding/json for the map[string]interface{} of an unstructured object
// (decode.go d.object: the map element is zeroed, then set), so `root` holds the last value only.
struct repeated_key {
    std::string path; // the member's field path from the document's root: spec.placement.clusterAffinity
    std::string key;  // the key as written (resolved: `1` and "1" are one key to kubectl's JSON)
    position first;   // the key's first occurrence in the mapping
    position again;   // this later occurrence, whose value (if it is the last) kubectl reads
};

struct document {
    int index = 0;       // 0-based position in the stream
    position start;      // where the document's root starts
    value root;
    std::vector<repeated_key> repeated_keys = {}; // in text order; a merge key (<<) setting a key is none
};

// A member parse_json does not store because the caller never reads it (an admission review's
// managedFields, userInfo, ...): it is still parsed and checked, and counts for the depth limit.
struct json_prune {
    std::string_view key;
    std::span<const json_prune> below; // empty: drop the member `key`; else prune inside its object
};

// Strict JSON (RFC 8259): UTF-8 validated, depth bounded (so is the parser's recursion).
// Failures carry the line:column of the offending byte. `prune` applies to the root object's members.
// A repeated key keeps its last value (as Go's encoding/json); `repeated_keys`, when given, says whether
// one did (the value has no positions to say where: read_json_stream's documents do).
result<value> parse_json(std::string_view text, const load_limits& limits = {}, std::span<const json_prune> prune = {},
                         bool* repeated_keys = nullptr);

// A file as kubectl's reader cuts it into documents (apimachinery's YAMLOrJSONDecoder), every node
// positioned: a stream whose first non-space byte is '{' is read as consecutive JSON values by a JSON
// parser (read_json_stream), the rest of it, or any other stream, as YAML (load_yaml_stream).
result<std::vector<document>> load_yaml(std::string_view text, const load_limits& limits = {});

// YAML 1.1 as kubectl reads it (sigs.k8s.io/yaml over go-yaml v2, non-strict): multi-document, a
// repeated key keeps its last value (merge keys included, in the order written), anchors and merge keys
// expanded under the node budget, every node positioned.
// Empty documents are dropped; indices still count them.
result<std::vector<document>> load_yaml_stream(std::string_view text, const load_limits& limits = {});

// A stream that does not parse is not refused whole: cli-runtime's StreamVisitor (pkg/resource/
// visitor.go:590-618) stops at the first document YAMLOrJSONDecoder cannot decode, after kubectl has
// taken every one before it (kubectl apply sends those): JSON values before a JSON syntax error, and
// documents apimachinery's YAMLReader cuts at "---" lines before one that does not parse. The length of
// the longest head of whole documents that load_yaml reads; 0 when there is none.
std::size_t kubectl_readable_head(std::string_view text, const load_limits& limits = {});

// The documents kubectl has taken from a text that does not parse (load_yaml of its readable head): every
// face that reads files as kubectl does reads these before reporting the failure. Empty when none.
std::vector<document> documents_before_failure(std::string_view text, const load_limits& limits = {});

// The same for a stream read as YAML from its start (load_yaml_stream).
std::size_t yaml_readable_head(std::string_view text, const load_limits& limits = {});

// Whether kubectl's reader takes `text` for JSON (GuessJSONStream): its first 4 KiB, Unicode spaces
// trimmed, start with '{'.
bool kubectl_reads_json(std::string_view text);

// The JSON values at the head of a stream kubectl reads as JSON, each a positioned document (a null is
// counted but yields none), and where the YAML decoder takes over when Go's JSON decoder fails after
// fewer than two values: after the last value and the spaces up to the first line break
// (YAMLOrJSONDecoder.consumeWhitespace). npos when the stream is JSON to its end. A syntax error after two
// values is the file's `error`, as it is kubectl's; the values before it are still read (kubectl has
// applied them). `values_end`: where the last value read ends.
struct json_stream {
    std::vector<document> documents;
    std::size_t yaml_from = std::string_view::npos;
    std::size_t values_end = 0;
    std::optional<failure> error;
};
result<json_stream> read_json_stream(std::string_view text, const load_limits& limits = {});

// A file of Kubernetes objects as lint reads a snapshot: a text that is one JSON object (`kubectl get
// -o json`) through RapidJSON, an order of magnitude faster than the YAML scanner but with no node
// positions; anything else, JSON that RapidJSON rejects, or JSON with a repeated key (whose repeats need
// positions), through load_yaml, whose error (with its line:column) is the one returned.
result<std::vector<document>> load_documents(std::string_view text, const load_limits& limits = {});

// Go's JSON scanner refuses a byte below 0x20 inside a string ("invalid character '\x1a' in string
// literal"), where RapidJSON 1.1 lets it through: the offset of the first in one JSON text, if any.
std::optional<std::size_t> control_in_json_string(std::string_view json);

// Whether `text` is valid UTF-8 without NUL bytes; on failure `where` is the offending byte.
bool is_clean_utf8(std::string_view text, std::size_t& where);

// A field path one step deeper (repeated_key::path): `.key` (no dot at the root), or `[index]`.
void append_key(std::string& path, std::string_view key);
void append_index(std::string& path, std::size_t index);

// 1-based line:column of a byte offset.
position position_of(std::string_view text, std::size_t offset);

// Positions of offsets that never decrease in one text, each counted on from the last.
class position_counter {
public:
    explicit position_counter(std::string_view text) : text_(text) {}
    std::string_view text() const { return text_; }
    position at(std::size_t offset);

private:
    std::string_view text_;
    std::size_t offset_ = 0;
    position at_{1, 1};
};

} // namespace kpw::doc
