// SPDX-License-Identifier: Apache-2.0
// Which of Karmada's replica interpreters answers GetReplicas for a resource template, and what the
// shipped third-party scripts answer.
#pragma once

#include <optional>
#include <string_view>

#include "doc/value.hpp"
#include "field/error.hpp"
#include "model/workload.hpp"

namespace kpw::model {

// (The enum replica_interpreter itself is in model/workload.hpp: a workload records which one read it.)

// karmada: pkg/resourceinterpreter/interpreter.go GetReplicas asks the user's interpreter webhooks, then
// ResourceInterpreterCustomizations, then the shipped third-party customizations (default/thirdparty/
// resourcecustomizations/<apiVersion>/<kind>: replicaResource), then the native interpreter
// (default/native/replica.go, by exact GroupVersionKind); the detector calls it only when one of them
// has the hook. lint reads neither webhooks nor ResourceInterpreterCustomizations: a kind none of the
// shipped ones knows gets 0 replicas and no requirements, as on a Karmada without customizations.
replica_interpreter replica_interpreter_of(std::string_view api_version, std::string_view kind);

// What a third-party replicaResource script returns, as the detector writes it into the binding.
struct scripted_replicas {
    std::int32_t replicas = 0;
    bool has_requirements = false; // the script returned a requirements table
    replica_request request;
    std::optional<node_claim> claim;
    std::optional<sidecar_gap> sidecars; // model/pod_requests.hpp
};

// GetReplicas of a script interpreter (spec_replicas .. ray_service; not flink, which model/components.hpp
// decodes with its components). nullopt when the Lua script fails (a replica count that is not a Lua
// number, a template that is not a table): the detector then builds no binding; `errors` says why, at
// the field a person would edit.
std::optional<scripted_replicas> script_replicas(replica_interpreter reader, const doc::value& spec,
                                                 field::error_list& errors);

} // namespace kpw::model
