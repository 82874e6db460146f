// SPDX-License-Identifier: Apache-2.0
// The PropagationPolicy / ClusterPropagationPolicy validating handler (Karmada's validating.go).
#pragma once

#include <memory>
#include <optional>

#include "admission/handler.hpp"
#include "snapshot/holder.hpp"
#include "validate.hpp"

namespace kpw::admission {

struct policy_handler_options {
    // Karmada's mutating webhook sets the permanent-id label; off for clusters that do not run it.
    bool require_permanent_id = true;
    validation_options validation;
    // Set for the kind-specific paths (/validate-propagationpolicy); nullopt dispatches on request.kind.
    std::optional<policy_kind> only_kind;
    // serve --clusters: an allowed policy also gets the snapshot's warnings (never a denial). Null: none.
    std::shared_ptr<const snapshot::holder> cluster_snapshot;
};

// CREATE and UPDATE go through kpw::validate_admission; DELETE and CONNECT are allowed.
// The kind comes from request.kind (or the object's apiVersion/kind when request.kind is absent);
// anything that is not a policy of the expected kind is answered with code 400.
// With a snapshot, an allowed CREATE/UPDATE also carries snapshot::policy_warnings.
class policy_handler final : public handler {
public:
    explicit policy_handler(policy_handler_options options) : options_(std::move(options)) {}
    response handle(const request& req) const override;

private:
    policy_handler_options options_;
};

} // namespace kpw::admission
