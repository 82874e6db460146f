// SPDX-License-Identifier: Apache-2.0
// crd_release: which supported Karmada release installed a PropagationPolicy CRD, read off its schema.
#pragma once

#include <string>

#include "doc/value.hpp"
#include "settings/karmada_release.hpp"

namespace kpw::schema {

struct crd_release {
    settings::karmada_release release = settings::newest_karmada_release;
    std::string reason; // "the PropagationPolicy CRD defines spec.placement.workloadAffinity (Karmada v1.17.0+) and
                        // not spec.placement.clusterAffinities[].overflowAffinities (v1.18.0+)"
    bool newer_than_newest = false; // the CRD defines a field the newest supported release does not
};

// `crd` is a CustomResourceDefinition object (apiextensions.k8s.io/v1) as the API server returns it. The
// release is the newest whose added fields (settings::changes) the served version's schema defines; a
// CRD with none of them is the oldest supported release's (or older). nullopt-like failure: a CRD
// without a served version's openAPIV3Schema gives the newest release and says so in `reason`.
crd_release release_of_crd(const doc::value& crd);

} // namespace kpw::schema
