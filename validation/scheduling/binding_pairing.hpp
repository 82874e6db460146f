// SPDX-License-Identifier: Apache-2.0
// Which binding Karmada's resource detector writes for a template, and whether it may update it.
#pragma once

#include <string>
#include <string_view>
#include <tuple>

#include "model/binding.hpp"
#include "model/workload.hpp"

namespace kpw::scheduling {

// karmada pkg/util/names/names.go GenerateBindingName: ':' in the name becomes '.', then
// lower(name + "-" + kind). Deployment nginx -> "nginx-deployment".
std::string generate_binding_name(std::string_view kind, std::string_view name);

// A binding's identity: kind, namespace, name.
using binding_key = std::tuple<std::string, std::string, std::string>;
binding_key key_of(const model::binding& b);

// The identity of the binding the detector creates or updates for template `w`: a ResourceBinding in the
// template's namespace (a ClusterResourceBinding for a cluster-scoped one) named GenerateBindingName.
binding_key detector_binding_key(const model::workload& w);

// Whether `b` is the binding the detector creates or updates for template `w`: a ResourceBinding in the
// template's namespace (a ClusterResourceBinding for a cluster-scoped one) named GenerateBindingName,
// whatever its spec.resource says (pkg/detector ApplyPolicy builds the binding and CreateOrUpdate finds the
// existing one by name).
bool is_detector_binding_of(const model::binding& b, const model::workload& w);

// The live template's uid: its own; for a template read from git (no uid), the one the binding that
// records it holds (`recorded`: its spec.resource.uid, else its controller owner's uid); else "" (the
// random uid kube-apiserver gave it, which nobody here knows).
std::string live_template_uid(const model::workload& w, const model::binding* recorded);

// detector.go ApplyPolicy's owner check (karmada#2090): a binding whose controller owner reference names
// another object than the template (another uid) is not updated ("failed to update binding due to
// different owner reference UID") until the garbage collector deletes it. `template_uid` is the live
// template's uid; "" stands for one nobody knows (kube-apiserver's random uid), which no owner names.
bool detector_may_update(const model::binding& b, std::string_view template_uid);

} // namespace kpw::scheduling
