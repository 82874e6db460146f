// SPDX-License-Identifier: Apache-2.0
// Components of FlinkDeployment and SparkApplication: requests from the CRDs' own resource fields.
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "model/components.hpp"

namespace kpw::model {

namespace {

using field::path;
using request_list = std::vector<std::pair<std::string, quantity>>;
namespace detail = component_detail;

bool absent(const doc::value* node)
{
    return node == nullptr || node->is_null() || (node->is_string() && node->text().empty());
}

// `to_num(v, default)` of the scripts without the default: nullopt when absent or not numeric.
std::optional<double> to_num(const doc::value* node)
{
    return absent(node) ? std::nullopt : detail::lua_number(node);
}

double to_num(const doc::value* node, double def) { return to_num(node).value_or(def); }

// A cpu value copied from the object into resourceRequest: a number as gopher-json writes it, a string as
// Quantity parses it; anything else fails the binding's json.Unmarshal.
std::optional<quantity> copied_quantity(const doc::value& node, const path& at, field::error_list& errors)
{
    if (node.is_number())
        return detail::lua_float_quantity(node.as_double());
    if (node.is_string())
        if (auto q = parse_quantity(node.text()))
            return q;
    errors.push_back(field::invalid(at, doc::to_json(node), "Karmada's GetComponents fails: not a quantity"));
    return std::nullopt;
}

// kube.getResourceQuantity(s) (luavm/kube.go): resource.MustParse, then AsApproximateFloat64 back into Lua.
// A number is a Lua type error, an unparsable string a panic, a negative amount an error.
std::optional<quantity> flink_memory(const doc::value& node, const path& at, field::error_list& errors)
{
    auto q = node.is_string() ? parse_quantity(node.text()) : std::nullopt;
    if (!q || q->nanos() < 0) {
        errors.push_back(field::invalid(at, doc::to_json(node),
                                        "Karmada's GetComponents fails: kube.getResourceQuantity needs a "
                                        "non-negative Kubernetes quantity string (Flink's \"2g\" is not one)"));
        return std::nullopt;
    }
    return detail::lua_float_quantity(static_cast<double>(q->nanos()) / 1e9);
}

std::optional<component> flink_component(const doc::value* role, std::string name, std::int32_t replicas,
                                         const path& at, field::error_list& errors)
{
    request_list request;
    const doc::value* res = role != nullptr ? role->find("resource") : nullptr;
    const doc::value* cpu = res != nullptr ? res->find("cpu") : nullptr;
    const doc::value* memory = res != nullptr ? res->find("memory") : nullptr;
    if (cpu != nullptr && !cpu->is_null()) {
        auto q = copied_quantity(*cpu, at.child("resource").child("cpu"), errors);
        if (!q)
            return std::nullopt;
        request.emplace_back("cpu", *q);
    }
    if (memory != nullptr && !memory->is_null()) {
        auto q = flink_memory(*memory, at.child("resource").child("memory"), errors);
        if (!q)
            return std::nullopt;
        request.emplace_back("memory", *q);
    }
    return detail::quantity_component(std::move(name), replicas, request);
}

// taskManager.replicas, else ceil(job.parallelism / taskmanager.numberOfTaskSlots), 1 when either is
// missing or the slots are 0. (A parallelism of 0 gives 0 taskmanagers: the script has no check.)
std::optional<std::int32_t> taskmanager_replicas(const doc::value& spec, field::error_list& errors)
{
    auto at = path::root("spec");
    const doc::value* tm = spec.find("taskManager");
    auto replicas = to_num(tm != nullptr ? tm->find("replicas") : nullptr);
    if (replicas)
        return detail::replicas_of(*replicas, at.child("taskManager").child("replicas"), errors);
    const doc::value* job = spec.find("job");
    const doc::value* conf = spec.find("flinkConfiguration");
    auto parallelism = to_num(job != nullptr ? job->find("parallelism") : nullptr);
    auto slots = to_num(conf != nullptr ? conf->find("taskmanager.numberOfTaskSlots") : nullptr);
    if (!parallelism || !slots || *slots == 0)
        return 1;
    return detail::replicas_of(std::ceil(*parallelism / *slots), at.child("job").child("parallelism"), errors);
}

// Java memory strings of the Spark script: digits with an optional fraction, then b, k(b), m(b), g(b),
// t(b) or p(b) in any case; nullopt for anything the script cannot compute with.
struct java_memory {
    double value = 0;
    int unit = 0; // 0 B, 1 Ki, 2 Mi, ... (kube_unit_order)
};

std::optional<java_memory> parse_java_memory(std::string s)
{
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
    std::size_t i = 0;
    while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i])))
        ++i;
    if (i == 0)
        return std::nullopt;
    if (i < s.size() && s[i] == '.')
        for (++i; i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]));)
            ++i;
    static constexpr std::pair<std::string_view, int> units[] = {{"b", 0},  {"kb", 1}, {"k", 1}, {"mb", 2},
                                                                 {"m", 2},  {"gb", 3}, {"g", 3}, {"tb", 4},
                                                                 {"t", 4},  {"pb", 5}, {"p", 5}};
    for (const auto& [name, order] : units)
        if (s.substr(i) == name)
            return java_memory{std::strtod(s.substr(0, i).c_str(), nullptr), order};
    return std::nullopt;
}

double convert_unit(double value, int from, int to) { return value * (std::pow(1024.0, from) / std::pow(1024.0, to)); }

// calculate_total_memory_request of the script: memory plus overhead (given, or max(memory × factor,
// 384Mi)) in the smaller unit, written with "%f" and that unit, then parsed as a quantity.
std::optional<quantity> spark_memory(const doc::value* role, double factor, const path& at, field::error_list& errors)
{
    const doc::value* mem = role != nullptr ? role->find("memory") : nullptr;
    const doc::value* over = role != nullptr ? role->find("memoryOverhead") : nullptr;
    auto m = parse_java_memory(absent(mem) ? "1g" : mem->is_string() ? mem->text() : doc::to_json(*mem));
    std::optional<java_memory> o;
    if (!absent(over))
        o = parse_java_memory(over->is_string() ? over->text() : doc::to_json(*over));
    if (!m || (!absent(over) && !o)) {
        errors.push_back(field::invalid(!m ? at.child("memory") : at.child("memoryOverhead"),
                                        doc::to_json(!m ? *mem : *over),
                                        "Karmada's GetComponents fails: not a Java memory size with a unit "
                                        "(512m, 2g, ...)"));
        return std::nullopt;
    }
    if (!o) {
        int smaller = std::min(m->unit, 2);
        o = java_memory{std::max(convert_unit(m->value * factor, m->unit, smaller), convert_unit(384, 2, smaller)),
                        smaller};
    }
    int final_unit = std::min(m->unit, o->unit);
    double total = convert_unit(m->value, m->unit, final_unit) + convert_unit(o->value, o->unit, final_unit);
    static constexpr const char* suffix[] = {"B", "Ki", "Mi", "Gi", "Ti", "Pi"};
    char text[400];
    std::snprintf(text, sizeof text, "%f%s", total, suffix[final_unit]);
    auto q = parse_quantity(text);
    if (!q)
        errors.push_back(field::invalid(at.child("memory"), field::go_quote(text),
                                        "Karmada's GetComponents fails: the script's total is not a quantity"));
    return q;
}

std::optional<component> spark_component(const doc::value& spec, std::string_view role_key, std::string name,
                                         std::int32_t replicas, double factor, field::error_list& errors)
{
    auto at = path::root("spec").child(role_key);
    const doc::value* role = spec.find(role_key);
    const doc::value* cores = role != nullptr ? role->find("cores") : nullptr;
    auto cpu = absent(cores) ? quantity::from_int(1) : copied_quantity(*cores, at.child("cores"), errors);
    auto memory = spark_memory(role, factor, at, errors);
    if (!cpu || !memory)
        return std::nullopt;
    request_list request{{"cpu", *cpu}, {"memory", *memory}};
    const doc::value* gpu = role != nullptr ? role->find("gpu") : nullptr;
    if (gpu != nullptr && gpu->is_mapping()) {
        auto qty = to_num(gpu->find("quantity"), 0.0);
        std::string gpu_name(gpu->string_at("name"));
        if (!gpu_name.empty() && qty > 0)
            request.emplace_back(gpu_name, detail::lua_float_quantity(qty));
    }
    return detail::quantity_component(std::move(name), replicas, request);
}

// Executors: executor.instances (default 1), raised to dynamicAllocation.initialExecutors and
// minExecutors (default 1 each) when dynamicAllocation.enabled is truthy in Lua (not null, not false).
std::optional<std::int32_t> executor_replicas(const doc::value& spec, field::error_list& errors)
{
    const doc::value* exe = spec.find("executor");
    double replicas = to_num(exe != nullptr ? exe->find("instances") : nullptr, 1.0);
    const doc::value* dyn = spec.find("dynamicAllocation");
    const doc::value* enabled = dyn != nullptr ? dyn->find("enabled") : nullptr;
    if (enabled != nullptr && !enabled->is_null() && !(enabled->is_bool() && !enabled->as_bool())) {
        replicas = std::max(replicas, to_num(dyn->find("initialExecutors"), 1.0));
        replicas = std::max(replicas, to_num(dyn->find("minExecutors"), 1.0));
    }
    return detail::replicas_of(replicas, path::root("spec").child("executor").child("instances"), errors);
}

// The larger of two optional request values, as the script's math.max (a present one wins alone).
std::optional<quantity> larger(std::optional<quantity> a, std::optional<quantity> b)
{
    if (a && b)
        return *a > *b ? a : b;
    return a ? a : b;
}

std::optional<quantity> role_value(const doc::value* role, std::string_view key, bool& failed)
{
    const doc::value* res = role != nullptr ? role->find("resource") : nullptr;
    const doc::value* v = res != nullptr ? res->find(key) : nullptr;
    if (v == nullptr || v->is_null())
        return std::nullopt;
    auto q = v->is_number() ? std::optional<quantity>(detail::lua_float_quantity(v->as_double()))
             : v->is_string() ? parse_quantity(v->text())
                              : std::nullopt;
    failed = failed || !q;
    return q;
}

} // namespace

std::optional<replica_interpretation> flink_replicas(const doc::value& spec)
{
    field::error_list ignored; // the component decoding reports the same fields
    const doc::value* jm = spec.find("jobManager");
    const doc::value* tm = spec.find("taskManager");
    auto jm_count = detail::replicas_of(to_num(jm != nullptr ? jm->find("replicas") : nullptr, 1.0), {}, ignored);
    auto tm_count = taskmanager_replicas(spec, ignored);
    bool failed = !jm_count || !tm_count;
    auto cpu = larger(role_value(jm, "cpu", failed), role_value(tm, "cpu", failed));
    auto memory = larger(role_value(jm, "memory", failed), role_value(tm, "memory", failed));
    if (failed)
        return std::nullopt;
    replica_interpretation out;
    out.replicas = detail::replicas_of(double(*jm_count) + double(*tm_count), {}, ignored).value_or(0);
    if (cpu && !cpu->is_zero())
        out.request.emplace_back("cpu", cpu->milli_ceil());
    if (memory && !memory->is_zero())
        out.request.emplace_back("memory", memory->value_ceil());
    return out;
}

// flink.apache.org/v1beta1/FlinkDeployment/customizations.yaml componentResource: "jobmanager"
// (jobManager.replicas, default 1) and "taskmanager"; cpu copied, memory through kube.getResourceQuantity.
std::vector<component> flink_components(const doc::value& spec, field::error_list& errors)
{
    std::vector<component> out;
    auto at = path::root("spec");
    const doc::value* jm = spec.find("jobManager");
    auto jm_replicas = to_num(jm != nullptr ? jm->find("replicas") : nullptr, 1.0);
    auto jm_count = detail::replicas_of(jm_replicas, at.child("jobManager").child("replicas"), errors);
    auto tm_count = taskmanager_replicas(spec, errors);
    if (!jm_count || !tm_count)
        return out;
    auto jobmanager = flink_component(jm, "jobmanager", *jm_count, at.child("jobManager"), errors);
    auto taskmanager = flink_component(spec.find("taskManager"), "taskmanager", *tm_count, at.child("taskManager"),
                                       errors);
    if (!jobmanager || !taskmanager)
        return out;
    return {std::move(*jobmanager), std::move(*taskmanager)};
}

// sparkoperator.k8s.io/v1beta2/SparkApplication/customizations.yaml componentResource: "driver" (1) and
// "executor"; cores default 1, memory default "1g" plus overhead (factor spec.memoryOverheadFactor,
// default 0.1 for Java/Scala, 0.4 otherwise), gpu {name, quantity} when the quantity is positive.
std::vector<component> spark_components(const doc::value& spec, field::error_list& errors)
{
    const doc::value* type = spec.find("type");
    if (type == nullptr || !type->is_string()) {
        errors.push_back(field::required(path::root("spec").child("type"),
                                         "Karmada's GetComponents fails: the script calls spec.type:lower()"));
        return {};
    }
    std::string job = type->text();
    std::transform(job.begin(), job.end(), job.begin(), [](unsigned char c) { return std::tolower(c); });
    double factor = to_num(spec.find("memoryOverheadFactor"), job == "java" || job == "scala" ? 0.10 : 0.40);
    auto exe_count = executor_replicas(spec, errors);
    auto driver = spark_component(spec, "driver", "driver", 1, factor, errors);
    auto executor = exe_count ? spark_component(spec, "executor", "executor", *exe_count, factor, errors)
                              : std::nullopt;
    if (!driver || !executor)
        return {};
    return {std::move(*driver), std::move(*executor)};
}

} // namespace kpw::model
