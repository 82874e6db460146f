// SPDX-License-Identifier: Apache-2.0
// Decoding ResourceBinding / ClusterResourceBinding objects (as `kubectl get rb -A -o yaml` prints them).
#pragma once

#include <optional>

#include "base/result.hpp"
#include "doc/value.hpp"
#include "field/error.hpp"
#include "model/binding.hpp"

namespace kpw::model {

struct binding_decoding {
    binding value;
    field::error_list errors; // with paths into the object
};

// apiVersion work.karmada.io/<any version> and kind ResourceBinding or ClusterResourceBinding; the
// decoder then rejects a version other than v1alpha2.
bool is_binding_object(const doc::value& object);

// Lenient like the scheduler's informer: unknown fields are ignored; a field of the wrong type is
// reported and left at its zero value. Also reported: another kind or version, a missing name (or
// namespace for a ResourceBinding), negative replicas (spec.replicas, spec.clusters[].replicas,
// components), an undecodable spec.placement or spec.failover (at spec.placement.<...>), RFC3339 times
// that do not parse. The applied-placement
// annotation stays raw in `annotations` (decode it with decode_applied_placement).
binding_decoding decode_binding(const doc::value& object);

// The claim of day2-semantics §1.1 from labels and annotations: a PropagationPolicy needs its
// permanent-id label and the namespace and name annotations, a ClusterPropagationPolicy its label and
// the name annotation; the PP claim wins when both are present (the detector removes the CPP claim).
// nullopt without a claim label, and for a label without its annotations: no error (Karmada reads such a
// binding), and no claim (the detector releases a claim whose policy it cannot get).
std::optional<policy_claim> decode_claim(const std::map<std::string, std::string>& labels,
                                         const std::map<std::string, std::string>& annotations);

// karmada helper.GetAppliedPlacement: the policy.karmada.io/applied-placement annotation as a Placement.
// nullopt when the annotation is absent or empty; a failure (with the reason) when it is not JSON or
// does not decode into a Placement, as json.Unmarshal fails.
result<std::optional<placement>> decode_applied_placement(const binding& b);

} // namespace kpw::model
