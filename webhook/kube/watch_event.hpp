// SPDX-License-Identifier: Apache-2.0
// watch_event: one line of a Kubernetes watch stream ({"type":...,"object":{...}}), decoded.
#pragma once

#include <string>
#include <string_view>

#include "base/result.hpp"

namespace kpw::kube {

struct watch_event {
    enum class kind { added, modified, deleted, bookmark, error };
    kind type = kind::added;
    std::string resource_version; // object.metadata.resourceVersion
    std::string namespace_, name; // object.metadata (empty for bookmark and error)
    std::string object;           // the object's JSON text, apiVersion/kind filled in when given to decode
    int code = 0;                 // error: the Status's code (410 = re-list)
    std::string message;          // error: the Status's message
};

// Pure: decodes one event line. `api_version`/`kind` fill in an object that lacks them. A line that is
// not an event (not JSON, unknown type, object missing or not a mapping, metadata without a name on
// ADDED/MODIFIED/DELETED) is a failure whose message says what the line held instead.
result<watch_event> decode_watch_event(std::string_view line, std::string_view api_version = {},
                                       std::string_view kind = {});

} // namespace kpw::kube
