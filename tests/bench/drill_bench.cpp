// SPDX-License-Identifier: Apache-2.0
// Drill benchmark: W workloads (one policy each, the six generated shapes) over N clusters, a 10-step
// scenario (taints, a cluster down and up, capacity, 100 scale events, a rebalance, waits) run through
// simulate::run in-process; beside it the first-time dry run of the same corpus.
//   drill_bench CLUSTERS WORKLOADS [RUNS]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include <sys/resource.h>

#include "bench_corpus.hpp"
#include "scheduling/simulator.hpp"
#include "scheduling/snapshot.hpp"
#include "simulate/engine.hpp"

using namespace kpw;
using namespace kpw::bench;

namespace {

simulate::step step_of(std::string name, simulate::action what)
{
    simulate::step s;
    s.name = std::move(name);
    s.what = std::move(what);
    return s;
}

simulate::scenario ten_steps(std::size_t workloads)
{
    simulate::scenario sc;
    sc.name = "bench";
    auto taint = [](const char* cluster, const char* key, const char* effect) {
        simulate::taint_step t;
        t.cluster.name = cluster;
        t.change.taint = {key, "bench", effect};
        t.spec = std::string(key) + "=bench:" + effect;
        return t;
    };
    sc.steps.push_back(step_of("NoSchedule on member-00003", taint("member-00003", "maintenance-a", "NoSchedule")));
    simulate::cluster_down_step down;
    down.cluster.name = "member-00004";
    sc.steps.push_back(step_of("member-00004 down", down));
    sc.steps.push_back(step_of("NoExecute on member-00004", taint("member-00004", "maintenance-b", "NoExecute")));
    // One scale step names one workload; the rebalance names every tenth.
    simulate::rebalance_step rebalance;
    for (std::size_t i = 0; i < workloads; i += 10)
        rebalance.workloads.push_back({"Deployment", "default", num("app-", i), {}});
    simulate::scale_step scale;
    scale.workload = {"Deployment", "default", num("app-", 0), {}};
    scale.replicas = 30;
    sc.steps.push_back(step_of("scale app-00000 to 30", scale));
    simulate::set_resources_step capacity;
    capacity.cluster.name = "member-00001";
    capacity.allocated = model::resource_list{{"cpu", model::quantity::from_int(1)}};
    sc.steps.push_back(step_of("capacity returns on member-00001", capacity));
    simulate::wait_step ten_minutes;
    ten_minutes.seconds = 600;
    sc.steps.push_back(step_of("wait 10m", ten_minutes));
    simulate::cluster_up_step up;
    up.cluster.name = "member-00004";
    sc.steps.push_back(step_of("member-00004 up", up));
    simulate::taint_step untaint = taint("member-00004", "maintenance-b", "NoExecute");
    untaint.change.remove = true;
    sc.steps.push_back(step_of("untaint member-00004", untaint));
    sc.steps.push_back(step_of("rebalance", rebalance));
    simulate::wait_step hour;
    hour.seconds = 3600;
    sc.steps.push_back(step_of("wait 1h", hour));
    return sc;
}

} // namespace

int main(int argc, char** argv)
{
    if (argc < 3) {
        std::fprintf(stderr, "usage: drill_bench CLUSTERS WORKLOADS [RUNS]\n");
        return 2;
    }
    std::size_t n_clusters = std::strtoul(argv[1], nullptr, 10), n_workloads = std::strtoul(argv[2], nullptr, 10);
    int runs = argc > 3 ? std::atoi(argv[3]) : 3;
    simulate::world start;
    start.now = 1'700'000'000;
    for (std::size_t i = 0; i < n_clusters; ++i) {
        start.clusters.push_back(make_cluster(i));
        model::set_condition(start.clusters.back(), {"Ready", "True", "ClusterReady", ""});
    }
    for (std::size_t i = 0; i < n_workloads; ++i) {
        model::policy p;
        p.kind = std::string(model::kind_propagation_policy);
        p.metadata.name = num("policy-", i);
        p.metadata.ns = "default";
        p.spec = make_spec(i, n_clusters);
        start.policies.push_back(std::move(p));
        start.workloads.push_back(make_workload(i));
    }
    auto sc = ten_steps(n_workloads);
    simulate::settings_in_force settings;
    settings.controllers.gates.set("Failover", true);
    settings.controllers.enable_no_execute_taint_eviction = true;

    double first = 1e9, drill = 1e9;
    std::size_t steps = 0, moves = 0;
    for (int r = 0; r < runs; ++r) {
        auto t0 = std::chrono::steady_clock::now();
        scheduling::snapshot snap(start.clusters);
        for (std::size_t i = 0; i < n_workloads; ++i)
            (void)scheduling::schedule(start.policies[i].spec, start.workloads[i], snap);
        first = std::min(first, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
        t0 = std::chrono::steady_clock::now();
        auto d = simulate::run(start, sc, std::vector<simulate::step_inputs>(sc.steps.size()), settings);
        drill = std::min(drill, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
        steps = d.steps.size();
        moves = 0;
        for (const auto& s : d.steps)
            for (const auto& w : s.workloads)
                moves += w.moves.size();
    }
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    std::printf("%5zu clusters x %5zu workloads: first-time dry run %.3f s; %zu-step drill (initial placement "
                "included) %.3f s, %zu cluster moves; best of %d; peak RSS %.1f MiB\n",
                n_clusters, n_workloads, first, steps, drill, moves, runs, double(usage.ru_maxrss) / 1024.0);
    return 0;
}
