// SPDX-License-Identifier: Apache-2.0
// Dry-run scheduling micro-benchmark: P generated policies (one workload each) over N generated clusters,
// claim + schedule timed in-process (no YAML), so the figure is the simulator's own cost.
//   schedule_bench CLUSTERS POLICIES [RUNS]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "bench_corpus.hpp"
#include "scheduling/claim.hpp"
#include "scheduling/simulator.hpp"
#include "scheduling/snapshot.hpp"

using namespace kpw;

using namespace kpw::bench;


int main(int argc, char** argv)
{
    if (argc < 3) {
        std::fprintf(stderr, "usage: schedule_bench CLUSTERS POLICIES [RUNS]\n");
        return 2;
    }
    std::size_t n_clusters = std::strtoul(argv[1], nullptr, 10), n_policies = std::strtoul(argv[2], nullptr, 10);
    int runs = argc > 3 ? std::atoi(argv[3]) : 3;
    std::vector<model::cluster> clusters;
    for (std::size_t i = 0; i < n_clusters; ++i)
        clusters.push_back(make_cluster(i));
    std::vector<model::propagation_spec> specs;
    std::vector<scheduling::policy_view> views;
    std::vector<model::workload> workloads;
    std::vector<std::string> names;
    for (std::size_t i = 0; i < n_policies; ++i) {
        specs.push_back(make_spec(i, n_clusters));
        workloads.push_back(make_workload(i));
        names.push_back(num("policy-", i));
    }
    for (std::size_t i = 0; i < n_policies; ++i)
        views.push_back({&specs[i], "default", names[i], false});

    double best = 1e9;
    double prepare = 0;
    std::size_t scheduled = 0, replicas = 0;
    for (int r = 0; r < runs; ++r) {
        scheduled = replicas = 0;
        auto start = std::chrono::steady_clock::now();
        scheduling::snapshot snap(clusters);
        prepare = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        for (const auto& w : workloads) {
            auto claim = scheduling::claiming_policy(views, w);
            if (!claim)
                continue;
            auto d = scheduling::schedule(specs[*claim], w, snap);
            scheduled += d.scheduled;
            for (const auto& c : d.clusters)
                replicas += static_cast<std::size_t>(c.replicas);
        }
        best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    }
    std::printf("%6zu clusters x %5zu policies/workloads: %.3f s (best of %d; snapshot %.3f s), "
                "%.1f ns per cluster x workload; %zu scheduled, %zu replicas placed\n",
                n_clusters, n_policies, best, runs, prepare, best * 1e9 / double(n_clusters * n_policies), scheduled,
                replicas);
    return 0;
}
