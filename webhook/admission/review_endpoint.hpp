// SPDX-License-Identifier: Apache-2.0
// One webhook POST, transport aside: envelope checks, decode, handle, encode (controller-runtime http.go).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "admission/handler.hpp"

namespace kpw::admission {

// controller-runtime's maxRequestSize: an UPDATE carries two objects of up to 3 MiB each.
// Bodies of this size or more are refused with 413.
inline constexpr std::size_t max_request_bytes = 7 * 1024 * 1024;

// What was answered, for the server's log line and metrics.
struct review_outcome {
    std::string body; // the AdmissionReview to send with HTTP 200
    response res;     // the decision as sent (uid and warnings included)
    std::string uid, operation, kind, ns, name;
};

// Checks in controller-runtime's order: empty body 400, too large 413, Content-Type other than
// application/json 400, undecodable review 400; then runs the handler. A handler exception
// becomes code 500 with the uid echoed. Never throws except std::bad_alloc.
review_outcome serve_review(const handler& h, std::string_view content_type, std::string_view body);

// The reply for a body refused before it was read (413), as an AdmissionReview.
std::string too_large_review();

} // namespace kpw::admission
