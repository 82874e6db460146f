// SPDX-License-Identifier: Apache-2.0
// Whether Karmada's resource detector reconciles a policy a change rewrote (kubectl apply of a new version).
#pragma once

#include "doc/value.hpp"
#include "model/policy.hpp"
#include "settings/karmada_release.hpp"

namespace kpw::scheduling {

// `before` and `after` are one policy (kind, namespace, name) before and after the change. A spec change
// bumps metadata.generation (the policy CRDs have no status subresource) and is always reconciled. A change
// of labels or annotations alone keeps the generation: from v1.18.0 OnPropagationPolicyUpdate and
// OnClusterPropagationPolicyUpdate skip such an update (pkg/detector/detector.go:993-1007); before, they
// enqueue every update, so it is reconciled
// too (HandlePropagationPolicyCreationOrUpdate then releases a template the policy no longer selects).
// The permanent-id labels (Karmada's) and kubectl's last-applied annotation are not compared; instead,
// when both are given, `before_applied` and `after_applied` are what kubectl applied each time (lint --base:
// the files): any difference there (an explicit default written, a field reordered is none) makes kubectl
// apply patch the last-applied annotation, an update those releases reconcile too.
bool reconciled_on_update(const model::policy& before, const model::policy& after, settings::karmada_release release,
                          const doc::value* before_applied = nullptr, const doc::value* after_applied = nullptr);

} // namespace kpw::scheduling
