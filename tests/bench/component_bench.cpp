// SPDX-License-Identifier: Apache-2.0
// Multi-component scheduling benchmark: J generated jobs (2-4 components, GPUs) over N generated clusters,
// in-process, no YAML, three figures side by side:
//   estimator  — component_sets alone: per job, MaxAvailableComponentSets on every cluster and the single
//                pick (most sets, then name; none when no cluster holds a set);
//   pipeline   — scheduling::schedule() per job with MultiplePodTemplatesScheduling on, as lint runs it
//                (one snapshot and one filter_cache for the run): filters, set estimates, canonical order,
//                selection with need 1, the result with components;
//   + explain  — the same with options.explain (a considered row per cluster).
// Flags: `distinct` makes every job's component shape unique (nothing to share between jobs); `pipeline`
// or `explain` runs that figure alone (for a profiler).
//   component_bench CLUSTERS JOBS [RUNS] [distinct] [pipeline|explain]
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "model/cluster.hpp"
#include "model/workload.hpp"
#include "scheduling/component_sets.hpp"
#include "scheduling/filter_cache.hpp"
#include "scheduling/simulator.hpp"
#include "scheduling/snapshot.hpp"

using namespace kpw;

namespace {

model::quantity q(const char* text) { return *model::parse_quantity(text); }

long peak_rss_kib()
{
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return u.ru_maxrss;
}

// Grades 0-4 with GPU ranges, as a GPU fleet would model its nodes.
std::vector<model::resource_model> gpu_models()
{
    const char* cpu[] = {"0", "16", "32", "64", "128", "256"};
    const char* mem[] = {"0", "64Gi", "256Gi", "512Gi", "1Ti", "2Ti"};
    const char* gpu[] = {"0", "1", "2", "4", "8", "16"};
    std::vector<model::resource_model> out;
    for (int g = 0; g < 5; ++g)
        out.push_back({g,
                       {{"cpu", q(cpu[g]), q(cpu[g + 1])},
                        {"memory", q(mem[g]), q(mem[g + 1])},
                        {"nvidia.com/gpu", q(gpu[g]), q(gpu[g + 1])}}});
    return out;
}

model::cluster make_cluster(std::size_t i)
{
    char name[32];
    std::snprintf(name, sizeof name, "member-%05zu", i);
    model::cluster c;
    c.name = name;
    c.api_enablements = {{"kubeflow.org/v1", {"PyTorchJob", "TFJob"}}, {"apps/v1", {"Deployment"}}};
    model::resource_summary s;
    s.allocatable = {{"cpu", model::quantity::from_int(512)}, {"memory", q("4227858432Ki")},
                     {"pods", model::quantity::from_int(880)}};
    s.allocated = {{"cpu", model::quantity::from_millis(std::int64_t(100000 + (i * 7919) % 300000))},
                   {"memory", q("1Ti")}, {"pods", model::quantity::from_int(std::int64_t(i % 500))}};
    if (i % 4 != 3) { // a quarter has no GPUs
        s.allocatable["nvidia.com/gpu"] = model::quantity::from_int(64);
        s.allocated["nvidia.com/gpu"] = model::quantity::from_int(std::int64_t((i * 37) % 60));
    }
    if (i % 2) {
        c.resource_models = gpu_models();
        s.allocatable_modelings = {{1, std::int64_t(i % 3)}, {2, std::int64_t(i % 5)}, {3, std::int64_t(i % 4)},
                                   {4, 1}};
    }
    c.resource_summary = s;
    return c;
}

model::component part(const char* name, std::int32_t replicas, std::int64_t cpu, const char* memory, int gpus)
{
    model::component c{name, replicas, true, {}, {{"cpu", std::to_string(cpu)}, {"memory", memory}}, {}};
    if (gpus > 0)
        c.request_text.emplace_back("nvidia.com/gpu", std::to_string(gpus));
    return c;
}

// Training jobs (master + workers, GPUs), Ray clusters (head + 1-2 worker groups), Flink-like pairs.
// 24 component shapes (3 kinds x 1-8 workers); `distinct` adds i millicores to the first component's cpu.
model::workload make_job(std::size_t i, bool distinct)
{
    model::workload w;
    w.api_version = "kubeflow.org/v1";
    w.kind = "PyTorchJob";
    w.namespace_ = "ml";
    w.name = "job-" + std::to_string(i);
    w.uid = "uid-" + std::to_string(i);
    auto n = static_cast<std::int32_t>(1 + i % 8);
    switch (i % 3) {
    case 0:
        w.components = {part("master", 1, 8, "32Gi", 1), part("worker", n, 16, "64Gi", 2)};
        break;
    case 1:
        w.components = {part("ray-head", 1, 4, "16Gi", 0), part("gpu-group", n, 8, "32Gi", 1),
                        part("cpu-group", 2 * n, 4, "8Gi", 0)};
        break;
    default:
        w.components = {part("jobmanager", 1, 2, "4Gi", 0), part("taskmanager", n, 4, "16Gi", 0),
                        part("sidecar", 1, 1, "1Gi", 0), part("inference", 1, 8, "64Gi", 4)};
        break;
    }
    if (distinct) {
        auto& cpu = w.components[0].request_text[0].second;
        cpu = std::to_string(1000 * std::stoll(cpu) + std::int64_t(i)) + "m";
    }
    return w;
}

// Policies in three rotating shapes, all keeping the job on one cluster (spread by cluster, 1/1):
// Divided/Aggregated (capacity checked, reserve swap), Duplicated (first in order), and Aggregated over
// a label-selected primary tier with an overflow tier.
std::vector<model::propagation_spec> make_specs()
{
    std::vector<model::propagation_spec> out(3);
    for (auto& s : out)
        s.placement.spread_constraints = {{"cluster", "", 1, 1}};
    out[0].placement.replica_scheduling = model::replica_scheduling_strategy{"Divided", "Aggregated", {}};
    out[1].placement.replica_scheduling = model::replica_scheduling_strategy{"Duplicated", {}, {}};
    out[2].placement.replica_scheduling = model::replica_scheduling_strategy{"Divided", "Aggregated", {}};
    model::cluster_affinity gpu;
    gpu.label_selector = model::label_selector{{{"accelerator", "gpu"}}, {}};
    model::cluster_affinity any;
    out[2].placement.cluster_affinities = {{"gpu", gpu, {{"any", any}}}};
    return out;
}

struct pipeline_figures {
    double best = 1e9;
    std::size_t scheduled = 0, rows = 0, filter_shapes = 0;
    long rss = 0;
};

// schedule() per job over one snapshot and one filter_cache (prepared inside the timed region).
pipeline_figures run_pipeline(const std::vector<model::cluster>& clusters, const std::vector<model::workload>& jobs,
                              const std::vector<model::propagation_spec>& specs,
                              const settings::feature_gates& gates, bool explain, int runs)
{
    pipeline_figures f;
    for (int r = 0; r < runs; ++r) {
        f.scheduled = f.rows = 0;
        auto start = std::chrono::steady_clock::now();
        scheduling::snapshot snap(clusters);
        scheduling::filter_cache shared(snap);
        scheduling::options opts;
        opts.filters = &shared;
        opts.gates = &gates;
        opts.explain = explain;
        for (std::size_t i = 0; i < jobs.size(); ++i) {
            auto d = scheduling::schedule(specs[i % specs.size()], jobs[i], snap, opts);
            f.scheduled += d.scheduled && d.clusters.size() == 1 && !d.clusters[0].components.empty();
            for (const auto& g : d.groups)
                f.rows += g.considered.size();
        }
        f.best = std::min(f.best, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
        f.filter_shapes = shared.size();
    }
    f.rss = peak_rss_kib();
    return f;
}

} // namespace

int main(int argc, char** argv)
{
    if (argc < 3) {
        std::fprintf(stderr, "usage: component_bench CLUSTERS JOBS [RUNS] [distinct] [pipeline|explain]\n");
        return 2;
    }
    std::size_t n_clusters = std::strtoul(argv[1], nullptr, 10), n_jobs = std::strtoul(argv[2], nullptr, 10);
    int runs = argc > 3 ? std::atoi(argv[3]) : 3;
    bool distinct = false, pipeline_only = false, explain_only = false;
    for (int i = 4; i < argc; ++i) {
        distinct |= std::string(argv[i]) == "distinct";
        pipeline_only |= std::string(argv[i]) == "pipeline";
        explain_only |= std::string(argv[i]) == "explain";
    }
    std::vector<model::cluster> clusters;
    for (std::size_t i = 0; i < n_clusters; ++i) {
        clusters.push_back(make_cluster(i));
        if (i % 4 != 3)
            clusters.back().labels["accelerator"] = "gpu";
    }
    std::vector<model::workload> jobs;
    for (std::size_t i = 0; i < n_jobs; ++i)
        jobs.push_back(make_job(i, distinct));
    settings::feature_gates gates;
    gates.set("MultiplePodTemplatesScheduling", true);

    double pairs = double(n_clusters * n_jobs);
    auto specs = make_specs();
    auto pipeline = [&](bool explain) {
        auto f = run_pipeline(clusters, jobs, specs, gates, explain, runs);
        std::printf("pipeline%s: best=%.3fs per_pair=%.0fns kept_together=%zu considered_rows=%zu filter_shapes=%zu "
                    "peak_rss=%ldKiB\n",
                    explain ? "+explain" : "", f.best, f.best * 1e9 / pairs, f.scheduled, f.rows, f.filter_shapes,
                    f.rss);
    };
    if (pipeline_only || explain_only) {
        pipeline(explain_only);
        return 0;
    }
    double best = 1e9, prepare = 0;
    std::size_t placed = 0, modelled = 0;
    for (int r = 0; r < runs; ++r) {
        placed = modelled = 0;
        auto start = std::chrono::steady_clock::now();
        scheduling::resource_table table;
        std::vector<scheduling::set_cluster> prepared;
        prepared.reserve(clusters.size());
        for (const auto& c : clusters)
            prepared.push_back(scheduling::prepare_set_cluster(c, table, gates));
        prepare = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        for (const auto& w : jobs) {
            auto job = scheduling::prepare_set_job(w.components, table);
            std::int32_t best_sets = 0;
            std::size_t pick = clusters.size();
            for (std::size_t k = 0; k < prepared.size(); ++k) {
                auto e = scheduling::max_available_component_sets(prepared[k], job);
                modelled += e.bound == scheduling::set_bound::resource_models;
                if (e.sets > best_sets) { // names ascend with k: the first of the most sets wins
                    best_sets = e.sets;
                    pick = k;
                }
            }
            placed += pick < clusters.size();
        }
        best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    }
    std::printf("estimator: clusters=%zu jobs=%zu%s runs=%d best=%.3fs prepare=%.4fs per_pair=%.0fns placed=%zu "
                "model_bounded=%zu peak_rss=%ldKiB\n",
                n_clusters, n_jobs, distinct ? " (distinct shapes)" : "", runs, best, prepare, best * 1e9 / pairs,
                placed, modelled, peak_rss_kib());
    pipeline(false);
    pipeline(true);
    return 0;
}
