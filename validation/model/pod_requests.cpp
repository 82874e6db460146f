// SPDX-License-Identifier: Apache-2.0
// A pod spec's per-replica request: Karmada's sum (its estimators' input) and kube-scheduler's, which parts
// from it on sidecars.
#include "model/pod_requests.hpp"

#include <algorithm>
#include <map>

#include "base/go_int.hpp"
#include "model/cluster_decode.hpp"
#include "model/components.hpp"

namespace kpw::model {

namespace {

using request_map = std::map<std::string, std::int64_t, std::less<>>;

// One container's effective requests: AddPodTemplateRequest defaults a missing request to its limit.
request_map container_request(const doc::value& container, const field::path& at, field::error_list& errors)
{
    const doc::value* resources = container.find("resources");
    auto rp = at.child("resources");
    auto requests = read::resources(resources ? resources->find("requests") : nullptr, rp.child("requests"), errors);
    auto limits = read::resources(resources ? resources->find("limits") : nullptr, rp.child("limits"), errors);
    request_map out;
    for (const auto& [name, q] : limits)
        out[name] = karmada_units(name, q);
    for (const auto& [name, q] : requests)
        out[name] = karmada_units(name, q);
    return out;
}

void add(request_map& to, const request_map& r)
{
    for (const auto& [name, v] : r)
        to[name] = go::add(to[name], v); // karmada Resource.Add: Go int64, wrapping
}

void raise_to(request_map& to, const request_map& r)
{
    for (const auto& [name, v] : r)
        to[name] = std::max(to[name], v);
}

void add_overhead(const doc::value& pod_spec, const field::path& at, field::error_list& errors, request_map& total)
{
    for (const auto& [name, q] : read::resources(pod_spec.find("overhead"), at.child("overhead"), errors))
        total[name] = go::add(total[name], karmada_units(name, q));
}

// The regular containers' requests, summed (both counts start there).
request_map containers_sum(const doc::value& pod_spec, const field::path& at, field::error_list& errors)
{
    request_map total;
    read::each(pod_spec.find("containers"), at.child("containers"), errors,
               [&](const doc::value& container, const field::path& p) { add(total, container_request(container, p, errors)); });
    return total;
}

// Karmada's AddPodRequest: containers summed, every init container (sidecars too) raising the maximum.
request_map karmada_sum(const doc::value& pod_spec, const field::path& at, field::error_list& errors)
{
    request_map total = containers_sum(pod_spec, at, errors);
    read::each(pod_spec.find("initContainers"), at.child("initContainers"), errors,
               [&](const doc::value& container, const field::path& p) {
                   raise_to(total, container_request(container, p, errors));
               });
    add_overhead(pod_spec, at, errors, total);
    return total;
}

bool is_sidecar(const doc::value& container)
{
    return container.is_mapping() && container.string_at("restartPolicy") == "Always";
}

// k8s.io/component-helpers/resource PodRequests: each sidecar runs beside the containers (added to them) and
// beside every init container started after it; the pod needs the larger of the two sums.
request_map kube_scheduler_sum(const doc::value& pod_spec, const field::path& at, field::error_list& errors)
{
    request_map total = containers_sum(pod_spec, at, errors), sidecars, init_peak;
    read::each(pod_spec.find("initContainers"), at.child("initContainers"), errors,
               [&](const doc::value& container, const field::path& p) {
                   const request_map r = container_request(container, p, errors);
                   if (is_sidecar(container)) {
                       add(total, r);
                       add(sidecars, r);
                       raise_to(init_peak, sidecars);
                   } else {
                       request_map running = sidecars;
                       add(running, r);
                       raise_to(init_peak, running);
                   }
               });
    raise_to(total, init_peak);
    add_overhead(pod_spec, at, errors, total);
    return total;
}

// util.Resource keeps some names only; ResourceList() the positive values.
replica_request kept(const request_map& total)
{
    replica_request out;
    for (const auto& [name, v] : total)
        if (v > 0 && karmada_keeps(name))
            out.emplace_back(name, v);
    return out;
}

std::int64_t amount(const replica_request& r, std::string_view name)
{
    for (const auto& [n, v] : r)
        if (n == name)
            return v;
    return 0;
}

std::string bytes_text(std::int64_t v)
{
    constexpr std::int64_t mi = 1024 * 1024, gi = 1024 * mi;
    if (v != 0 && v % gi == 0)
        return std::to_string(v / gi) + "Gi";
    if (v != 0 && v % mi == 0)
        return std::to_string(v / mi) + "Mi";
    return std::to_string(v);
}

} // namespace

std::int64_t karmada_units(std::string_view name, const quantity& q)
{
    return name == "cpu" ? q.milli_ceil() : q.value_ceil();
}

bool karmada_keeps(std::string_view name)
{
    return name == "cpu" || name == "memory" || name == "ephemeral-storage" || name == "pods" ||
           is_scalar_resource_name(name);
}

replica_request pod_request(const doc::value& pod_spec, const field::path& at, field::error_list& errors)
{
    return kept(karmada_sum(pod_spec, at, errors));
}

std::optional<sidecar_gap> sidecar_gap_of(const doc::value& pod_spec, const replica_request& karmada)
{
    const doc::value* inits = pod_spec.find("initContainers");
    if (inits == nullptr || !inits->is_sequence())
        return std::nullopt;
    sidecar_gap gap;
    for (const auto& c : inits->items())
        if (is_sidecar(c)) {
            if (gap.sidecars.empty())
                gap.where = c.find("restartPolicy")->pos();
            gap.sidecars.emplace_back(c.string_at("name"));
        }
    if (gap.sidecars.empty())
        return std::nullopt;
    field::error_list ignored; // the decoder reports them; a template that does not decode gets no warning
    const auto at = field::path::root("spec");
    gap.karmada = karmada;
    gap.kube_scheduler = kept(kube_scheduler_sum(pod_spec, at, ignored));
    if (!ignored.empty())
        return std::nullopt;
    const bool short_of = std::any_of(gap.kube_scheduler.begin(), gap.kube_scheduler.end(), [&](const auto& e) {
        return e.second > amount(gap.karmada, e.first);
    });
    return short_of ? std::optional<sidecar_gap>(std::move(gap)) : std::nullopt;
}

std::string describe_request(const replica_request& r)
{
    std::string out;
    for (const auto& [name, v] : r) {
        if (name == "pods")
            continue;
        if (!out.empty())
            out += ", ";
        out += name + " ";
        if (name == "cpu")
            out += v % 1000 == 0 ? std::to_string(v / 1000) : std::to_string(v) + "m";
        else if (name == "memory" || name == "ephemeral-storage" || name.starts_with("hugepages-"))
            out += bytes_text(v);
        else
            out += std::to_string(v);
    }
    return out.empty() ? "nothing" : out;
}

} // namespace kpw::model
