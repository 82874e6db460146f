// SPDX-License-Identifier: Apache-2.0
// Binding decoding: metadata and claim, spec (resource, requirements, placement, clusters, eviction tasks), status.
#include "model/binding_decode.hpp"

#include <limits>

#include "doc/load.hpp"
#include "model/cluster_decode.hpp"
#include "model/karmada_types.hpp"
#include "model/placement_decode.hpp"
#include "model/workload_decode.hpp"
#include "model/well_known.hpp"

namespace kpw::model {

namespace {

using string_map = std::map<std::string, std::string>;

bool present(const doc::value* node) { return node != nullptr && !node->is_null(); }

// A replica count: int32, not negative (the CRD's minimum and Go's int32).
std::int32_t replicas(const doc::value* node, const field::path& at, field::error_list& errors)
{
    const std::int64_t v = read::integer(node, at, errors, 0);
    if (v < 0) {
        errors.push_back(field::invalid(at, field::go_int(v), "must be greater than or equal to 0"));
        return 0;
    }
    if (v > std::numeric_limits<std::int32_t>::max()) {
        errors.push_back(field::type_invalid(at, field::go_int(v), "expected int32"));
        return 0;
    }
    return static_cast<std::int32_t>(v);
}

std::optional<bool> boolean(const doc::value* node, const field::path& at, field::error_list& errors)
{
    if (!present(node))
        return std::nullopt;
    if (!node->is_bool()) {
        errors.push_back(field::type_invalid(at, doc::to_json(*node), "expected boolean"));
        return std::nullopt;
    }
    return node->as_bool();
}

string_map plain_map(const doc::value* node, const field::path& at, field::error_list& errors)
{
    auto m = read::string_map(node, at, errors);
    return {m.begin(), m.end()};
}

// ResourceList -> karmada units (cpu in millicores, the rest in whole units, each rounded up), zeros
// dropped, as helper.GenerateReplicaRequirements leaves it; plus the quantities as written.
void decode_request(const doc::value* requirements, const field::path& at, field::error_list& errors,
                    replica_request& request, std::vector<std::pair<std::string, std::string>>* text)
{
    const doc::value* node = present(requirements) ? requirements->find("resourceRequest") : nullptr;
    for (const auto& [name, q] : read::resources(node, at.child("resourceRequest"), errors)) {
        const std::int64_t units = name == "cpu" ? q.milli_ceil() : q.value_ceil();
        if (units != 0)
            request.emplace_back(name, units);
        if (text != nullptr)
            text->emplace_back(name, node->find(name)->text());
    }
}

std::vector<component> decode_components(const doc::value* node, const field::path& at, field::error_list& errors)
{
    return read::struct_list<component>(node, at, errors, [&](const doc::value& item, const field::path& p) {
        component c;
        c.name = read::string(item.find("name"), p.child("name"), errors);
        c.replicas = replicas(item.find("replicas"), p.child("replicas"), errors);
        const doc::value* req = item.find("replicaRequirements");
        c.has_requirements = present(req);
        decode_request(req, p.child("replicaRequirements"), errors, c.request, &c.request_text);
        if (present(req) && req->is_mapping())
            c.claim = decode_binding_node_claim(req->find("nodeClaim"), p.child("replicaRequirements").child("nodeClaim"),
                                                errors);
        return c;
    });
}

std::vector<target_cluster> decode_targets(const doc::value* node, const field::path& at, field::error_list& errors)
{
    return read::struct_list<target_cluster>(node, at, errors, [&](const doc::value& item, const field::path& p) {
        target_cluster t;
        t.name = read::string(item.find("name"), p.child("name"), errors);
        t.replicas = replicas(item.find("replicas"), p.child("replicas"), errors);
        read::structs(item.find("components"), p.child("components"), errors,
                   [&](const doc::value& comp, const field::path& cp) {
                       t.components.push_back({read::string(comp.find("name"), cp.child("name"), errors),
                                               replicas(comp.find("replicas"), cp.child("replicas"), errors)});
                   });
        return t;
    });
}

graceful_eviction_task decode_task(const doc::value& node, const field::path& p, field::error_list& errors)
{
    graceful_eviction_task t;
    t.from_cluster = read::string(node.find("fromCluster"), p.child("fromCluster"), errors);
    t.purge_mode = read::string(node.find("purgeMode"), p.child("purgeMode"), errors);
    t.replicas = replicas(node.find("replicas"), p.child("replicas"), errors);
    t.reason = read::string(node.find("reason"), p.child("reason"), errors);
    t.message = read::string(node.find("message"), p.child("message"), errors);
    t.producer = read::string(node.find("producer"), p.child("producer"), errors);
    if (present(node.find("gracePeriodSeconds")))
        t.grace_period_seconds = static_cast<std::int32_t>(
            read::integer(node.find("gracePeriodSeconds"), p.child("gracePeriodSeconds"), errors, 0));
    t.suppress_deletion = boolean(node.find("suppressDeletion"), p.child("suppressDeletion"), errors);
    t.creation_timestamp = read::time(node.find("creationTimestamp"), p.child("creationTimestamp"), errors);
    return t;
}

object_reference decode_resource(const doc::value* node, const field::path& at, field::error_list& errors)
{
    object_reference r;
    if (!present(node) || !read::struct_item(*node, at, errors))
        return r; // a resource that is no object: Karmada's Go client cannot restore the struct
    r.api_version = read::string(node->find("apiVersion"), at.child("apiVersion"), errors);
    r.kind = read::string(node->find("kind"), at.child("kind"), errors);
    r.namespace_ = read::string(node->find("namespace"), at.child("namespace"), errors);
    r.name = read::string(node->find("name"), at.child("name"), errors);
    r.uid = read::string(node->find("uid"), at.child("uid"), errors);
    r.resource_version = read::string(node->find("resourceVersion"), at.child("resourceVersion"), errors);
    return r;
}

void decode_spec(const doc::value& spec, field::error_list& errors, binding& b)
{
    auto at = field::path::root("spec");
    b.resource = decode_resource(spec.find("resource"), at.child("resource"), errors);
    b.replicas = replicas(spec.find("replicas"), at.child("replicas"), errors);
    const doc::value* req = spec.find("replicaRequirements");
    b.has_requirements = present(req);
    decode_request(req, at.child("replicaRequirements"), errors, b.request, nullptr);
    if (present(req) && req->is_mapping())
        b.node_claim = decode_binding_node_claim(req->find("nodeClaim"), at.child("replicaRequirements").child("nodeClaim"),
                                                 errors);
    b.components = decode_components(spec.find("components"), at.child("components"), errors);
    b.placement = decode_placement(spec.find("placement"), at.child("placement"), errors);
    b.scheduler_name = read::string(spec.find("schedulerName"), at.child("schedulerName"), errors);
    b.failover = decode_failover(spec.find("failover"), at.child("failover"), errors);
    if (const doc::value* s = spec.find("suspension"); present(s))
        b.suspend_scheduling =
            boolean(s->find("scheduling"), at.child("suspension").child("scheduling"), errors).value_or(false);
    b.clusters = decode_targets(spec.find("clusters"), at.child("clusters"), errors);
    b.graceful_eviction_tasks = read::struct_list<graceful_eviction_task>(
        spec.find("gracefulEvictionTasks"), at.child("gracefulEvictionTasks"), errors,
        [&](const doc::value& task, const field::path& p) { return decode_task(task, p, errors); });
    b.reschedule_triggered_at =
        read::time(spec.find("rescheduleTriggeredAt"), at.child("rescheduleTriggeredAt"), errors);
}

void decode_status(const doc::value& status, field::error_list& errors, binding& b)
{
    auto at = field::path::root("status");
    b.scheduler_observed_generation =
        read::integer(status.find("schedulerObservedGeneration"), at.child("schedulerObservedGeneration"), errors, 0);
    b.last_scheduled_time = read::time(status.find("lastScheduledTime"), at.child("lastScheduledTime"), errors);
    b.scheduler_observing_affinity_name = read::string(status.find("schedulerObservingAffinityName"),
                                                       at.child("schedulerObservingAffinityName"), errors);
    read::structs(status.find("aggregatedStatus"), at.child("aggregatedStatus"), errors,
               [&](const doc::value& item, const field::path& p) {
                   b.aggregated_status.push_back({read::string(item.find("clusterName"), p.child("clusterName"), errors),
                                                  read::string(item.find("health"), p.child("health"), errors)});
                   boolean(item.find("applied"), p.child("applied"), errors); // a bool for the Go client
               });
    read::structs(status.find("conditions"), at.child("conditions"), errors,
               [&](const doc::value& condition, const field::path& p) {
                   if (condition.string_at("type") != "Scheduled")
                       return;
                   b.scheduled = scheduled_condition{read::string(condition.find("status"), p.child("status"), errors),
                                                     read::string(condition.find("reason"), p.child("reason"), errors),
                                                     read::string(condition.find("message"), p.child("message"), errors)};
               });
}

// apiVersion and kind: only work.karmada.io/v1alpha2 bindings are read.
void check_type(const doc::value& object, field::error_list& errors, binding& b)
{
    const std::string api_version(object.string_at("apiVersion"));
    b.kind = object.string_at("kind");
    if (b.kind != kind_resource_binding && b.kind != kind_cluster_resource_binding)
        errors.push_back(field::not_supported(field::path::root("kind"), field::go_quote(b.kind),
                                              {kind_resource_binding, kind_cluster_resource_binding}));
    if (api_version != binding_api_version)
        errors.push_back(field::invalid(field::path::root("apiVersion"), field::go_quote(api_version),
                                        "bindings are read as work.karmada.io/v1alpha2, the version karmada-apiserver "
                                        "stores and `kubectl get rb -A -o yaml` prints"));
}

void decode_metadata(const doc::value* metadata, field::error_list& errors, binding& b)
{
    auto meta = field::path::root("metadata");
    if (present(metadata)) {
        b.name = read::string(metadata->find("name"), meta.child("name"), errors);
        b.namespace_ = read::string(metadata->find("namespace"), meta.child("namespace"), errors);
        b.generation = read::integer(metadata->find("generation"), meta.child("generation"), errors, 0);
        b.labels = plain_map(metadata->find("labels"), meta.child("labels"), errors);
        b.annotations = plain_map(metadata->find("annotations"), meta.child("annotations"), errors);
        b.deleting =
            read::time(metadata->find("deletionTimestamp"), meta.child("deletionTimestamp"), errors).has_value();
        // Read by the Go client with the rest (a binding's controller owner is its template): an item that
        // is no object, or a time that is no RFC3339 time, fails the decoding of the whole binding.
        read::time(metadata->find("creationTimestamp"), meta.child("creationTimestamp"), errors);
        // Its fields too (metav1.OwnerReference): `controller: yes-please` is no *bool for the Go client.
        read::structs(metadata->find("ownerReferences"), meta.child("ownerReferences"), errors,
                      [&](const doc::value& owner, const field::path& p) {
                          for (const char* key : {"apiVersion", "kind", "name"})
                              read::string(owner.find(key), p.child(key), errors);
                          std::string uid = read::string(owner.find("uid"), p.child("uid"), errors);
                          const bool controller =
                              boolean(owner.find("controller"), p.child("controller"), errors).value_or(false);
                          boolean(owner.find("blockOwnerDeletion"), p.child("blockOwnerDeletion"), errors);
                          if (controller && !b.controller_owner_uid)
                              b.controller_owner_uid = std::move(uid);
                      });
    }
    if (b.name.empty())
        errors.push_back(field::required(meta.child("name"), "name or generateName is required"));
    if (b.kind == kind_resource_binding && b.namespace_.empty())
        errors.push_back(field::required(meta.child("namespace"), "a ResourceBinding is namespaced"));
    b.claim = decode_claim(b.labels, b.annotations);
}

// The annotation naming the claiming policy; "" when absent (the claim then names no policy of PATH).
std::string claim_annotation(const string_map& annotations, std::string_view key)
{
    auto it = annotations.find(std::string(key));
    return it != annotations.end() ? it->second : std::string();
}

} // namespace

bool is_binding_object(const doc::value& object)
{
    auto kind = object.string_at("kind");
    return object.string_at("apiVersion").starts_with("work.karmada.io/") &&
           (kind == kind_resource_binding || kind == kind_cluster_resource_binding);
}

std::optional<policy_claim> decode_claim(const string_map& labels, const string_map& annotations)
{
    // karmada: pkg/detector/claim.go (claim metadata of a PP, else of a CPP). A label without its annotations
    // is no error: Karmada's controllers read such a binding. Its claim names no policy that can exist, and
    // the detector releases a claim whose policy it cannot get (detector.go getAndApplyPolicy:
    // HandlePropagationPolicyDeletion on NotFound): no claim.
    if (auto id = labels.find(std::string(pp_permanent_id_label)); id != labels.end()) {
        policy_claim c{false, claim_annotation(annotations, pp_namespace_annotation),
                       claim_annotation(annotations, pp_name_annotation), id->second};
        return c.namespace_.empty() || c.name.empty() ? std::nullopt : std::optional(c);
    }
    if (auto id = labels.find(std::string(cpp_permanent_id_label)); id != labels.end()) {
        policy_claim c{true, "", claim_annotation(annotations, cpp_name_annotation), id->second};
        return c.name.empty() ? std::nullopt : std::optional(c);
    }
    return std::nullopt;
}

binding_decoding decode_binding(const doc::value& object)
{
    binding_decoding out;
    auto& b = out.value;
    b.where = object.pos();
    check_type(object, out.errors, b);
    decode_metadata(object.find("metadata"), out.errors, b);
    if (const doc::value* spec = object.find("spec"); present(spec))
        decode_spec(*spec, out.errors, b);
    if (const doc::value* status = object.find("status"); present(status))
        decode_status(*status, out.errors, b);
    if (out.errors.empty()) // what lint reads says more; the rest only has to decode
        check_karmada_type(object, object.string_at("kind") == "ClusterResourceBinding" ? "v1alpha2.ClusterResourceBinding"
                                                                                      : "v1alpha2.ResourceBinding",
                           object.string_at("kind"), out.errors);
    return out;
}

result<std::optional<placement>> decode_applied_placement(const binding& b)
{
    auto it = b.annotations.find(std::string(applied_placement_annotation));
    if (it == b.annotations.end() || it->second.empty())
        return std::optional<placement>{};
    auto json = doc::parse_json(it->second);
    if (!json)
        return failure{
            "annotation " + std::string(applied_placement_annotation) + " is not JSON: " + json.error().message, {}};
    field::error_list errors;
    auto p = decode_placement(&*json, field::path::root("placement"), errors);
    if (!errors.empty())
        return failure{"annotation " + std::string(applied_placement_annotation) + ": " + errors.front().str(), {}};
    return std::optional<placement>(p.value_or(placement{}));
}

} // namespace kpw::model
