// SPDX-License-Identifier: Apache-2.0
// Components of multi-component workloads, as Karmada's built-in third-party interpreter computes them.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "doc/value.hpp"
#include "field/error.hpp"
#include "model/quantity.hpp"
#include "model/workload.hpp"

namespace kpw::model {

// Whether Karmada's built-in third-party customizations define componentResource (InterpretComponent)
// for the kind (day2-semantics §6.1): Volcano Job, FlinkDeployment, PyTorchJob, TFJob, MPIJob,
// RayCluster, RayJob, SparkApplication.
bool has_component_interpreter(std::string_view api_version, std::string_view kind);

// spec.components as Karmada's GetComponents writes them into the binding, for the kinds above (empty
// for every other kind). What makes Karmada's Lua script or the binding's validation fail is reported
// in `errors` with the field path; the component is then left out.
std::vector<component> decode_components(const doc::value& object, field::error_list& errors);

// lifted.IsScalarResourceName: extended (domain-prefixed), hugepages-*, attachable-volumes-* and
// *kubernetes.io/* resources. util.Resource keeps only these besides cpu, memory, ephemeral-storage, pods.
bool is_scalar_resource_name(std::string_view name);

// The quantity util.Resource.ResourceList writes for `units` of a resource (pkg/util/resource.go): cpu
// NewMilliQuantity(DecimalSI), memory, ephemeral-storage and hugepages-* BinarySI, the rest DecimalSI.
quantity resource_list_quantity(std::string_view name, std::int64_t units);

// A component's per-replica request as quantities: request_text parsed when present (the binding's own
// text), else `request` written back by resource_list_quantity. Unparsable texts are skipped.
std::vector<std::pair<std::string, quantity>> request_quantities(const component& c);

// The pieces the per-kind decoders share (components.cpp, components_jvm.cpp).
namespace component_detail {

// Lua's tonumber() on a field, as the scripts' to_num helper calls it: numbers, numeric strings; nullopt
// for anything else (the scripts then use their default).
std::optional<double> lua_number(const doc::value* node);

// The replica count as json.Unmarshal into Component.replicas (int32) accepts it; an error otherwise.
std::optional<std::int32_t> replicas_of(double value, const field::path& at, field::error_list& errors);

// A component whose request is a Lua table of quantities (FlinkDeployment, SparkApplication). The
// quantities carry the notation they have once the binding is stored (canonical_text).
component quantity_component(std::string name, std::int32_t replicas,
                             const std::vector<std::pair<std::string, quantity>>& request);

// A number from the Lua VM re-read as a quantity: gopher-json writes a float64 the way Go's
// encoding/json does (fixed notation in [1e-6, 1e21), exponent outside), then Quantity parses it.
quantity lua_float_quantity(double value);

// Whether `name` fits the binding CRD's maxLength of 32 bytes; reports it at `at` (the name's field) if not.
bool valid_name(const std::string& name, const field::path& at, field::error_list& errors);

} // namespace component_detail

// flink.apache.org/v1beta1 FlinkDeployment and sparkoperator.k8s.io/v1beta2 SparkApplication: the
// requests come from the CRDs' own resource fields, not from a pod template (components_jvm.cpp).
std::vector<component> flink_components(const doc::value& spec, field::error_list& errors);
std::vector<component> spark_components(const doc::value& spec, field::error_list& errors);

// GetReplicas of FlinkDeployment's replicaResource, what Karmada reads with the gate off (no other kind of
// §6.1 has a replicaResource: they are non-workloads then): jobmanagers + taskmanagers, the larger cpu
// and memory of the two as the per-replica request. nullopt when the script would fail.
struct replica_interpretation {
    std::int32_t replicas = 0;
    replica_request request;
};
std::optional<replica_interpretation> flink_replicas(const doc::value& spec);

} // namespace kpw::model
