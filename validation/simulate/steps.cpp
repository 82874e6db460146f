// SPDX-License-Identifier: Apache-2.0
#include "simulate/steps.hpp"

#include <algorithm>

#include "controllers/rebalancer.hpp"
#include "model/object_label.hpp"
#include "scheduling/deprioritised.hpp"
#include "scheduling/policy_deletion.hpp"
#include "simulate/detector.hpp"

namespace kpw::simulate {

namespace {

template <class... F>
struct overloaded : F... {
    using F::operator()...;
};
template <class... F>
overloaded(F...) -> overloaded<F...>;

// A cluster spec change (taints, deletion) as the scheduler's cluster event handler sees it.
template <class Change>
void change_cluster(world& w, const std::string& name, step_log& log, Change&& change)
{
    model::cluster* c = find_cluster(w, name);
    if (c == nullptr)
        return; // validate_references has refused the scenario already
    model::cluster before = *c;
    change(*c);
    enqueue_cluster_change(w, before, *c, log);
}

void apply_taint(world& w, const taint_step& t, step_log& log)
{
    const model::cluster* c = find_cluster(w, t.cluster.name);
    if (c == nullptr)
        return;
    auto taints = controllers::apply_taint_change(*c, t.change, w.now);
    if (!taints) {
        log.events.push_back(t.cluster.name + ": karmadactl taint " + t.spec + " fails: " + taints.error().message);
        return;
    }
    change_cluster(w, t.cluster.name, log, [&](model::cluster& cl) { cl.taints = *taints; });
}

// The Ready condition as the cluster-status controller writes it (day2-semantics §4.1); a status
// change enqueues nothing by itself, the cluster controller's taints do.
void set_ready(world& w, const std::string& name, const std::string& status)
{
    model::cluster* c = find_cluster(w, name);
    if (c == nullptr)
        return;
    if (status == "True")
        model::set_condition(*c, {"Ready", "True", "ClusterReady", "cluster is healthy and ready to accept workloads"});
    else if (status == "Unknown")
        model::set_condition(*c, {"Ready", "Unknown", "ClusterStatusUnknown", "Cluster status controller stopped posting cluster status."});
    else
        model::set_condition(*c, {"Ready", "False", "ClusterNotReachable", "cluster is not reachable"});
}

void add_clusters(world& w, std::vector<model::cluster> clusters)
{
    for (auto& c : clusters) {
        auto it = std::lower_bound(w.clusters.begin(), w.clusters.end(), c.name,
                                   [](const model::cluster& x, const std::string& n) { return x.name < n; });
        if (it != w.clusters.end() && it->name == c.name)
            *it = std::move(c); // a cluster object that exists already is replaced (kubectl apply)
        else
            w.clusters.insert(it, std::move(c));
    }
}

void merge_resources(model::resource_list& into, const std::optional<model::resource_list>& from)
{
    if (!from)
        return;
    for (const auto& [name, q] : *from)
        into[name] = q;
}

void set_resources(world& w, const set_resources_step& r)
{
    model::cluster* c = find_cluster(w, r.cluster.name);
    if (c == nullptr)
        return;
    if (!c->resource_summary)
        c->resource_summary.emplace();
    merge_resources(c->resource_summary->allocatable, r.allocatable);
    merge_resources(c->resource_summary->allocated, r.allocated);
    merge_resources(c->resource_summary->allocating, r.allocating);
}

bool same_workload(const model::workload& wl, const workload_ref& r)
{
    return wl.kind == r.kind && wl.namespace_ == r.namespace_ && wl.name == r.name;
}

// A user's update event on template `r`: its binding is written even under a Lazy claim; no other
// template is queued (scheduling/lazy_activation.hpp).
template_events_of changed_by_user(const workload_ref& r)
{
    return [r](const model::workload& wl) { return scheduling::template_events{true, same_workload(wl, r)}; };
}

// claim_unbound, with the bindings it creates enqueued for the scheduler.
void claim_unbound(world& w, const settings::feature_gates& gates, step_log& log,
                   const reconciled_policies& reconciled, const template_events_of& changes)
{
    std::vector<std::size_t> created;
    claim_unbound(w, gates, created, log.events, reconciled, changes);
    log.enqueued.insert(created.begin(), created.end());
}

// The template's replica count changes; the detector carries it into the binding (a spec change), or builds
// the binding a Lazy claim left unbuilt.
void scale(world& w, const scale_step& s, const settings::feature_gates& gates, step_log& log)
{
    for (auto& wl : w.workloads)
        if (same_workload(wl, s.workload))
            wl.replicas = s.replicas;
    bool bound = false;
    for (std::size_t i = 0; i < w.bindings.size(); ++i) {
        const auto& r = w.bindings[i].resource;
        if (r.kind == s.workload.kind && r.namespace_ == s.workload.namespace_ && r.name == s.workload.name) {
            bound = true;
            bool known = workload_of_binding(w, w.bindings[i]) != nullptr;
            if (!known) { // the binding stands for its template: the detector's new count is the step's
                w.bindings[i].replicas = s.replicas;
                ++w.bindings[i].generation;
            }
            if (refresh_binding(w, i, gates, none_reconciled) || !known)
                log.enqueued.insert(i);
        }
    }
    if (!bound)
        claim_unbound(w, gates, log, {}, changed_by_user(s.workload));
}

void rebalance(world& w, const rebalance_step& r, step_log& log)
{
    std::vector<controllers::workload_reference> refs;
    for (const auto& ref : r.workloads) {
        std::string api_version;
        for (const auto& b : w.bindings)
            if (b.resource.kind == ref.kind && b.resource.namespace_ == ref.namespace_ && b.resource.name == ref.name)
                api_version = b.resource.api_version;
        refs.push_back({api_version, ref.kind, ref.namespace_, ref.name});
    }
    std::vector<std::int64_t> generations;
    for (const auto& b : w.bindings)
        generations.push_back(b.generation);
    for (const auto& o : controllers::run_rebalancer(refs, w.now, w.bindings))
        log.events.push_back("WorkloadRebalancer: " + o.workload.kind + "/" + o.workload.name + " " + o.result +
                             (o.reason.empty() ? "" : " (" + o.reason + ")"));
    for (std::size_t i = 0; i < w.bindings.size(); ++i)
        if (w.bindings[i].generation != generations[i])
            log.enqueued.insert(i);
}

bool same_policy(const model::policy& a, const model::policy& b)
{
    return a.kind == b.kind && a.metadata.ns == b.metadata.ns && a.metadata.name == b.metadata.name;
}

// A new version of policies is applied: every binding it claims is refreshed (ApplyPolicy), and
// templates nobody claims yet may be claimed now.
void apply_policies(world& w, const std::vector<model::policy>& policies, const settings::feature_gates& gates,
                    step_log& log)
{
    std::vector<model::policy> reconciled; // created, or updated with another spec (a new generation)
    std::vector<scheduling::lowered_priority> cuts; // updates to a lower priority (pointing into `policies`)
    for (const auto& p : policies) {
        auto it = std::find_if(w.policies.begin(), w.policies.end(), [&](const model::policy& x) { return same_policy(x, p); });
        const bool created = it == w.policies.end();
        const bool changed = created || it->spec != p.spec;
        if (changed)
            reconciled.push_back(p);
        if (!created && gates.policy_preemption())
            if (auto lowered = scheduling::lowered(*it, p))
                cuts.push_back(*lowered);
        if (created)
            w.policies.push_back(p);
        else
            *it = p;
        // kubectl apply of the same spec leaves the generation: the detector skips it (OnPropagationPolicyUpdate).
        log.events.push_back(policy_label(p) + (created ? " created" : changed ? " updated" : " unchanged"));
    }
    // A priority cut re-queues the policies between the old and the new priority (preemption.go).
    for (const auto& p : w.policies)
        if (scheduling::requeued_by_priority_cut(p, cuts))
            reconciled.push_back(p);
    const reconciled_policies is_reconciled = [&](const model::policy& p) {
        return std::any_of(reconciled.begin(), reconciled.end(), [&](const model::policy& r) { return same_policy(r, p); });
    };
    // Every template is queued by the policies' reconciles alone (ResourceChangeByKarmada = each one's
    // preference): a Lazy claim leaves the binding to the template's next user change (day2-semantics §5.4),
    // unless a reconciled policy that is not Lazy queues it (scheduling/lazy_activation.hpp).
    const template_events_of by_policies = [](const model::workload&) { return scheduling::template_events{true}; };
    for (std::size_t i = 0; i < w.bindings.size(); ++i)
        if (refresh_binding(w, i, gates, is_reconciled, by_policies))
            log.enqueued.insert(i);
    claim_unbound(w, gates, log, is_reconciled, by_policies);
}

// kubectl delete of a policy: its claims come off the templates and bindings (detector.go
// handlePolicyDeletion); each released template is reconciled, and a remaining policy may claim it and
// update its binding. A binding nothing claims keeps its clusters, and the scheduler ignores it.
void delete_policy(world& w, const delete_policy_step& d, const settings::feature_gates& gates, step_log& log)
{
    auto it = std::find_if(w.policies.begin(), w.policies.end(), [&](const model::policy& p) {
        return p.kind == d.kind && p.metadata.name == d.name && p.metadata.ns == d.namespace_;
    });
    const std::string label = model::object_label(d.kind, d.namespace_, d.name);
    if (it == w.policies.end()) {
        log.events.push_back("kubectl delete " + label + " fails: NotFound (nothing changes)");
        return;
    }
    const model::policy gone = *it;
    w.policies.erase(it);
    log.events.push_back(label + " deleted");
    // A released template is queued by its claim's removal, without ResourceChangeByKarmada: a remaining
    // policy that claims it writes its binding even when Lazy. The other templates are not queued.
    std::vector<bool> released(w.workloads.size(), false);
    const template_events_of by_release = [&](const model::workload& wl) {
        return scheduling::template_events{true, false, released[static_cast<std::size_t>(&wl - w.workloads.data())]};
    };
    for (const auto& r : scheduling::delete_policies(std::span(&gone, 1), w.workloads, w.bindings)) {
        const model::workload& wl = w.workloads[r.workload];
        released[r.workload] = true;
        log.events.push_back(workload_key(wl) + ": released (its claim taken off the template and the binding)");
        for (std::size_t i = 0; i < w.bindings.size(); ++i)
            if (model::refers_to(w.bindings[i].resource, wl) && refresh_binding(w, i, gates, none_reconciled, by_release))
                log.enqueued.insert(i);
    }
    // A released template without a binding (its Lazy holder never built one) gets one from its new claim.
    claim_unbound(w, gates, log, none_reconciled, by_release);
}

// kubectl label on a template: the detector reconciles it against the policies as they are (none of them is
// reconciled, so a holder that no longer selects it keeps it: getAndApplyPolicy ignores the template).
void relabel(world& w, const relabel_step& r, const settings::feature_gates& gates, step_log& log)
{
    const template_events_of by_user = changed_by_user(r.workload);
    for (auto& wl : w.workloads) {
        if (!same_workload(wl, r.workload))
            continue;
        for (const auto& [key, value] : r.labels) {
            if (value)
                wl.labels.insert_or_assign(key, *value);
            else
                wl.labels.erase(key);
        }
        for (std::size_t i = 0; i < w.bindings.size(); ++i)
            if (model::refers_to(w.bindings[i].resource, wl) && refresh_binding(w, i, gates, none_reconciled, by_user))
                log.enqueued.insert(i);
    }
    claim_unbound(w, gates, log, {}, by_user);
}

} // namespace

void apply_step(world& w, const step& s, const step_inputs& inputs, const settings::feature_gates& gates,
                step_log& log)
{
    std::visit(overloaded{
                   [&](const taint_step& t) { apply_taint(w, t, log); },
                   [&](const cluster_down_step& d) { set_ready(w, d.cluster.name, d.status); },
                   [&](const cluster_up_step& u) { set_ready(w, u.cluster.name, "True"); },
                   [&](const add_cluster_step& a) { add_clusters(w, a.clusters.empty() ? inputs.clusters : a.clusters); },
                   [&](const remove_cluster_step& r) {
                       change_cluster(w, r.cluster.name, log, [](model::cluster& c) { c.deleting = true; });
                   },
                   [&](const set_resources_step& r) { set_resources(w, r); },
                   [&](const scale_step& sc) { scale(w, sc, gates, log); },
                   [&](const rebalance_step& r) { rebalance(w, r, log); },
                   [&](const apply_policy_step&) { apply_policies(w, inputs.policies, gates, log); },
                   [&](const delete_policy_step& d) { delete_policy(w, d, gates, log); },
                   [&](const relabel_step& r) { relabel(w, r, gates, log); },
                   [&](const wait_step& wt) { w.now += wt.seconds; },
               },
               s.what);
}

std::string step_label(const step& s)
{
    return s.name.empty() ? s.action_key : s.name;
}

} // namespace kpw::simulate
