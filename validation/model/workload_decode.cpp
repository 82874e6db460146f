// SPDX-License-Identifier: Apache-2.0
// Workload decoding: replica counts per kind and the per-replica request of the pod template.
#include "model/workload_decode.hpp"

#include <algorithm>
#include <map>

#include "base/go_int.hpp"
#include "doc/locate.hpp"
#include "model/cluster_decode.hpp"
#include "model/components.hpp"
#include "model/pod_requests.hpp"
#include "model/replica_interpreter.hpp"
#include "model/resource_scope.hpp"
#include "schema/go_types.hpp"

namespace kpw::model {

namespace {

bool non_empty(const doc::value* node)
{
    if (node == nullptr || node->is_null())
        return false;
    if (node->is_mapping())
        return !node->members().empty();
    if (node->is_sequence())
        return !node->items().empty();
    return true;
}

std::int32_t clamp_replicas(std::int64_t v)
{
    return static_cast<std::int32_t>(std::clamp<std::int64_t>(v, 0, INT32_MAX));
}

std::int32_t job_replicas(const doc::value* spec, field::error_list& errors)
{
    auto at = field::path::root("spec");
    std::int64_t parallelism = read::integer(spec->find("parallelism"), at.child("parallelism"), errors, 1);
    std::int64_t completions = read::integer(spec->find("completions"), at.child("completions"), errors, parallelism);
    return clamp_replicas(std::min(parallelism, completions));
}

// An interpreter's errors: lint's own limit (a quantity beyond what it computes with) stays an error of the
// file, since no prediction is possible; the first of the others is what fails Karmada's script, where a
// person edits it. nullopt when Karmada's interpreter succeeds.
std::optional<interpretation_failure> failure_of(const doc::value& object, const field::error_list& errors,
                                                 field::error_list& file_errors)
{
    std::optional<interpretation_failure> out;
    for (const auto& e : errors) {
        if (e.detail == to_string(quantity_error::beyond_range))
            file_errors.push_back(e);
        else if (!out)
            out = interpretation_failure{e.str(), doc::locate(object, e.field)};
    }
    return out;
}

void decode_metadata(const doc::value& object, std::string_view default_namespace, workload_decoding& out)
{
    auto& w = out.value;
    auto meta = field::path::root("metadata");
    const doc::value* metadata = object.find("metadata");
    w.api_version = read::string(object.find("apiVersion"), field::path::root("apiVersion"), out.errors);
    w.kind = read::string(object.find("kind"), field::path::root("kind"), out.errors);
    if (metadata != nullptr) {
        w.name = read::string(metadata->find("name"), meta.child("name"), out.errors);
        w.namespace_ = read::string(metadata->find("namespace"), meta.child("namespace"), out.errors);
        w.uid = read::string(metadata->find("uid"), meta.child("uid"), out.errors);
        w.labels = read::string_map(metadata->find("labels"), meta.child("labels"), out.errors);
        w.annotations = read::string_map(metadata->find("annotations"), meta.child("annotations"), out.errors);
    }
    if (cluster_scoped(w.api_version, w.kind))
        w.namespace_.clear(); // the API server keeps no namespace on it
    else if (w.namespace_.empty())
        w.namespace_ = std::string(default_namespace);
    if (w.name.empty())
        out.errors.push_back(field::required(meta.child("name"), "name or generateName is required"));
}

} // namespace

bool claims_nodes(const doc::value& pod_spec)
{
    return non_empty(pod_spec.find("nodeSelector")) || non_empty(pod_spec.find("tolerations")) ||
           non_empty(pod_spec.find_path({"affinity", "nodeAffinity", "requiredDuringSchedulingIgnoredDuringExecution"}));
}

pod_requirements decode_pod_requirements(const doc::value& pod_spec, const field::path& at, field::error_list& errors)
{
    pod_requirements out;
    out.request = pod_request(pod_spec, at, errors);
    out.claim = decode_node_claim(pod_spec, at, errors);
    out.sidecars = sidecar_gap_of(pod_spec, out.request);
    return out;
}

pod_requirements decode_template_requirements(const doc::value* pod_template, const field::path& at,
                                              field::error_list& errors)
{
    // The scripts' kube.accuratePodRequirements reads the template into a corev1.PodTemplateSpec: a field of
    // the wrong type (a label that is a bool) fails the interpreter, as Go's decoder fails.
    if (pod_template != nullptr && !pod_template->is_null())
        if (auto bad = schema::go_type_check(*pod_template, "v1.PodTemplateSpec")) {
            field::error e = field::internal(at, "Karmada's resource interpreter cannot read the pod template: " + bad->message);
            e.locate_at = at.str() + (bad->at.str().empty() ? "" : "." + bad->at.str());
            errors.push_back(std::move(e));
            return {};
        }
    const doc::value* spec = pod_template != nullptr && pod_template->is_mapping() ? pod_template->find("spec") : nullptr;
    if (spec == nullptr || !spec->is_mapping())
        return {};
    return decode_pod_requirements(*spec, at.child("spec"), errors);
}

workload_decoding decode_workload(const doc::value& object, std::string_view default_namespace)
{
    workload_decoding out;
    auto& w = out.value;
    w.where = object.pos();
    decode_metadata(object, default_namespace, out);
    // No spec (or spec: null) is an empty one: kube-apiserver's defaults still apply to it (a Deployment
    // without spec gets spec.replicas 1, as the conformance oracle's apiserverDefaults sets).
    static const doc::value no_spec = doc::value::mapping();
    const doc::value* spec = object.find("spec");
    if (spec == nullptr || spec->is_null())
        spec = &no_spec;
    if (!spec->is_mapping())
        return out;
    auto at = field::path::root("spec");
    // Kinds with a component interpreter (§6.1): spec.components as the detector computes them with the
    // MultiplePodTemplatesScheduling gate on; replicas and request stay as below (GetReplicas' side).
    field::error_list component_errors;
    w.components = decode_components(object, component_errors);
    w.components_failure = failure_of(object, component_errors, out.errors);
    w.interpreter = replica_interpreter_of(w.api_version, w.kind);
    const doc::value* pod_spec = nullptr;
    field::path pod_at;
    switch (w.interpreter) {
    case replica_interpreter::native_pod:
        w.replicas = 1;
        pod_spec = spec;
        pod_at = at;
        break;
    case replica_interpreter::native_job:
        w.replicas = job_replicas(spec, out.errors);
        pod_spec = spec->find_path({"template", "spec"});
        pod_at = at.child("template").child("spec");
        break;
    case replica_interpreter::native_template:
        w.replicas = clamp_replicas(read::integer(spec->find("replicas"), at.child("replicas"), out.errors, 1));
        pod_spec = spec->find_path({"template", "spec"});
        pod_at = at.child("template").child("spec");
        break;
    case replica_interpreter::flink: {
        // Its replicaResource GetReplicas (the gate-off reading); requirements are always set.
        auto r = flink_replicas(*spec);
        w.replicas = r ? r->replicas : 0;
        w.request = r ? r->request : replica_request{};
        w.has_requirements = r.has_value();
        if (!r) // the scripts read the same resource fields: the components' error names the one to edit
            w.replicas_failure = w.components_failure
                                     ? w.components_failure
                                     : interpretation_failure{"spec: Karmada's GetReplicas fails on the jobManager and "
                                                              "taskManager replicas and resources",
                                                              doc::locate(object, "spec")};
        return out;
    }
    case replica_interpreter::none:
        return out; // no replicaResource anywhere: replicas 0, no requirements
    default: {
        field::error_list script_errors;
        if (spec == &no_spec && w.interpreter != replica_interpreter::ray_service &&
            w.interpreter != replica_interpreter::zero) {
            script_errors.push_back(field::required(at, "Karmada's GetReplicas fails: the kind's replicaResource "
                                                        "script reads obj.spec, which is nil"));
        } else if (auto r = script_replicas(w.interpreter, *spec, script_errors)) {
            w.replicas = r->replicas;
            w.request = std::move(r->request);
            w.has_requirements = r->has_requirements;
            w.claim = std::move(r->claim);
            w.sidecars = std::move(r->sidecars);
        }
        w.replicas_failure = failure_of(object, script_errors, out.errors);
        return out;
    }
    }
    if (pod_spec == nullptr || !pod_spec->is_mapping())
        return out;
    auto requirements = decode_pod_requirements(*pod_spec, pod_at, out.errors);
    w.has_requirements = requirements.present();
    w.request = std::move(requirements.request);
    w.claim = std::move(requirements.claim);
    w.sidecars = std::move(requirements.sidecars);
    return out;
}

} // namespace kpw::model
