// SPDX-License-Identifier: Apache-2.0
// Day-2 re-plan benchmark: B bindings over N generated clusters, each already placed (a first schedule
// at setup), then scaled up by two replicas so that every binding is re-scheduled in Steady mode; timed
// in-process beside the first-time dry run of the same workloads on the same snapshot.
//   replan_bench CLUSTERS BINDINGS [RUNS] [shared]
// `shared` times only the re-plan with shared filters and estimates (to profile it alone).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string_view>
#include <vector>

#include <sys/resource.h>

#include "bench_corpus.hpp"
#include "scheduling/filter_cache.hpp"
#include "scheduling/reschedule.hpp"
#include "scheduling/simulator.hpp"
#include "scheduling/snapshot.hpp"

using namespace kpw;
using namespace kpw::bench;

namespace {

double seconds_since(std::chrono::steady_clock::time_point start)
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// A binding as the scheduler left it after placing `w` under `spec`.
model::binding placed_binding(const model::propagation_spec& spec, const model::workload& w,
                              const scheduling::snapshot& snap, std::size_t i)
{
    model::binding b;
    b.kind = std::string(model::kind_resource_binding);
    b.namespace_ = w.namespace_;
    b.name = w.name + "-deployment";
    b.generation = 2;
    b.claim = model::policy_claim{false, "default", num("policy-", i), num("id-", i)};
    b.resource = {w.api_version, w.kind, w.namespace_, w.name, w.uid, "1"};
    b.replicas = w.replicas;
    b.has_requirements = w.has_requirements;
    b.request = w.request;
    b.placement = spec.placement;
    b.scheduler_name = "default-scheduler";
    auto first = scheduling::reschedule(b, snap, {}, {}, 1'700'000'000);
    return first.after;
}

} // namespace

int main(int argc, char** argv)
{
    if (argc < 3) {
        std::fprintf(stderr, "usage: replan_bench CLUSTERS BINDINGS [RUNS]\n");
        return 2;
    }
    std::size_t n_clusters = std::strtoul(argv[1], nullptr, 10), n_bindings = std::strtoul(argv[2], nullptr, 10);
    int runs = argc > 3 ? std::atoi(argv[3]) : 3;
    const bool shared_only = argc > 4 && std::string_view(argv[4]) == "shared";
    std::vector<model::cluster> clusters;
    for (std::size_t i = 0; i < n_clusters; ++i)
        clusters.push_back(make_cluster(i));
    scheduling::snapshot snap(clusters);
    std::vector<model::propagation_spec> specs;
    std::vector<model::workload> workloads;
    std::vector<model::binding> bindings;
    for (std::size_t i = 0; i < n_bindings; ++i) {
        specs.push_back(make_spec(i % 1000, n_clusters)); // 1,000 policies, each claiming every 1,000th workload
        workloads.push_back(make_workload(i));
        bindings.push_back(placed_binding(specs.back(), workloads.back(), snap, i));
    }

    double first = 1e9, replan = 1e9, replan_shared = 1e9, first_shared = 1e9, replan_explained = 1e9;
    std::size_t shapes = 0;
    std::size_t acted = 0, scheduled = 0;
    for (int r = 0; r < runs; ++r) {
        auto start = std::chrono::steady_clock::now();
        for (std::size_t i = 0; i < n_bindings && !shared_only; ++i)
            scheduled += scheduling::schedule(specs[i], workloads[i], snap).scheduled;
        first = std::min(first, seconds_since(start));
        acted = 0;
        start = std::chrono::steady_clock::now();
        for (std::size_t i = 0; i < n_bindings && !shared_only; ++i) {
            auto scaled = scheduling::apply_policy(bindings[i], specs[i], workloads[i].replicas + 2);
            auto out = scheduling::reschedule(scaled, snap, {}, {}, 1'700'000'100);
            acted += out.acted;
        }
        replan = std::min(replan, seconds_since(start));
        // The same re-plan as lint --bindings and simulate run it: filter results, canonical orders and
        // estimates shared across bindings of one shape and request, no per-candidate rows.
        start = std::chrono::steady_clock::now();
        scheduling::filter_cache cache(snap);
        scheduling::options shared;
        shared.filters = &cache;
        shared.candidate_rows = false; // as lint --bindings and simulate run it
        for (std::size_t i = 0; i < n_bindings; ++i) {
            auto scaled = scheduling::apply_policy(bindings[i], specs[i], workloads[i].replicas + 2);
            (void)scheduling::reschedule(scaled, snap, shared, {}, 1'700'000'100);
        }
        replan_shared = std::min(replan_shared, seconds_since(start));
        shapes = cache.size();
        // The first-time dry run as lint runs it for workloads without a binding: the same sharing.
        start = std::chrono::steady_clock::now();
        scheduling::filter_cache first_cache(snap);
        shared.filters = &first_cache;
        for (std::size_t i = 0; i < n_bindings && !shared_only; ++i)
            (void)scheduling::schedule(specs[i], workloads[i], snap, shared);
        first_shared = std::min(first_shared, seconds_since(start));
        // lint also computes every group's considered rows (-o json, --explain, the "left out" line).
        start = std::chrono::steady_clock::now();
        scheduling::filter_cache explain_cache(snap);
        shared.filters = &explain_cache;
        shared.explain = true;
        for (std::size_t i = 0; i < n_bindings && !shared_only; ++i) {
            auto scaled = scheduling::apply_policy(bindings[i], specs[i], workloads[i].replicas + 2);
            (void)scheduling::reschedule(scaled, snap, shared, {}, 1'700'000'100);
        }
        replan_explained = std::min(replan_explained, seconds_since(start));
    }
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    std::printf("%6zu clusters x %6zu bindings: first-time dry run %.3f s (%.1f ns per pair), steady re-plan %.3f s "
                "(%.1f ns per pair; %zu re-scheduled); shared as lint runs them: first-time %.3f s, re-plan %.3f s (%zu "
                "filter shapes), re-plan with explain rows %.3f s; best of %d; peak RSS %.1f MiB\n",
                n_clusters, n_bindings, first, first * 1e9 / double(n_clusters * n_bindings), replan,
                replan * 1e9 / double(n_clusters * n_bindings), acted, first_shared, replan_shared, shapes, replan_explained, runs,
                double(usage.ru_maxrss) / 1024.0);
    return 0;
}
