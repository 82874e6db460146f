// SPDX-License-Identifier: Apache-2.0
// json_text (private to kube/): the RapidJSON steps the client and the watch decoder share.
#pragma once

#include <string>
#include <string_view>

#include <rapidjson/document.h>

namespace kpw::kube::detail {

// Parses `text` into `doc` (full-precision numbers); on failure, "<what RapidJSON says> at offset N".
bool parse_json(rapidjson::Document& doc, std::string_view text, std::string& error);

// A member of an object, or nullptr when `v` is not an object or lacks it.
const rapidjson::Value* member(const rapidjson::Value& v, const char* name);
// A string member's text, "" when missing or not a string.
std::string string_member(const rapidjson::Value& v, const char* name);

// Puts apiVersion and kind first in `object` when it lacks them (empty arguments add nothing), as
// `kubectl get -o json` prints an item.
void fill_type_meta(rapidjson::Value& object, rapidjson::Document::AllocatorType& alloc, std::string_view api_version,
                    std::string_view kind);

std::string to_json(const rapidjson::Value& v);

// At most `max` bytes of `text` for a message, control characters escaped, "..." when cut.
std::string excerpt(std::string_view text, std::size_t max = 80);

// A JSON type's name for messages: "an array", "a string", ...
const char* type_name(const rapidjson::Value& v);

} // namespace kpw::kube::detail
