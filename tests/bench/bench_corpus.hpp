// SPDX-License-Identifier: Apache-2.0
// The generated benchmark corpus shared by the in-process benchmarks: clusters, policies and workloads in
// the six shapes that tests/bench/gen_dry_run.py writes as files.
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "model/cluster.hpp"
#include "model/policy.hpp"
#include "model/workload.hpp"

namespace kpw::bench {

inline std::string num(const char* prefix, std::size_t i)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%s%05zu", prefix, i);
    return buf;
}

inline std::vector<model::resource_model> default_models()
{
    const char* cpu[] = {"0", "1", "2", "4", "8", "16", "32", "64", "128", "1000000"};
    const char* mem[] = {"0", "4Gi", "16Gi", "32Gi", "64Gi", "128Gi", "256Gi", "512Gi", "1Ti", "1Ei"};
    std::vector<model::resource_model> out;
    for (int g = 0; g < 9; ++g)
        out.push_back({g, {{"cpu", *model::parse_quantity(cpu[g]), *model::parse_quantity(cpu[g + 1])},
                           {"memory", *model::parse_quantity(mem[g]), *model::parse_quantity(mem[g + 1])}}});
    return out;
}

inline model::cluster make_cluster(std::size_t i)
{
    static const char* providers[] = {"onprem", "aws", "alibaba", "huaweicloud"};
    model::cluster c;
    c.name = num("member-", i);
    c.provider = providers[i % 4];
    c.region = num("region-", i % 20);
    c.zones = {c.region + (i % 2 ? "a" : "b")};
    c.labels = {{"location", i % 4 == 0 ? "idc" : "cloud"}, {"env", i % 3 ? "prod" : "staging"},
                {"team", num("team-", i % 50)}, {"capacity-tier", i % 5 ? "base" : "burst"}};
    if (i % 20 == 7)
        c.taints = {{"maintenance", "planned", "NoSchedule"}};
    c.api_enablements = {{"apps/v1", {"ControllerRevision", "DaemonSet", "Deployment", "ReplicaSet", "StatefulSet"}},
                         {"batch/v1", {"CronJob", "Job"}},
                         {"v1", {"ConfigMap", "Pod", "Secret", "Service"}}};
    c.complete_api_enablements = true;
    model::resource_summary s;
    s.allocatable = {{"cpu", model::quantity::from_int(64)}, {"memory", *model::parse_quantity("256Gi")},
                     {"pods", model::quantity::from_int(440)}};
    s.allocated = {{"cpu", model::quantity::from_millis(std::int64_t(20000 + (i * 7919) % 40000))},
                   {"memory", *model::parse_quantity("100Gi")}, {"pods", model::quantity::from_int(std::int64_t(i % 300))}};
    if (i % 2) {
        c.resource_models = default_models();
        s.allocatable_modelings = {{2, std::int64_t(i % 5)}, {3, std::int64_t(i % 3)}, {4, 1}};
    }
    c.resource_summary = s;
    return c;
}

inline model::label_selector labels(std::initializer_list<std::pair<const char*, const char*>> l)
{
    model::label_selector s;
    for (auto [k, v] : l)
        s.match_labels[k] = v;
    return s;
}

inline model::replica_scheduling_strategy divided(const char* pref, const char* dynamic)
{
    model::replica_scheduling_strategy rs{"Divided", pref, {}};
    if (*dynamic)
        rs.weight_preference = model::cluster_preferences{{}, dynamic};
    return rs;
}

// Six policy shapes in rotation: label-selected groups with overflow, names, region spread, static
// weights, provider field selector + Aggregated, Duplicated by names.
inline model::propagation_spec make_spec(std::size_t i, std::size_t clusters)
{
    model::propagation_spec s;
    s.resource_selectors = {{"apps/v1", "Deployment", "", num("app-", i), {}}};
    auto& p = s.placement;
    auto region = num("region-", i % 20);
    switch (i % 6) {
    case 0: {
        model::cluster_affinity idc, cloud;
        idc.label_selector = labels({{"location", "idc"}, {"env", "prod"}});
        idc.field_selector = model::field_selector{{{"region", "In", {region}}}};
        cloud.label_selector = labels({{"location", "cloud"}, {"capacity-tier", "burst"}});
        p.cluster_affinities = {{"local-idc", idc, {{"public-cloud", cloud}}}, {"anywhere", {}, {}}};
        p.replica_scheduling = divided("Weighted", "AvailableReplicas");
        break;
    }
    case 1: {
        model::cluster_affinity a;
        for (std::size_t k = 0; k < 10; ++k)
            a.cluster_names.push_back(num("member-", (i * 31 + k * 97) % clusters));
        p.cluster_affinity = a;
        p.replica_scheduling = divided("Weighted", "AvailableReplicas");
        break;
    }
    case 2:
        p.spread_constraints = {{"region", "", 3, 2}, {"cluster", "", 6, 2}};
        p.replica_scheduling = divided("Weighted", "AvailableReplicas");
        break;
    case 3: {
        model::cluster_affinity a;
        a.label_selector = labels({{"team", num("team-", i % 50).c_str()}});
        p.cluster_affinity = a;
        auto rs = divided("Weighted", "");
        model::cluster_affinity burst;
        burst.label_selector = labels({{"capacity-tier", "burst"}});
        rs.weight_preference = model::cluster_preferences{{{burst, 2}, {{}, 1}}, ""};
        p.replica_scheduling = rs;
        break;
    }
    case 4: {
        model::cluster_affinity a;
        a.field_selector = model::field_selector{{{"provider", "In", {"aws", "alibaba"}}, {"region", "In", {region}}}};
        p.cluster_affinity = a;
        p.replica_scheduling = divided("Aggregated", "");
        break;
    }
    default: {
        model::cluster_affinity a;
        a.cluster_names = {num("member-", i % clusters), num("member-", (i + 1) % clusters), num("member-", (i + 2) % clusters)};
        p.cluster_affinities = {{"primary", a, {}}};
        break;
    }
    }
    return s;
}

inline model::workload make_workload(std::size_t i)
{
    model::workload w;
    w.api_version = "apps/v1";
    w.kind = "Deployment";
    w.namespace_ = "default";
    w.name = num("app-", i);
    w.replicas = static_cast<std::int32_t>(2 + i % 40);
    w.request = {{"cpu", std::int64_t(100 + (i % 8) * 150)}, {"memory", std::int64_t(256 + (i % 4) * 256) << 20}};
    w.has_requirements = true;
    return w;
}


} // namespace kpw::bench
