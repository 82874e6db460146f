// SPDX-License-Identifier: Apache-2.0
// lint dry run: loading the snapshot and workloads, snapshot warnings, claiming and scheduling.
#include "lint/dry_run.hpp"

#include <algorithm>
#include <map>
#include <string_view>
#include <tuple>

#include "doc/locate.hpp"
#include "lint/claims.hpp"
#include "model/object_label.hpp"

#include "scheduling/base_claims.hpp"
#include "scheduling/binding_build.hpp"
#include "scheduling/binding_pairing.hpp"
#include "scheduling/claim.hpp"
#include "scheduling/component_pitfalls.hpp"
#include "scheduling/component_sets.hpp"
#include "scheduling/deprioritised.hpp"
#include "scheduling/detector_update.hpp"
#include "scheduling/filter_cache.hpp"
#include "scheduling/lazy_binding.hpp"
#include "scheduling/moves.hpp"
#include "scheduling/policy_deletion.hpp"
#include "scheduling/reschedule.hpp"
#include "scheduling/select.hpp"
#include "scheduling/sidecar_requests.hpp"
#include "scheduling/unmodelled_gates.hpp"

namespace kpw::lint {

namespace {

workload_ref ref_of(const model::workload& w)
{
    return {w.api_version, w.kind, w.namespace_, w.name, w.replicas};
}

considered_row to_row(const scheduling::considered_cluster& c)
{
    considered_row row;
    row.cluster = c.name;
    row.tier = c.tier;
    row.passed = c.passed;
    if (!c.failures.empty()) {
        row.plugin = std::string(scheduling::plugin_name(c.failures.front().plugin));
        row.reason = c.failures.front().reason;
        row.detail = c.failures.front().detail;
        for (std::size_t i = 1; i < c.failures.size(); ++i)
            row.also_fails.emplace_back(scheduling::plugin_name(c.failures[i].plugin));
    }
    if (c.passed) {
        row.available = c.available;
        row.bound_by = c.bound_by;
    }
    row.replicas = c.replicas;
    row.left_out = c.left_out;
    row.component_sets = c.component_sets;
    row.holds_job = c.holds_job;
    row.receives_object = c.receives_object;
    return row;
}

// "left out 3 cluster(s): a, b, c (2 not selected, 1 ...)": the clusters that got nothing and why.
left_out_summary summarise_left_out(const std::vector<scheduling::considered_cluster>& considered)
{
    constexpr std::size_t max_names = 120;
    left_out_summary out;
    std::map<std::string_view, int> reasons;
    bool cut = false;
    for (const auto& c : considered) {
        if (c.passed && (c.replicas > 0 || c.holds_job || c.receives_object))
            continue;
        ++out.count;
        const std::string_view reason = c.passed ? (c.left_out.empty() ? std::string_view("not selected") : c.left_out)
                                   : c.failures.empty() ? std::string_view() : std::string_view(c.failures.front().reason);
        ++reasons[reason];
        if (cut)
            continue;
        if (out.names.size() + c.name.size() + 2 > max_names && !out.names.empty()) {
            out.names.append(", ...");
            cut = true;
            continue;
        }
        out.names.append(out.names.empty() ? "" : ", ").append(c.name);
    }
    for (const auto& [reason, n] : reasons)
        out.reasons.append(out.reasons.empty() ? "" : ", ").append(std::to_string(n) + " ").append(reason);
    return out;
}

group_row to_row(const scheduling::group_outcome& g, bool keep_considered)
{
    group_row row{g.affinity_name, g.outcome, g.error, g.diagnosis, g.diagnosis_alternatives, {}, {}};
    if (keep_considered)
        for (const auto& c : g.considered)
            row.considered.push_back(to_row(c));
    row.left_out = summarise_left_out(g.considered);
    return row;
}

scheduling_result to_result(const model::workload& w, const scheduling::decision& d, bool keep_considered)
{
    scheduling_result s;
    s.workload = ref_of(w);
    s.scheduled = d.scheduled;
    s.affinity_name = d.affinity_name;
    for (const auto& c : d.clusters) {
        placement_row row{c.name, c.replicas, c.tier, {}, {}};
        for (const auto& comp : c.components)
            row.components.emplace_back(comp.name, comp.replicas);
        if (!d.non_workload)
            row.available = c.available;
        s.clusters.push_back(std::move(row));
    }
    s.message = d.message;
    s.tie = d.tie;
    for (const auto& f : d.failures)
        s.attempts.push_back(f.str());
    for (const auto& g : d.groups)
        s.groups.push_back(to_row(g, keep_considered));
    s.condition_reason = d.condition_reason;
    s.condition_message = d.condition_message;
    s.condition_alternatives = d.condition_alternatives;
    s.karmada_panic = d.karmada_panic;
    // The process died before writing one, or never queued the binding.
    s.has_condition = d.karmada_panic.empty() && d.ignored.empty();
    s.ignored = d.ignored;
    s.acted = d.ignored.empty(); // karmada-scheduler never queues a binding it ignores
    return s;
}

} // namespace

std::unique_ptr<dry_run_context> load_dry_run(const std::vector<std::string>& cluster_paths,
                                              const std::vector<std::string>& workload_paths,
                                              const std::vector<std::string>& binding_paths,
                                              const std::string& default_namespace, std::vector<file_error>& errors)
{
    return load_dry_run(snapshot::read_paths(cluster_paths), snapshot::read_paths(workload_paths),
                        snapshot::read_paths(binding_paths), default_namespace, errors);
}

std::unique_ptr<dry_run_context> load_dry_run(const std::optional<input_set>& clusters,
                                              const std::optional<input_set>& workloads,
                                              const std::optional<input_set>& bindings,
                                              const std::string& default_namespace, std::vector<file_error>& errors)
{
    auto ctx = std::make_unique<dry_run_context>();
    snapshot::load(*ctx, clusters, workloads, default_namespace, errors);
    snapshot::load_bindings(*ctx, bindings, errors);
    // A workload's binding names the policy that holds it (claims are sticky, day2-semantics §5.2).
    ctx->known_claims.resize(ctx->workloads.size());
    for (std::size_t i = 0; i < ctx->workloads.size(); ++i) {
        const auto& w = ctx->workloads[i];
        if (const model::binding* b = ctx->bindings.find_for(w.api_version, w.kind, w.namespace_, w.name))
            ctx->known_claims[i] = b->claim;
    }
    return ctx;
}

void settle_base_claims(dry_run_context& ctx, const std::vector<typed_policy>& base, const report& r)
{
    const auto views = policy_views(base, r);
    std::vector<const model::policy*> policies;
    for (const auto& p : base)
        policies.push_back(&p.policy);
    ctx.known_claims.resize(ctx.workloads.size());
    const auto claimed = scheduling::claim_unclaimed(views, policies, ctx.workloads, ctx.bindings.mutable_bindings(),
                                                     ctx.known_claims, ctx.gates);
    ctx.bindings.records_changed(); // a binding written for its template records it now
    for (std::size_t i : claimed) {
        const auto& w = ctx.workloads[i];
        const model::binding* b = ctx.bindings.find_for(w.api_version, w.kind, w.namespace_, w.name);
        ctx.known_claims[i] = b ? b->claim : std::nullopt;
    }
    // The base side's detector built a binding for every claimed template it could (its initial list): one
    // without a binding whose holder's build fails has its claim on the template alone.
    ctx.unbuilt.assign(ctx.workloads.size(), false);
    for (std::size_t i = 0; i < ctx.workloads.size(); ++i) {
        const auto& w = ctx.workloads[i];
        const auto claim = ctx.known_claims[i] ? ctx.known_claims[i] : scheduling::recorded_claim(w);
        if (!claim || ctx.bindings.find_for(w.api_version, w.kind, w.namespace_, w.name))
            continue;
        if (const auto v = scheduling::view_named(claim, views))
            ctx.unbuilt[i] = scheduling::binding_build_failure(w, *views[*v].spec, ctx.gates, ctx.workloads).has_value();
    }
}

void delete_policies(dry_run_context& ctx, std::span<const model::policy> deleted)
{
    ctx.released.resize(ctx.workloads.size());
    ctx.binding_released.resize(ctx.workloads.size());
    for (auto& r : scheduling::delete_policies(deleted, ctx.workloads, ctx.bindings.mutable_bindings())) {
        const auto& w = ctx.workloads[r.workload];
        const model::binding* b = ctx.bindings.find_for(w.api_version, w.kind, w.namespace_, w.name);
        ctx.known_claims[r.workload] = b ? b->claim : std::nullopt;
        ctx.released[r.workload] = std::move(r.claim);
        ctx.binding_released[r.workload] = r.binding;
    }
}

namespace {

// The fields the dry run reads (the last-applied annotation aside: it records the apply, it changes nothing).
bool same_template(model::workload a, model::workload b)
{
    a.annotations.erase(std::string(model::last_applied_annotation));
    b.annotations.erase(std::string(model::last_applied_annotation));
    return a.replicas == b.replicas && a.has_requirements == b.has_requirements && a.request == b.request &&
           a.claim == b.claim && a.components == b.components && a.labels == b.labels && a.annotations == b.annotations;
}

} // namespace

std::vector<applied_template> apply_workloads(dry_run_context& ctx, const std::vector<model::workload_manifest>& manifests)
{
    std::vector<applied_template> out;
    for (const auto& m : manifests) {
        const auto& d = m.decoded;
        auto it = std::find_if(ctx.workloads.begin(), ctx.workloads.end(), [&](const model::workload& w) {
            return w.api_version == d.api_version && w.kind == d.kind && w.namespace_ == d.namespace_ && w.name == d.name;
        });
        if (it == ctx.workloads.end()) {
            ctx.workloads.push_back(model::kubectl_applied(nullptr, m));
            ctx.known_claims.resize(ctx.workloads.size());
            if (const model::binding* b = ctx.bindings.find_for(d.api_version, d.kind, d.namespace_, d.name))
                ctx.known_claims.back() = b->claim;
            out.push_back({ctx.workloads.size() - 1, false, false});
            ctx.user_changed.resize(ctx.workloads.size());
            ctx.user_changed.back() = true;
            continue;
        }
        model::workload now = model::kubectl_applied(&*it, m);
        const bool changed = !same_template(*it, now);
        *it = std::move(now);
        const auto index = static_cast<std::size_t>(it - ctx.workloads.begin());
        out.push_back({index, true, changed});
        ctx.user_changed.resize(ctx.workloads.size());
        ctx.user_changed[index] = ctx.user_changed[index] || changed;
    }
    if (!ctx.released.empty()) {
        ctx.released.resize(ctx.workloads.size());
        ctx.binding_released.resize(ctx.workloads.size());
    }
    ctx.have_workloads = ctx.have_workloads || !manifests.empty();
    return out;
}

void add_snapshot_warnings(const dry_run_context& ctx, const model::policy& policy, const doc::value& object,
                           policy_result& result)
{
    if (!ctx.snapshot)
        return;
    for (const auto& u : scheduling::unmatched_terms(policy.spec, *ctx.snapshot))
        result.warnings.push_back({"affinity-matches-no-cluster", u.field, u.message, doc::locate(object, u.field)});
}

namespace {

// The --workloads templates by the binding the detector writes for each (scheduling::detector_binding_key):
// one lookup per binding instead of a scan over every template.
class binding_names {
public:
    explicit binding_names(const std::vector<model::workload>& workloads)
    {
        for (std::size_t i = 0; i < workloads.size(); ++i)
            by_key_.try_emplace(scheduling::detector_binding_key(workloads[i]), i);
    }
    // The template `b` is the binding of (scheduling::is_detector_binding_of), or npos.
    std::size_t find(const model::binding& b) const
    {
        auto it = by_key_.find(scheduling::key_of(b));
        return it == by_key_.end() ? npos : it->second;
    }
    static constexpr std::size_t npos = static_cast<std::size_t>(-1);

private:
    std::map<scheduling::binding_key, std::size_t> by_key_;
};

std::vector<placement_row> rows_of(const std::vector<model::target_cluster>& clusters)
{
    std::vector<placement_row> out;
    for (const auto& c : clusters)
        out.push_back({c.name, c.replicas, {}, {}, {}});
    return out;
}

// A re-schedule prediction as a scheduling entry: `clusters` is the predicted spec.clusters, with the
// tier and available replicas of the attempt where it computed them.
scheduling_result to_result(const model::binding& applied, const scheduling::reschedule_outcome& out,
                            bool keep_considered)
{
    scheduling_result s =
        out.acted ? to_result(model::workload_of(applied), out.result, keep_considered) : scheduling_result{};
    s.workload = ref_of(model::workload_of(applied));
    s.clusters = rows_of(out.after.clusters);
    if (out.acted)
        for (auto& row : s.clusters)
            for (const auto& c : out.result.clusters)
                if (c.name == row.cluster) {
                    row.tier = c.tier;
                    row.available = c.available;
                }
    s.scheduled = model::holds_placement(out.after);
    s.affinity_name = out.after.scheduler_observing_affinity_name;
    if (!out.acted) {
        s.message = out.verdict.message;
        if (out.after.scheduled && !s.scheduled) {
            s.condition_reason = out.after.scheduled->reason;
            s.condition_message = out.after.scheduled->message;
        }
    }
    s.has_condition = out.acted || out.after.scheduled.has_value();
    if (!s.karmada_panic.empty()) {
        s.scheduled = false; // whatever the binding said before: its scheduler is down
        s.has_condition = false;
    }
    s.acted = out.acted;
    s.why = out.verdict.message;
    s.trigger = out.acted ? std::string(scheduling::trigger_name(out.verdict.fired)) : "";
    s.previous = previous_placement{applied.scheduler_observing_affinity_name, rows_of(out.before)};
    for (const auto& m : scheduling::moves_between(out.before, out.after.clusters))
        s.moves.push_back({m.cluster, m.from, m.to});
    return s;
}

// binding-crashes-scheduler at `file`:`where`: karmada-scheduler panics with `runtime_error` on the binding
// `what` names (`when`: "" for its next pass), with the way out for that panic.
void add_panic_warning(std::string file, position where, const std::string& subject, const std::string& what,
                       const std::string& runtime_error, std::string_view when, report& r)
{
    r.snapshot_warnings.push_back({std::move(file), where, "binding-crashes-scheduler",
                                   what + ": " + scheduling::karmada_panic_text(runtime_error, when) + ": " +
                                       std::string(scheduling::advice_for_panic(runtime_error).remedy),
                                   subject});
    ++r.totals.warnings;
}

// A claimed template whose binding BuildResourceBinding fails to build, at the node to edit: the template's
// field when the interpreter fails on a template read from a file, else the policy's field the failure names
// (or the policy) when PATH has the policy, else without a place.
void warn_no_binding(const typed_policy* policy, const model::workload& w, const scheduling::build_failure& failure,
                     report& r)
{
    const std::string subject = model::object_label(w.kind, w.namespace_, w.name);
    position where;
    std::string file;
    if (failure.where.known() && !w.source.empty()) {
        file = w.source;
        where = failure.where;
    } else if (policy != nullptr) {
        file = r.results[policy->result].file;
        where = failure.field.empty() ? r.results[policy->result].start : doc::locate(policy->object, failure.field);
    }
    r.snapshot_warnings.push_back({std::move(file), where, failure.id,
                                   subject + ": the detector neither builds nor updates its binding: " + failure.message,
                                   subject});
    ++r.totals.warnings;
}

// The warning at the binding itself.
void warn_scheduler_panics(const model::binding& b, const std::string& runtime_error, std::string_view when, report& r)
{
    const std::string subject = model::object_label(b.kind, b.namespace_, b.name);
    add_panic_warning(b.source, b.where, subject, subject, runtime_error, when, r);
}

// The warning for a template a policy on the server claims (PATH's version of it denied, or not in PATH):
// the binding the detector creates panics karmada-scheduler's first pass. At PATH's version of that policy
// when there is one (the policy a person edits), else without a place.
void warn_first_schedule_panics(const scheduling::policy_view& holder, const model::workload& w,
                                const std::string& runtime_error, report& r)
{
    std::string file;
    position where;
    for (const auto& result : r.results)
        if (result.kind == (holder.cluster_scoped ? model::kind_cluster_propagation_policy : model::kind_propagation_policy) &&
            result.name == holder.name && result.namespace_name == holder.ns) {
            file = result.file;
            where = result.start;
            break;
        }
    const std::string subject = model::object_label(w.kind, w.namespace_, w.name);
    add_panic_warning(std::move(file), where, subject,
                      subject + " (" + scheduling::policy_label(holder) + ", as the server has it)", runtime_error,
                      " on the binding the detector creates for it", r);
}

// A binding whose policy is not among PATH gets no prediction, but one that karmada-scheduler crashes on
// stops the scheduling of others: a warning at the binding. lint does not know what the detector will
// do to such a binding (its template may change its replicas), so a binding the scheduler leaves alone
// today is tried once more as its next pass would see it (the applied placement forgotten): the crash
// waits for any change of its replicas or placement, or a reschedule.
void warn_if_scheduler_panics(const dry_run_context& ctx, const scheduling::options& opts, const model::binding& b,
                              report& r)
{
    std::string_view when;
    auto out = scheduling::reschedule(b, *ctx.snapshot, opts, ctx.gates, ctx.now);
    if (out.result.karmada_panic.empty()) {
        model::binding next = b;
        next.annotations.erase(std::string(model::applied_placement_annotation));
        out = scheduling::reschedule(next, *ctx.snapshot, opts, ctx.gates, ctx.now);
        when = " the next time it schedules this binding (a change of its replicas or placement, a reschedule)";
    }
    if (!out.result.karmada_panic.empty())
        warn_scheduler_panics(b, out.result.karmada_panic, when, r);
}

// A binding whose policy the change deletes or edits away and that nothing claims now: it stays as it stands.
released_binding released_of(const model::binding& b, const model::workload& w, const model::policy_claim& was,
                             std::string why)
{
    return {ref_of(w), lint::ref_of(was), std::move(why), model::object_label(b.kind, b.namespace_, b.name),
            b.scheduler_observing_affinity_name, rows_of(b.clusters)};
}

// Why a multi-component job is not kept together, or why its estimate misleads (day2-semantics §6).
void add_component_warnings(const dry_run_context& ctx, const typed_policy& p, const model::workload& w, report& r)
{
    const std::vector<model::cluster> clusters(ctx.clusters.clusters().begin(), ctx.clusters.clusters().end());
    policy_result& result = r.results[p.result];
    for (const auto& warning : scheduling::component_pitfalls(p.policy.spec, w, clusters, ctx.gates)) {
        result.warnings.push_back({warning.id, "spec.placement", warning.message, doc::locate(p.object, "spec.placement")});
        ++r.totals.warnings;
    }
}

// A template whose sidecars Karmada counts for less than the members' kube-scheduler does, when its policy
// divides replicas by capacity: at the first sidecar's restartPolicy in the template's file.
void warn_sidecars(const typed_policy& p, const model::workload& w, report& r)
{
    auto text = scheduling::sidecar_request_not_counted(p.policy.spec.placement, w);
    if (!text)
        return;
    const std::string subject = model::object_label(w.kind, w.namespace_, w.name);
    r.snapshot_warnings.push_back({w.source, w.source.empty() ? position{} : w.sidecars->where,
                                   "sidecar-request-not-counted", subject + ": " + std::move(*text), subject});
    ++r.totals.warnings;
}

// "namespace/group" of every affinity and anti-affinity group the run's claimed workloads' bindings carry,
// with how many carry it (WorkloadAffinity on; empty otherwise).
std::map<std::string, int> affinity_group_sizes(const dry_run_context& ctx, const std::vector<scheduling::policy_view>& views,
                                                const std::vector<scheduling::claim_explanation>& claims)
{
    std::map<std::string, int> sizes;
    if (!ctx.gates.workload_affinity())
        return sizes;
    for (std::size_t i = 0; i < ctx.workloads.size(); ++i) {
        if (!claims[i].policy)
            continue;
        const auto& w = ctx.workloads[i];
        const auto groups = scheduling::affinity_groups_of(views[*claims[i].policy].spec->placement, w);
        for (const auto* g : {&groups.affinity_group, &groups.anti_affinity_group})
            if (!g->empty())
                ++sizes[w.namespace_ + "/" + *g];
    }
    return sizes;
}

// What the dry run leaves out of one workload's schedule under the gates in force (unmodelled_gates.hpp).
void warn_unmodelled_gates(const dry_run_context& ctx, const std::map<std::string, int>& group_sizes,
                           const typed_policy& p, const model::workload& w, report& r)
{
    const auto groups = scheduling::affinity_groups_of(p.policy.spec.placement, w);
    bool shared = ctx.have_bindings;
    for (const auto* g : {&groups.affinity_group, &groups.anti_affinity_group})
        if (auto it = group_sizes.find(w.namespace_ + "/" + *g); !g->empty() && it != group_sizes.end())
            shared = shared || it->second > 1;
    if (auto text = scheduling::workload_affinity_not_predicted(p.policy.spec.placement, w, ctx.gates, shared)) {
        r.results[p.result].warnings.push_back({"workload-affinity-not-predicted", "spec.placement.workloadAffinity",
                                                std::move(*text),
                                                doc::locate(p.object, "spec.placement.workloadAffinity")});
        ++r.totals.warnings;
    }
}

} // namespace

void schedule_workloads(const dry_run_context& ctx, const std::vector<typed_policy>& policies, report& r)
{
    if (!ctx.snapshot || (!ctx.have_workloads && !ctx.have_bindings))
        return;
    r.have_bindings = ctx.have_bindings;
    // Workloads of one policy and kind share one filter pass over the snapshot, and workloads with the
    // same per-replica request share the estimates (replan_bench: BENCHMARKS.md, "day two").
    scheduling::filter_cache shared(*ctx.snapshot);
    scheduling::options opts = ctx.options;
    opts.filters = &shared;
    opts.candidate_rows = false; // rows come from decision::clusters (to_result)
    auto views = policy_views(policies, r);
    std::vector<scheduling::lowered_priority> cuts;
    if (ctx.base_version && ctx.gates.policy_preemption())
        for (const auto& p : policies)
            if (const model::policy* before = ctx.base_version(p))
                if (auto cut = scheduling::lowered(*before, p.policy))
                    cuts.push_back(*cut);
    if (ctx.settled)
        for (std::size_t i = 0; i < views.size(); ++i)
            views[i].settled = ctx.settled(policies[i]) && !scheduling::requeued_by_priority_cut(policies[i].policy, cuts);
    add_standing_views(ctx, views); // ranked with PATH's; an index past `policies` is one of them
    const auto claims = explain_claims(ctx, views);
    report_claims(ctx, policies, views, claims, r);
    const auto group_sizes = affinity_group_sizes(ctx, views, claims);
    // Day two: a workload with a binding keeps the policy its claim names and that policy is applied,
    // unless a policy preempts the claim (karmada: pkg/detector/preemption.go): then the preemptor's
    // placement is applied to the same binding and the scheduler sees the placement change.
    std::vector<bool> bound(ctx.workloads.size(), false);
    const binding_names templates(ctx.workloads);
    std::vector<const model::policy*> policy_of_view;
    for (const auto& p : policies)
        policy_of_view.push_back(&p.policy);
    for (const auto& p : ctx.standing)
        policy_of_view.push_back(&p.policy);
    const auto of_path = [&](std::optional<std::size_t> view) { return view && *view < policies.size(); };
    // The version of view `v`'s policy before the change (nullptr: created by it): a settled one is as it was.
    const scheduling::version_before version_before = [&](std::size_t v) -> const model::policy* {
        if (!of_path(v) || views[v].settled)
            return policy_of_view[v];
        return ctx.base_version ? ctx.base_version(policies[v]) : nullptr;
    };
    // How the change reaches template `i` (a Lazy claim leaves its binding alone without a user's event).
    const auto events_of = [&](std::size_t i) {
        return scheduling::template_events{static_cast<bool>(ctx.settled),
                                           i < ctx.user_changed.size() && ctx.user_changed[i],
                                           i < ctx.released.size() && ctx.released[i].has_value()};
    };
    for (const auto& b : ctx.bindings.bindings()) {
        const std::size_t found = templates.find(b);
        const model::workload* w = found == binding_names::npos ? nullptr : &ctx.workloads[found];
        if (w != nullptr)
            bound[found] = true; // the detector updates this binding rather than create one
        const model::binding* recorded =
            w == nullptr ? nullptr : ctx.bindings.find_for(w->api_version, w->kind, w->namespace_, w->name);
        auto update = scheduling::update_binding(b, w, w == nullptr ? nullptr : &claims[found], recorded, views,
                                                 policy_of_view, ctx.gates, ctx.workloads, ctx.have_workloads);
        if (w != nullptr)
            scheduling::leave_lazily(update, b, *w, claims[found], recorded, views, version_before, ctx.gates,
                                     events_of(found));
        if (update.refused && of_path(claims[found].policy)) {
            const typed_policy& holder = policies[*claims[found].policy];
            r.results[holder.result].warnings.push_back(
                {"binding-owned-by-another", "",
                 "the detector cannot update " + model::object_label(b.kind, b.namespace_, b.name) + " for " +
                     model::object_label(w->kind, w->namespace_, w->name) +
                     ": its controller owner (uid \"" + *b.controller_owner_uid +
                     "\") is another object (\"failed to update binding due to different owner reference UID\", "
                     "karmada#2090); this policy's placement reaches the workload once the garbage collector has "
                     "deleted that binding",
                 holder.object.pos()});
            ++r.totals.warnings;
        }
        if (update.build_error && of_path(claims[found].policy))
            warn_no_binding(&policies[*claims[found].policy], *w, *update.build_error, r);
        // A released binding keeps the clusters of the object it records: one named after `w` that records
        // another object (nothing wrote it for `w`) does not hold `w` anywhere.
        const bool holds_w = recorded == &b;
        if (!update.policy && w != nullptr && found < ctx.binding_released.size() && ctx.binding_released[found]) {
            if (holds_w)
                r.released.push_back(released_of(b, *w, *ctx.released[found], "is deleted"));
            continue;
        }
        // cleanPPUnmatchedRBs finds what it releases by the bindings that carry the policy's claim: a binding
        // without one (another object controls it) was never released, whatever its template says.
        if (!update.policy && w != nullptr && claims[found].released_unmatched && claims[found].holder && b.claim) {
            if (holds_w)
                r.released.push_back(released_of(b, *w, *claims[found].holder, "no longer selects it"));
            continue;
        }
        if (update.policy && !of_path(update.policy)) {
            const auto& held = update.applied;
            const auto out = scheduling::reschedule(held, *ctx.snapshot, opts, ctx.gates, ctx.now);
            r.standing.push_back({ref_of(views[*update.policy]), to_result(held, out, r.explain)});
            // The policy on the server (PATH's version denied, or not in PATH) keeps it: a panic of its
            // pass concerns every binding queued after it, whatever PATH changes.
            if (!out.result.karmada_panic.empty())
                warn_scheduler_panics(b, out.result.karmada_panic, {}, r);
            continue;
        }
        if (!update.policy) {
            ++r.totals.not_predicted; // claimed by a policy that is not among PATH (or by none)
            // Its policy stays as it is on the server, so the binding is scheduled as it stands: whether
            // that crashes the scheduler concerns every other binding too.
            if (b.placement && scheduling::selection_may_panic(*b.placement, ctx.gates.release()))
                warn_if_scheduler_panics(ctx, opts, b, r);
            continue;
        }
        const typed_policy* p = &policies[*update.policy];
        const model::binding& applied = update.applied;
        auto out = scheduling::reschedule(applied, *ctx.snapshot, opts, ctx.gates, ctx.now);
        r.results[p->result].scheduling.push_back(to_result(applied, out, r.explain));
        if (w != nullptr && out.acted) {
            warn_unmodelled_gates(ctx, group_sizes, *p, *w, r);
            warn_sidecars(*p, *w, r);
        }
        r.totals.unschedulable += r.results[p->result].scheduling.back().unschedulable() ? 1 : 0;
    }
    for (std::size_t i = 0; i < ctx.workloads.size(); ++i) {
        if (bound[i])
            continue; // predicted from its binding above
        if (!claims[i].policy || claims[i].holder_unmatched)
            continue; // a holder that no longer selects it: getAndApplyPolicy ignores it, no binding is built
        const auto& w = ctx.workloads[i];
        const auto source = scheduling::first_binding_source(claims[i], views, version_before, events_of(i));
        if (!source)
            continue; // a Lazy claim the change leaves without a binding (lazy_binding.hpp)
        const std::optional<std::size_t> claim = source->view;
        const model::propagation_spec* spec = source->spec;
        if (const auto failure = scheduling::binding_build_failure(w, *spec, ctx.gates, ctx.workloads)) {
            // No binding, so nothing to schedule: the template stays where it is, unpropagated.
            warn_no_binding(of_path(claim) ? &policies[*claim] : nullptr, w, *failure, r);
            continue;
        }
        if (!of_path(claim)) {
            const auto d = scheduling::first_schedule(*spec, w, *ctx.snapshot, opts);
            r.standing.push_back({ref_of(views[*claim]), to_result(w, d, r.explain)});
            // The server's policy creates the binding and karmada-scheduler panics on its first pass.
            if (!d.karmada_panic.empty())
                warn_first_schedule_panics(views[*claim], w, d.karmada_panic, r);
            continue;
        }
        const auto& p = policies[*claim];
        auto d = scheduling::first_schedule(*spec, w, *ctx.snapshot, opts);
        r.results[p.result].scheduling.push_back(to_result(w, d, r.explain));
        r.totals.unschedulable += r.results[p.result].scheduling.back().unschedulable() ? 1 : 0;
        if (d.ignored.empty()) {
            warn_unmodelled_gates(ctx, group_sizes, p, w, r);
            warn_sidecars(p, w, r);
        }
        if (!w.components.empty())
            add_component_warnings(ctx, p, w, r);
    }
    // Only what places replicas is assumed (a Namespace or a ClusterRole propagates without a replica count).
    int scheduled = 0;
    for (const auto& result : r.results)
        for (const auto& s : result.scheduling)
            scheduled += s.acted && s.ignored.empty() &&
                                 std::any_of(s.clusters.begin(), s.clusters.end(),
                                             [](const placement_row& row) { return row.replicas > 0; })
                             ? 1
                             : 0;
    if (auto text = scheduling::assumed_workloads_not_predicted(scheduled, ctx.gates)) {
        r.snapshot_warnings.push_back({"--feature-gates", {}, "assumed-workloads-not-predicted", std::move(*text), {}});
        ++r.totals.warnings;
    }
}

} // namespace kpw::lint
