// SPDX-License-Identifier: Apache-2.0
// Which kinds have no namespace: what kubectl and the detector learn from discovery (the REST mapper).
#pragma once

#include <string_view>

namespace kpw::model {

// The built-in Kubernetes and Karmada kinds that are cluster-scoped, by API group (from apiVersion) and kind.
// A template of such a kind has no namespace (one written in the manifest is not kept): only a
// ClusterPropagationPolicy can select it, and its binding is a ClusterResourceBinding. Any other kind is
// taken as namespaced, as a CustomResourceDefinition's `scope: Namespaced` would have it.
bool cluster_scoped(std::string_view api_version, std::string_view kind);

} // namespace kpw::model
