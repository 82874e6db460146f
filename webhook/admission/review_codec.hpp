// SPDX-License-Identifier: Apache-2.0
// AdmissionReview JSON <-> admission::request / response, for admission.k8s.io/v1 and v1beta1.
#pragma once

#include <string>
#include <string_view>

#include "admission/types.hpp"

namespace kpw::admission {

struct decoded_review {
    // On failure it still holds what could be read (apiVersion, uid) so the reply can echo them.
    request req;
    std::string error; // empty when the review decoded; else why (sent back with code 400)
    bool ok() const { return error.empty(); }
};

// Parses the body (strict JSON) and reads the envelope as controller-runtime does: apiVersion and kind are
// taken as they are (kube-apiserver sends an AdmissionReview of admission.k8s.io/v1 or v1beta1), `request`,
// when present, must be an object; a missing uid is "" (kube-apiserver always sends one).
// The object and oldObject are moved out of the parsed tree, not copied.
decoded_review decode_review(std::string_view body);

// The reply AdmissionReview: the request's apiVersion and kind (an admission.k8s.io/v1 AdmissionReview when
// both are empty), response.uid = uid, allowed, status {metadata:{}, message, reason, code}, warnings. Never a
// patch.
std::string encode_review(const response& r, std::string_view api_version, std::string_view kind, std::string_view uid);

} // namespace kpw::admission
