// SPDX-License-Identifier: Apache-2.0
// An object's apiVersion and kind as Karmada's webhook decoder reads them before any field: controller-runtime's
// admission.Decoder (runtime.DecodeInto over the UniversalDecoder of Karmada's aggregated scheme) into a policy
// type, as karmada-webhook's validating handlers decode request.object and request.oldObject.
#pragma once

#include <string>
#include <string_view>

#include "doc/value.hpp"
#include "settings/karmada_release.hpp"

namespace kpw::model {

// Why Karmada's decoder refuses `object` by its apiVersion and kind.
struct typed_refusal {
    std::string message; // in apimachinery's words; "" when it goes on to the fields
    // The object is the other policy kind: apimachinery decodes its fields (the same as the target's) into
    // that type first, and only then finds it is not the target ("unable to decode"), so a field's type
    // error comes first.
    bool after_fields = false;
};

// How Karmada's decoder takes `object` (not null: that is "there is no content to decode") as
// policy.karmada.io/v1alpha1 `into_kind`: a missing apiVersion or kind is the target's (gvkWithDefaults),
// another policy kind is "unable to decode ... into *v1alpha1.X", an unknown one "no kind ... is registered".
typed_refusal typed_decode_refusal(const doc::value& object, std::string_view into_kind,
                                   settings::karmada_release release);

} // namespace kpw::model
