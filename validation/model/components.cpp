// SPDX-License-Identifier: Apache-2.0
// Components of pod-template kinds (Volcano, Kubeflow, Ray) and the helpers every kind shares.
#include "model/components.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <map>

#include "model/cluster_decode.hpp"
#include "model/workload_decode.hpp"

namespace kpw::model {

namespace {

using field::path;

// kube.accuratePodRequirements(template) = helper.GenerateReplicaRequirements (pkg/util/helper/binding.go):
// nil when the pod spec neither requests a resource nor claims nodes.
component pod_template_component(std::string name, std::int32_t replicas, const doc::value* tmpl, const path& at,
                                 field::error_list& errors)
{
    auto requirements = decode_template_requirements(tmpl, at, errors);
    component c{std::move(name), replicas, requirements.present(), std::move(requirements.request), {},
                std::move(requirements.claim)};
    for (const auto& [res, units] : c.request)
        c.request_text.emplace_back(res, canonical_text(resource_list_quantity(res, units)));
    return c;
}

// `to_num(spec.replicas, def)` of the scripts, then the int32 conversion of the binding.
std::optional<std::int32_t> script_replicas(const doc::value* node, double def, const path& at,
                                            field::error_list& errors)
{
    bool absent = node == nullptr || node->is_null() || (node->is_string() && node->text().empty());
    auto n = absent ? std::optional<double>(def) : component_detail::lua_number(node);
    return component_detail::replicas_of(n.value_or(def), at, errors);
}

void add(std::vector<component>& out, std::optional<std::int32_t> replicas, std::string name, const doc::value* tmpl,
         const path& at, field::error_list& errors, std::string_view name_field = "name")
{
    if (!replicas || !component_detail::valid_name(name, at.child(name_field), errors))
        return;
    out.push_back(pod_template_component(std::move(name), *replicas, tmpl, at.child("template"), errors));
}

// batch.volcano.sh/v1alpha1/Job: one component per task, replicas = task.minAvailable (default 1, not
// task.replicas), name "task-<0-based index>" when the task has none; a task without template fails.
std::vector<component> volcano_components(const doc::value& spec, field::error_list& errors)
{
    std::vector<component> out;
    auto at = path::root("spec").child("tasks");
    const auto& tasks = read::items(spec.find("tasks"), at, errors);
    for (std::size_t i = 0; i < tasks.size(); ++i) {
        const doc::value* tmpl = tasks[i].find("template");
        if (tmpl == nullptr || !tmpl->is_mapping()) {
            errors.push_back(field::required(at.index(i).child("template"),
                                             "Karmada's GetComponents calls kube.accuratePodRequirements on it"));
            continue;
        }
        std::string name(tasks[i].string_at("name"));
        if (name.empty())
            name = "task-" + std::to_string(i);
        add(out, script_replicas(tasks[i].find("minAvailable"), 1, at.index(i).child("minAvailable"), errors),
            std::move(name), tmpl, at.index(i), errors);
    }
    return out;
}

// kubeflow.org/v1 PyTorchJob (Master, Worker) and TFJob (PS, Worker, Chief, Master, Evaluator): fixed
// keys in a fixed order, replicas default 1, lower-case component names.
std::vector<component> kubeflow_components(const doc::value& spec, std::string_view specs_key,
                                           std::initializer_list<std::pair<std::string_view, std::string_view>> keys,
                                           field::error_list& errors)
{
    std::vector<component> out;
    auto at = path::root("spec").child(specs_key);
    const doc::value* specs = spec.find(specs_key);
    for (const auto& [key, name] : keys) {
        const doc::value* rs = specs != nullptr ? specs->find(key) : nullptr;
        if (rs == nullptr || rs->is_null())
            continue;
        add(out, script_replicas(rs->find("replicas"), 1, at.child(key).child("replicas"), errors), std::string(name),
            rs->find("template"), at.child(key), errors);
    }
    return out;
}

// kubeflow.org/v2beta1/MPIJob: every mpiReplicaSpecs entry with a template, named by its key; replicas
// default 1, 0 for "worker" (any case). The script iterates with pairs(), whose order Go's map decoding
// leaves random; keys are taken in sorted order here.
std::vector<component> mpi_components(const doc::value& spec, field::error_list& errors)
{
    std::vector<component> out;
    auto at = path::root("spec").child("mpiReplicaSpecs");
    const doc::value* specs = spec.find("mpiReplicaSpecs");
    if (specs == nullptr || !specs->is_mapping())
        return out;
    std::vector<const doc::value::member*> sorted;
    for (const auto& m : specs->members())
        sorted.push_back(&m);
    std::sort(sorted.begin(), sorted.end(), [](auto* a, auto* b) { return a->first < b->first; });
    for (const auto* m : sorted) {
        const doc::value* tmpl = m->second.find("template");
        if (tmpl == nullptr || tmpl->is_null())
            continue;
        std::string lower = m->first;
        std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char ch) { return std::tolower(ch); });
        double def = lower == "worker" ? 0 : 1;
        add(out, script_replicas(m->second.find("replicas"), def, at.key(m->first).child("replicas"), errors),
            m->first, tmpl, at.key(m->first), errors);
    }
    return out;
}

// ray.io/v1 RayCluster (spec) and RayJob (spec.rayClusterSpec): "ray-head" with 1 replica when the head
// has a template, then every worker group, named "worker-<1-based index>" when unnamed, replicas taken
// as written (`workerGroup.replicas or 0`, no to_num: a string fails the int32 conversion).
std::vector<component> ray_components(const doc::value* cluster_spec, const path& at, field::error_list& errors)
{
    std::vector<component> out;
    if (cluster_spec == nullptr || !cluster_spec->is_mapping())
        return out;
    const doc::value* head = cluster_spec->find("headGroupSpec");
    if (head != nullptr && head->find("template") != nullptr && !head->find("template")->is_null())
        add(out, 1, "ray-head", head->find("template"), at.child("headGroupSpec"), errors);
    auto wp = at.child("workerGroupSpecs");
    const auto& groups = read::items(cluster_spec->find("workerGroupSpecs"), wp, errors);
    for (std::size_t i = 0; i < groups.size(); ++i) {
        std::string name(groups[i].string_at("groupName"));
        if (name.empty())
            name = "worker-" + std::to_string(i + 1);
        const doc::value* r = groups[i].find("replicas");
        auto rp = wp.index(i).child("replicas");
        std::optional<std::int32_t> replicas = std::int32_t{0};
        if (r != nullptr && !r->is_null() && r->is_number()) {
            replicas = component_detail::replicas_of(r->as_double(), rp, errors);
        } else if (r != nullptr && !r->is_null()) {
            errors.push_back(field::type_invalid(rp, doc::to_json(*r), "Karmada copies it into an int32 replicas"));
            continue;
        }
        add(out, replicas, std::move(name), groups[i].find("template"), wp.index(i), errors, "groupName");
    }
    return out;
}

} // namespace

quantity resource_list_quantity(std::string_view name, std::int64_t units)
{
    if (name == "cpu")
        return quantity::from_millis(units);
    bool binary = name == "memory" || name == "ephemeral-storage" || name.starts_with("hugepages-");
    return quantity::from_int(units).with_notation(binary ? notation::binary_si : notation::decimal_si);
}

std::vector<std::pair<std::string, quantity>> request_quantities(const component& c)
{
    std::vector<std::pair<std::string, quantity>> out;
    if (c.request_text.empty()) {
        for (const auto& [name, units] : c.request)
            out.emplace_back(name, resource_list_quantity(name, units));
        return out;
    }
    for (const auto& [name, text] : c.request_text)
        if (auto q = parse_quantity(text))
            out.emplace_back(name, *q);
    return out;
}

bool is_scalar_resource_name(std::string_view name)
{
    if (name.starts_with("hugepages-") || name.starts_with("attachable-volumes-"))
        return true;
    if (name.find("kubernetes.io/") != std::string_view::npos)
        return true; // IsPrefixedNativeResource
    // IsExtendedResourceName: not native (a "/" outside kubernetes.io/), not "requests.*".
    return name.find('/') != std::string_view::npos && !name.starts_with("requests.");
}

bool has_component_interpreter(std::string_view api_version, std::string_view kind)
{
    static constexpr std::pair<std::string_view, std::string_view> kinds[] = {
        {"batch.volcano.sh/v1alpha1", "Job"},        {"flink.apache.org/v1beta1", "FlinkDeployment"},
        {"kubeflow.org/v1", "PyTorchJob"},           {"kubeflow.org/v1", "TFJob"},
        {"kubeflow.org/v2beta1", "MPIJob"},          {"ray.io/v1", "RayCluster"},
        {"ray.io/v1", "RayJob"},                     {"sparkoperator.k8s.io/v1beta2", "SparkApplication"},
    };
    return std::any_of(std::begin(kinds), std::end(kinds),
                       [&](const auto& k) { return k.first == api_version && k.second == kind; });
}

// Each kind's componentResource.luaScript in pkg/resourceinterpreter/default/thirdparty/resourcecustomizations/
// <apiVersion>/<kind>/customizations.yaml, named in the comment of its branch.
std::vector<component> decode_components(const doc::value& object, field::error_list& errors)
{
    auto api_version = object.string_at("apiVersion");
    auto kind = object.string_at("kind");
    const doc::value* spec = object.find("spec");
    if (!has_component_interpreter(api_version, kind) || spec == nullptr || !spec->is_mapping())
        return {};
    if (kind == "Job")
        return volcano_components(*spec, errors); // batch.volcano.sh/v1alpha1/Job
    if (kind == "PyTorchJob")                     // kubeflow.org/v1/PyTorchJob
        return kubeflow_components(*spec, "pytorchReplicaSpecs", {{"Master", "master"}, {"Worker", "worker"}}, errors);
    if (kind == "TFJob") // kubeflow.org/v1/TFJob
        return kubeflow_components(*spec, "tfReplicaSpecs",
                                   {{"PS", "ps"}, {"Worker", "worker"}, {"Chief", "chief"}, {"Master", "master"},
                                    {"Evaluator", "evaluator"}},
                                   errors);
    if (kind == "MPIJob") // kubeflow.org/v2beta1/MPIJob
        return mpi_components(*spec, errors);
    if (kind == "RayCluster") // ray.io/v1/RayCluster
        return ray_components(spec, path::root("spec"), errors);
    if (kind == "RayJob") // ray.io/v1/RayJob
        return ray_components(spec->find("rayClusterSpec"), path::root("spec").child("rayClusterSpec"), errors);
    if (kind == "FlinkDeployment") // flink.apache.org/v1beta1/FlinkDeployment
        return flink_components(*spec, errors);
    return spark_components(*spec, errors); // sparkoperator.k8s.io/v1beta2/SparkApplication
}

namespace component_detail {

std::optional<double> lua_number(const doc::value* node)
{
    if (node == nullptr)
        return std::nullopt;
    if (node->is_number())
        return node->as_double();
    if (!node->is_string())
        return std::nullopt;
    // tonumber(): surrounding spaces allowed, decimal or hexadecimal, no inf/nan spellings.
    std::string s = node->text();
    s.erase(0, s.find_first_not_of(" \t\n"));
    s.erase(s.find_last_not_of(" \t\n") + 1);
    if (s.empty() || s.find_first_of("iInN") != std::string::npos)
        return std::nullopt;
    char* end = nullptr;
    double v = std::strtod(s.c_str(), &end);
    if (end != s.c_str() + s.size())
        return std::nullopt;
    return v;
}

std::optional<std::int32_t> replicas_of(double value, const path& at, field::error_list& errors)
{
    if (std::isfinite(value) && value == std::floor(value) && value >= INT32_MIN && value <= INT32_MAX)
        return static_cast<std::int32_t>(value);
    char text[32];
    auto r = std::to_chars(text, text + sizeof text, value);
    errors.push_back(field::invalid(at, std::string(text, r.ptr),
                                    "Karmada's GetComponents fails: json: cannot unmarshal this number into "
                                    "Component.replicas of type int32"));
    return std::nullopt;
}

quantity lua_float_quantity(double value)
{
    char text[64];
    double mag = std::fabs(value);
    auto format = mag != 0 && (mag < 1e-6 || mag >= 1e21) ? std::chars_format::scientific : std::chars_format::fixed;
    auto r = std::to_chars(text, text + sizeof text, value, format);
    return parse_quantity(std::string_view(text, r.ptr)).value_or(quantity{});
}

component quantity_component(std::string name, std::int32_t replicas,
                             const std::vector<std::pair<std::string, quantity>>& request)
{
    component c{std::move(name), replicas, true, {}, {}, {}};
    std::map<std::string, quantity, std::less<>> sorted(request.begin(), request.end());
    for (const auto& [res, q] : sorted) {
        if (q.is_zero())
            continue;
        c.request.emplace_back(res, res == "cpu" ? q.milli_ceil() : q.value_ceil());
        c.request_text.emplace_back(res, canonical_text(q));
    }
    return c;
}

bool valid_name(const std::string& name, const path& at, field::error_list& errors)
{
    if (name.size() <= 32)
        return true;
    auto e = field::too_long(at, 32);
    e.detail = "component name " + field::go_quote(name) + " is longer than the binding's limit of 32 bytes; " +
               e.detail;
    errors.push_back(std::move(e));
    return false;
}

} // namespace component_detail

} // namespace kpw::model
