// SPDX-License-Identifier: Apache-2.0
// Karmada's replica interpreters by kind, and the shipped replicaResource scripts of the kinds whose
// replicas come from a pod template (Kruise, Argo Workflow, Kubeflow Notebook, RayService).
#include "model/replica_interpreter.hpp"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <limits>
#include <string>

#include "model/components.hpp"
#include "model/workload_decode.hpp"

namespace kpw::model {

namespace {

using field::path;

struct kind_entry {
    std::string_view api_version;
    std::string_view kind;
    replica_interpreter reader;
};

// The native interpreter's replica handlers (default/native/replica.go getAllDefaultReplicaInterpreter),
// then every shipped customization with a replicaResource script (the same set in v1.16.0, v1.17.1 and
// v1.18.2, but RayService's, which came in v1.17.0: settings::changes::ray_service_replicas).
constexpr kind_entry interpreted_kinds[] = {
    {"apps/v1", "Deployment", replica_interpreter::native_template},
    {"apps/v1", "ReplicaSet", replica_interpreter::native_template},
    {"apps/v1", "StatefulSet", replica_interpreter::native_template},
    {"batch/v1", "Job", replica_interpreter::native_job},
    {"v1", "Pod", replica_interpreter::native_pod},
    {"apps.kruise.io/v1alpha1", "CloneSet", replica_interpreter::spec_replicas},
    {"apps.kruise.io/v1beta1", "StatefulSet", replica_interpreter::spec_replicas},
    {"apps.kruise.io/v1alpha1", "UnitedDeployment", replica_interpreter::spec_replicas},
    {"apps.kruise.io/v1alpha1", "BroadcastJob", replica_interpreter::parallelism},
    {"apps.kruise.io/v1alpha1", "SidecarSet", replica_interpreter::zero},
    {"argoproj.io/v1alpha1", "Workflow", replica_interpreter::workflow},
    {"kubeflow.org/v1", "Notebook", replica_interpreter::notebook},
    {"flink.apache.org/v1beta1", "FlinkDeployment", replica_interpreter::flink},
    {"ray.io/v1", "RayService", replica_interpreter::ray_service},
};

// ConvertLuaResultToInt: `int32(lua.LNumber)`, Go's float64 to int32 conversion. On amd64 Go converts
// through int64 (CVTTSD2SQ) and keeps the low 32 bits; beyond int64 the instruction yields INT64_MIN.
std::int32_t go_int32(double v)
{
    if (std::isnan(v) || v >= 9223372036854775808.0 || v < -9223372036854775808.0)
        return 0; // INT64_MIN's low 32 bits
    auto wide = static_cast<std::int64_t>(std::trunc(v));
    return static_cast<std::int32_t>(static_cast<std::uint32_t>(static_cast<std::uint64_t>(wide)));
}

bool lua_nil(const doc::value* node) { return node == nullptr || node->is_null(); }

// `obj.spec.<field>` returned as the replica count: a Lua number or the script fails (a numeric string
// stays a string: ConvertLuaResultToInt does not coerce). nullopt for a nil field, which the caller
// defaults or reports.
std::optional<std::int32_t> lua_replicas(const doc::value& node, const path& at, field::error_list& errors)
{
    if (node.is_number())
        return go_int32(node.as_double());
    errors.push_back(field::type_invalid(at, doc::to_json(node),
                                         "Karmada's GetReplicas fails: the replicaResource script returns it as the "
                                         "replica count, which must be a number"));
    return std::nullopt;
}

// kube.accuratePodRequirements(template): the argument must be a Lua table (ls.CheckTable); an empty one
// converts back to an empty PodTemplateSpec (lua_convert.go convertEmptySliceToEmptyStructPartly).
const doc::value* pod_template(const doc::value* tmpl, const path& at, field::error_list& errors)
{
    if (tmpl != nullptr && (tmpl->is_mapping() || (tmpl->is_sequence() && tmpl->items().empty())))
        return tmpl;
    if (tmpl == nullptr || tmpl->is_null())
        errors.push_back(field::required(at, "Karmada's GetReplicas fails: its replicaResource script passes it to "
                                             "kube.accuratePodRequirements"));
    else
        errors.push_back(field::type_invalid(at, doc::to_json(*tmpl),
                                             "Karmada's GetReplicas fails: kube.accuratePodRequirements needs a pod "
                                             "template (a mapping)"));
    return nullptr;
}

// kube.accuratePodRequirements of the template, into what the script returns.
void template_requirements(const doc::value& tmpl, const path& at, scripted_replicas& out, field::error_list& errors)
{
    auto requirements = decode_template_requirements(&tmpl, at, errors);
    out.has_requirements = requirements.present();
    out.request = std::move(requirements.request);
    out.claim = std::move(requirements.claim);
    out.sidecars = std::move(requirements.sidecars);
}

// `replica = 1; if obj.spec.parallelism ~= nil then replica = obj.spec.parallelism end`.
std::optional<std::int32_t> parallelism_or_one(const doc::value& spec, field::error_list& errors)
{
    const doc::value* p = spec.find("parallelism");
    if (lua_nil(p))
        return 1;
    return lua_replicas(*p, path::root("spec").child("parallelism"), errors);
}

// `replica = obj.spec.replicas`: nil is not a number either.
std::optional<std::int32_t> spec_replicas(const doc::value& spec, field::error_list& errors)
{
    const doc::value* r = spec.find("replicas");
    auto at = path::root("spec").child("replicas");
    if (lua_nil(r)) {
        errors.push_back(field::required(at, "Karmada's GetReplicas fails: its replicaResource script returns "
                                             "spec.replicas, and nil is not a number"));
        return std::nullopt;
    }
    return lua_replicas(*r, at, errors);
}

std::optional<scripted_replicas> from_template(std::optional<std::int32_t> replicas, const doc::value& spec,
                                               field::error_list& errors)
{
    auto at = path::root("spec").child("template");
    const doc::value* tmpl = pod_template(spec.find("template"), at, errors);
    if (!replicas || tmpl == nullptr)
        return std::nullopt;
    scripted_replicas out;
    out.replicas = *replicas;
    template_requirements(*tmpl, at, out, errors);
    return out;
}

// Argo Workflow: a pod template of only spec.affinity, spec.nodeSelector and spec.tolerations, so the
// requirements are a node claim at most (no container, no request).
std::optional<scripted_replicas> workflow(const doc::value& spec, field::error_list& errors)
{
    auto replicas = parallelism_or_one(spec, errors);
    if (!replicas)
        return std::nullopt;
    scripted_replicas out;
    out.replicas = *replicas;
    out.claim = decode_node_claim(spec, path::root("spec"), errors);
    out.has_requirements = claims_nodes(spec);
    return out;
}

// `workerGroup.replicas or 0` added to a Lua number: numbers and numeric strings (Lua's arithmetic
// coercion), anything else fails the script.
std::optional<double> worker_replicas(const doc::value* node, const path& at, field::error_list& errors)
{
    if (lua_nil(node) || (node->is_bool() && !node->as_bool()))
        return 0.0;
    if (auto n = component_detail::lua_number(node))
        return n;
    errors.push_back(field::type_invalid(at, doc::to_json(*node),
                                         "Karmada's GetReplicas fails: RayService's script adds it to the replica "
                                         "count"));
    return std::nullopt;
}

// ray.io/v1 RayService: 1 (the head) plus every worker group's replicas; the requirements are the head
// template's, with cpu and memory raised to the largest of the head and the worker templates. A head
// template without requests or node claims gives no requirements at all (`requires` is nil then).
std::optional<scripted_replicas> ray_service(const doc::value& spec, field::error_list& errors)
{
    scripted_replicas out;
    const doc::value* config = spec.find("rayClusterConfig");
    const doc::value* head = !lua_nil(config) && config->is_mapping() ? config->find("headGroupSpec") : nullptr;
    if (lua_nil(config) || lua_nil(head) || !head->is_mapping() || lua_nil(head->find("template")))
        return out; // `return 0, nil`
    auto at = path::root("spec").child("rayClusterConfig");
    const doc::value* tmpl = pod_template(head->find("template"), at.child("headGroupSpec").child("template"), errors);
    if (tmpl == nullptr)
        return std::nullopt;
    template_requirements(*tmpl, at.child("headGroupSpec").child("template"), out, errors);
    double total = 1;
    auto largest = [&](std::string_view name, std::int64_t units) {
        auto it = std::find_if(out.request.begin(), out.request.end(), [&](const auto& r) { return r.first == name; });
        if (it == out.request.end())
            out.request.emplace_back(std::string(name), units);
        else
            it->second = std::max(it->second, units);
    };
    const doc::value* groups = config->find("workerGroupSpecs");
    if (!lua_nil(groups) && groups->is_sequence()) {
        for (std::size_t i = 0; i < groups->items().size(); ++i) {
            const doc::value& group = groups->items()[i];
            auto gp = at.child("workerGroupSpecs").index(i);
            if (group.is_null())
                break; // ipairs stops at the first nil
            if (!group.is_mapping())
                continue;
            auto n = worker_replicas(group.find("replicas"), gp.child("replicas"), errors);
            if (!n)
                return std::nullopt;
            total += *n;
            if (lua_nil(group.find("template")))
                continue;
            const doc::value* wt = pod_template(group.find("template"), gp.child("template"), errors);
            if (wt == nullptr)
                return std::nullopt;
            scripted_replicas worker;
            template_requirements(*wt, gp.child("template"), worker, errors);
            if (!out.has_requirements)
                continue; // the head's requires is nil: nothing is raised
            for (const auto& [name, units] : worker.request)
                if (name == "cpu" || name == "memory")
                    largest(name, units);
        }
    }
    std::sort(out.request.begin(), out.request.end());
    out.replicas = go_int32(total);
    return out;
}

} // namespace

replica_interpreter replica_interpreter_of(std::string_view api_version, std::string_view kind)
{
    auto it = std::find_if(std::begin(interpreted_kinds), std::end(interpreted_kinds),
                           [&](const kind_entry& e) { return e.api_version == api_version && e.kind == kind; });
    return it != std::end(interpreted_kinds) ? it->reader : replica_interpreter::none;
}

std::optional<scripted_replicas> script_replicas(replica_interpreter reader, const doc::value& spec,
                                                 field::error_list& errors)
{
    switch (reader) {
    case replica_interpreter::spec_replicas:
        return from_template(spec_replicas(spec, errors), spec, errors);
    case replica_interpreter::parallelism:
        return from_template(parallelism_or_one(spec, errors), spec, errors);
    case replica_interpreter::notebook:
        return from_template(1, spec, errors);
    case replica_interpreter::workflow:
        return workflow(spec, errors);
    case replica_interpreter::ray_service:
        return ray_service(spec, errors);
    default: // zero (SidecarSet's `return 0`), and the readers that are not scripts
        return scripted_replicas{};
    }
}

} // namespace kpw::model
