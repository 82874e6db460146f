// SPDX-License-Identifier: Apache-2.0
// Fuzz target (5): YAML/JSON text -> binding inventory -> the controllers that read bindings (taint
// manager, GracefulEvictCluster, graceful eviction, rebalancer).
#include <set>
#include <tuple>

#include "controllers/graceful_eviction.hpp"
#include "controllers/rebalancer.hpp"
#include "controllers/taint_manager.hpp"
#include "doc/load.hpp"
#include "scheduling/binding_inventory.hpp"
#include "targets.hpp"

namespace kpw::fuzz {
namespace {

constexpr std::string_view name = "bindings";

void check_inventory(const scheduling::binding_inventory& inv)
{
    std::set<std::tuple<std::string, std::string, std::string>> seen;
    for (const auto& b : inv.bindings()) {
        const auto& r = b.resource;
        if (b.name.empty())
            invariant_failed(name, "a binding without a name was kept");
        if (!seen.emplace(b.kind, b.namespace_, b.name).second)
            invariant_failed(name, "one object kept twice");
        if (inv.find_for(r.api_version, r.kind, r.namespace_, r.name) == nullptr)
            invariant_failed(name, "find_for misses a kept binding");
        for (const auto& c : b.clusters)
            if (c.replicas < 0)
                invariant_failed(name, "a negative replica count was kept");
    }
}

// Every binding through the eviction path on a NoExecute-tainted copy of each of its target clusters.
void run_controllers(std::vector<model::binding> bindings)
{
    settings::controller_settings s;
    s.gates.set("Failover", true);
    s.enable_no_execute_taint_eviction = true;
    for (auto& b : bindings) {
        const auto targets = b.clusters;
        for (const auto& t : targets) {
            model::cluster c;
            c.name = t.name;
            model::taint taint{"maintenance", "", "NoExecute"};
            taint.time_added = 0;
            c.taints = {taint};
            const std::size_t before = b.clusters.size();
            auto a = controllers::run_taint_manager(b, c, s, 100);
            if (b.clusters.size() + (a.verdict == controllers::eviction_verdict::evict_now ? 1 : 0) != before)
                invariant_failed(name, "an eviction removed other than the one evicted target");
        }
        (void)controllers::run_graceful_eviction(b, s, 1000);
    }
    const std::vector<controllers::workload_reference> refs{{"apps/v1", "Deployment", "default", "nginx"}};
    (void)controllers::run_rebalancer(refs, 5, bindings);
}

} // namespace

int bindings(bytes data)
{
    auto docs = doc::load_yaml(as_text(data));
    if (!docs)
        return 0;
    scheduling::binding_inventory inv;
    std::vector<scheduling::inventory_issue> issues;
    for (const doc::document& d : *docs)
        inv.add(d.root, issues);
    inv.seal(issues);
    for (const auto& i : issues)
        if (i.message.empty())
            invariant_failed(name, "an issue without a message");
    check_inventory(inv);
    run_controllers({inv.bindings().begin(), inv.bindings().end()});
    return 0;
}

} // namespace kpw::fuzz
