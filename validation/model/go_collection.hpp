// SPDX-License-Identifier: Apache-2.0
// A Go slice or map field of the Placement types, which remembers an explicit `[]` / `{}`.
#pragma once

// Part of the typed model; include model/policy.hpp.

#include <map>
#include <utility>
#include <vector>

namespace kpw::model {

// encoding/json decodes `[]` / `{}` to an empty but non-nil slice or map, and reflect.DeepEqual tells that
// apart from an absent (nil) one. The scheduler compares a binding's spec.placement with its
// applied-placement annotation that way (pkg/scheduler/helper.go placementChanged), so an explicit empty
// list in either is a placement change. A policy never carries one: Karmada's mutating webhook
// re-encodes it through the Go types, whose omitempty drops it; but karmada-webhook's validating handler
// decodes the review's object as it arrives, so serve keeps them too. Only the decoders of embedded placements
// (a binding's spec, the annotation) and of admission objects set `explicitly_empty`; everything else sees a
// plain container.
template <class Container>
struct go_collection : Container {
    using Container::Container;
    go_collection() = default;
    go_collection(Container c) : Container(std::move(c)) {} // NOLINT: a plain container converts implicitly

    bool explicitly_empty = false; // meaningful only while empty: `[]` / `{}` was written, not nothing

    // Go's `!= nil`: elements, or an explicit `[]` / `{}`.
    bool non_nil() const { return !this->empty() || explicitly_empty; }

    // reflect.DeepEqual: equal elements, and an empty value equals only an empty value of the same nil-ness.
    friend bool operator==(const go_collection& a, const go_collection& b)
    {
        return static_cast<const Container&>(a) == static_cast<const Container&>(b) &&
               (!a.empty() || a.explicitly_empty == b.explicitly_empty);
    }
};

template <class T>
using go_slice = go_collection<std::vector<T>>;

template <class K, class V>
using go_map = go_collection<std::map<K, V>>;

} // namespace kpw::model
