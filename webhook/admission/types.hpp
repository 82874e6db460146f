// SPDX-License-Identifier: Apache-2.0
// admission::request / response: the AdmissionReview fields the webhook reads and writes (v1 shape).
#pragma once

#include <string>
#include <vector>

#include "doc/value.hpp"

namespace kpw::admission {

inline constexpr std::string_view review_v1 = "admission.k8s.io/v1";
inline constexpr std::string_view review_v1beta1 = "admission.k8s.io/v1beta1";

struct group_version_kind {
    std::string group, version, kind;
};

// One admission request; v1beta1 reviews decode into the same shape.
struct request {
    std::string review_api_version; // the envelope's apiVersion, echoed in the reply
    std::string uid;
    group_version_kind kind;
    std::string operation; // CREATE, UPDATE, DELETE or CONNECT
    std::string name;
    std::string ns; // empty for cluster-scoped objects
    bool dry_run = false;
    doc::value object;     // null when absent (DELETE)
    doc::value old_object; // null when absent (CREATE)
    std::string review_kind; // the envelope's kind, echoed in the reply
};

// The decision. Built only through the named constructors in response.hpp.
struct response {
    bool allowed = true;
    int code = 200;
    std::string reason;  // "Forbidden" for denials, empty otherwise
    std::string message; // empty when allowed
    std::vector<std::string> warnings;
    // Not sent: why the request was not allowed ("FieldValueInvalid", "Immutable", ...), for metrics.
    std::vector<std::string> causes;
};

} // namespace kpw::admission
