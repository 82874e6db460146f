// SPDX-License-Identifier: Apache-2.0
// -o json: the contract shape {"summary": {...}, "results": [...]}, keys in a fixed order.
#include "lint/render.hpp"

#include <ostream>

#include "doc/value.hpp"

namespace kpw::lint {
namespace {

using doc::value;

void add_position(value& v, position where)
{
    if (where.known()) {
        v.add("line", value::integer(where.line));
        v.add("column", value::integer(where.column));
    }
}

value error_json(const finding& e)
{
    value v = value::mapping();
    v.add("field", value::string(e.field));
    v.add("reason", value::string(e.id));
    v.add("message", value::string(e.message));
    add_position(v, e.where);
    return v;
}

value warning_json(const finding& w)
{
    value v = value::mapping();
    v.add("id", value::string(w.id));
    v.add("field", value::string(w.field));
    v.add("message", value::string(w.message));
    add_position(v, w.where);
    return v;
}

value placement_rows_json(const std::vector<placement_row>& rows)
{
    value clusters = value::sequence();
    for (const auto& c : rows) {
        value row = value::mapping();
        row.add("name", value::string(c.cluster));
        row.add("replicas", value::integer(c.replicas));
        row.add("tier", value::string(c.tier));
        if (c.available)
            row.add("available", value::integer(*c.available));
        if (!c.components.empty()) {
            value& components = row.add("components", value::sequence());
            for (const auto& [name, replicas] : c.components) {
                value comp = value::mapping();
                comp.add("name", value::string(name));
                comp.add("replicas", value::integer(replicas));
                components.push_back(std::move(comp));
            }
        }
        clusters.push_back(std::move(row));
    }
    return clusters;
}

value strings_json(const std::vector<std::string>& list)
{
    value v = value::sequence();
    for (const auto& s : list)
        v.push_back(value::string(s));
    return v;
}

value considered_json(const std::vector<considered_row>& rows)
{
    value out = value::sequence();
    for (const auto& c : rows) {
        value v = value::mapping();
        v.add("name", value::string(c.cluster));
        v.add("tier", value::string(c.tier));
        v.add("passed", value::boolean(c.passed));
        v.add("plugin", value::string(c.plugin));
        v.add("reason", c.passed ? value::string(c.left_out) : value::string(c.reason));
        if (!c.passed) {
            v.add("detail", value::string(c.detail));
            if (!c.also_fails.empty())
                v.add("alsoFails", strings_json(c.also_fails));
        }
        v.add("available", c.available ? value::integer(*c.available) : value::null_value());
        if (c.passed)
            v.add("boundBy", value::string(c.bound_by));
        v.add("replicas", value::integer(c.replicas));
        if (c.component_sets) // `available` counts complete component sets
            v.add("holdsJob", value::boolean(c.holds_job));
        out.push_back(std::move(v));
    }
    return out;
}

value groups_json(const std::vector<group_row>& groups, bool explain)
{
    value out = value::sequence();
    for (const auto& g : groups) {
        value v = value::mapping();
        v.add("affinityName", value::string(g.affinity_name));
        v.add("outcome", value::string(g.outcome));
        if (!g.error.empty())
            v.add("error", value::string(g.error));
        if (!g.diagnosis.empty())
            v.add("diagnosis", value::string(g.diagnosis));
        if (!g.diagnosis_alternatives.empty())
            v.add("diagnosis_alternatives", strings_json(g.diagnosis_alternatives));
        if (explain)
            v.add("considered", considered_json(g.considered));
        out.push_back(std::move(v));
    }
    return out;
}

value moves_json(const std::vector<move_row>& moves)
{
    value out = value::sequence();
    for (const auto& m : moves) {
        value v = value::mapping();
        v.add("cluster", value::string(m.cluster));
        v.add("from", value::integer(m.from));
        v.add("to", value::integer(m.to));
        out.push_back(std::move(v));
    }
    return out;
}

// The explain and day-2 keys of one scheduling entry (issues 12 and 13).
void add_decision_details(value& v, const scheduling_result& s, bool explain)
{
    if (s.has_condition) {
        value condition = value::mapping();
        condition.add("status", value::string(s.scheduled ? "True" : "False"));
        condition.add("reason", value::string(s.scheduled ? "Success" : s.condition_reason));
        condition.add("message",
                      value::string(s.scheduled ? "Binding has been scheduled successfully." : s.condition_message));
        v.add("condition", std::move(condition));
    }
    if (s.condition_reason == "NoClusterFit") {
        v.add("diagnosis", value::string(s.condition_message));
        if (!s.condition_alternatives.empty())
            v.add("diagnosis_alternatives", strings_json(s.condition_alternatives));
    }
    if (explain) // every considered cluster is a row per workload: only when asked for (--explain)
        v.add("considered", s.groups.empty() ? value::sequence() : considered_json(s.groups.back().considered));
    v.add("groups", groups_json(s.groups, explain));
    if (!s.ignored.empty())
        v.add("ignored", value::string(s.ignored));
    if (!s.previous)
        return;
    v.add("acted", value::boolean(s.acted));
    if (!s.trigger.empty())
        v.add("trigger", value::string(s.trigger));
    v.add("why", value::string(s.why));
    value previous = value::mapping();
    if (!s.previous->affinity_name.empty())
        previous.add("affinityName", value::string(s.previous->affinity_name));
    previous.add("clusters", placement_rows_json(s.previous->clusters));
    v.add("previous", std::move(previous));
    v.add("moves", moves_json(s.moves));
}

value scheduling_json(const scheduling_result& s, bool explain)
{
    value workload = value::mapping();
    workload.add("apiVersion", value::string(s.workload.api_version));
    workload.add("kind", value::string(s.workload.kind));
    workload.add("namespace", value::string(s.workload.namespace_name));
    workload.add("name", value::string(s.workload.name));
    workload.add("replicas", value::integer(s.workload.replicas));

    value v = value::mapping();
    v.add("workload", std::move(workload));
    v.add("scheduled", value::boolean(s.scheduled));
    if (!s.affinity_name.empty())
        v.add("affinityName", value::string(s.affinity_name));
    v.add("clusters", placement_rows_json(s.clusters));
    v.add("message", value::string(s.message));
    v.add("tie", value::boolean(s.tie));
    if (!s.karmada_panic.empty())
        v.add("karmadaPanic", value::string(s.karmada_panic));
    add_decision_details(v, s, explain);
    return v;
}

value result_json(const policy_result& p, bool explain)
{
    value v = value::mapping();
    v.add("file", value::string(p.file));
    v.add("document", value::integer(p.document));
    v.add("line", value::integer(p.start.line));
    v.add("kind", value::string(p.kind));
    v.add("namespace", value::string(p.namespace_name));
    v.add("name", value::string(p.name));
    v.add("allowed", value::boolean(p.allowed));
    value& errors = v.add("errors", value::sequence());
    for (const auto& e : p.errors)
        errors.push_back(error_json(e));
    value& warnings = v.add("warnings", value::sequence());
    for (const auto& w : p.warnings)
        warnings.push_back(warning_json(w));
    value& scheduling = v.add("scheduling", value::sequence());
    for (const auto& s : p.scheduling)
        scheduling.push_back(scheduling_json(s, explain));
    return v;
}

value side_json(const placement& p)
{
    value v = value::mapping();
    // A released binding has no policy: `releasedBy` names the deleted one that held it.
    v.add("policy", p.claimed && !p.released ? value::string(p.policy) : value::null_value());
    if (p.released)
        v.add("releasedBy", value::string(p.policy));
    v.add("affinityName", value::string(p.affinity_name));
    v.add("scheduled", value::boolean(p.scheduled));
    value& clusters = v.add("clusters", value::sequence());
    for (const auto& c : p.clusters) {
        value row = value::mapping();
        row.add("name", value::string(c.name));
        row.add("replicas", value::integer(c.replicas));
        row.add("tier", value::string(c.tier));
        clusters.push_back(std::move(row));
    }
    return v;
}

// lint --base: {"workload", "before", "after", "moves"} per workload whose outcome changes.
value diff_json(const placement_diff& d)
{
    value out = value::sequence();
    for (const auto& c : d.changes) {
        value workload = value::mapping();
        workload.add("apiVersion", value::string(c.workload.api_version));
        workload.add("kind", value::string(c.workload.kind));
        workload.add("namespace", value::string(c.workload.namespace_name));
        workload.add("name", value::string(c.workload.name));
        value v = value::mapping();
        v.add("workload", std::move(workload));
        v.add("before", side_json(c.before));
        v.add("after", side_json(c.after));
        value& moves = v.add("moves", value::sequence());
        for (const auto& m : c.moves) {
            value move = value::mapping();
            move.add("cluster", value::string(m.cluster));
            move.add("from", value::integer(m.from));
            move.add("to", value::integer(m.to));
            moves.push_back(std::move(move));
        }
        out.push_back(std::move(v));
    }
    return out;
}

value policy_ref_json(const policy_ref& p)
{
    value v = value::mapping();
    v.add("kind", value::string(p.kind));
    v.add("namespace", value::string(p.namespace_name));
    v.add("name", value::string(p.name));
    return v;
}

value claim_json(const claim_row& c)
{
    value workload = value::mapping();
    workload.add("apiVersion", value::string(c.workload.api_version));
    workload.add("kind", value::string(c.workload.kind));
    workload.add("namespace", value::string(c.workload.namespace_name));
    workload.add("name", value::string(c.workload.name));
    value candidates = value::sequence();
    for (const auto& k : c.candidates) {
        value row = value::mapping();
        row.add("policy", policy_ref_json(k.policy));
        row.add("priority", value::integer(k.priority));
        row.add("implicitPriority", value::string(k.implicit_priority));
        row.add("matched", value::boolean(k.matched));
        row.add("why", value::string(k.why));
        candidates.push_back(std::move(row));
    }
    value v = value::mapping();
    v.add("workload", std::move(workload));
    v.add("policy", c.policy ? policy_ref_json(*c.policy) : value::null_value());
    v.add("reason", value::string(c.reason));
    v.add("candidates", std::move(candidates));
    v.add("sticky", value::boolean(c.sticky));
    v.add("preempted", value::boolean(c.preempted));
    v.add("ignored", value::boolean(c.ignored));
    if (c.would_win)
        v.add("wouldWin", policy_ref_json(*c.would_win));
    if (c.released_by)
        v.add("releasedBy", policy_ref_json(*c.released_by));
    return v;
}

// summary.claims, present when --workloads was given (an empty list then means no workloads).
void add_claims(value& summary, const report& r)
{
    if (!r.have_claims)
        return;
    value& claims = summary.add("claims", value::sequence());
    for (const auto& c : r.claims)
        claims.push_back(claim_json(c));
}

// {"file", "line", "column", "id", "message"} per finding about a snapshot object.
value snapshot_warnings_json(const std::vector<snapshot_warning>& warnings)
{
    value out = value::sequence();
    for (const auto& w : warnings) {
        value v = value::mapping();
        v.add("file", value::string(w.file));
        v.add("line", value::integer(w.where.line));
        v.add("column", value::integer(w.where.column));
        v.add("id", value::string(w.id));
        v.add("message", value::string(w.message));
        out.push_back(std::move(v));
    }
    return out;
}

// `plan`: {"action", "kind", "namespace", "name", "file"[, "note"]} per policy PATH touches (and, with
// --prune, per server policy it deletes or keeps), or per resource template PATH applies.
value policy_plan_json(const std::vector<policy_plan_row>& rows)
{
    value out = value::sequence();
    for (const auto& row : rows) {
        value v = value::mapping();
        v.add("action", value::string(row.action));
        v.add("kind", value::string(row.policy.kind));
        v.add("namespace", value::string(row.policy.namespace_name));
        v.add("name", value::string(row.policy.name));
        v.add("file", value::string(row.file));
        if (!row.note.empty())
            v.add("note", value::string(row.note));
        out.push_back(std::move(v));
    }
    return out;
}

} // namespace

void render_json(const report& r, std::ostream& out)
{
    value summary = value::mapping();
    summary.add("documents", value::integer(r.totals.documents));
    summary.add("policies", value::integer(r.totals.policies));
    summary.add("denied", value::integer(r.totals.denied));
    summary.add("warnings", value::integer(r.totals.warnings));
    summary.add("unschedulable", value::integer(r.totals.unschedulable));
    if (r.have_bindings)
        summary.add("notPredicted", value::integer(r.totals.not_predicted));
    if (r.diff) {
        summary.add("changed", value::integer(static_cast<std::int64_t>(r.diff->changes.size())));
        summary.add("unchanged", value::integer(r.diff->unchanged));
    }
    add_claims(summary, r);

    value results = value::sequence();
    for (const auto& p : r.results)
        results.push_back(result_json(p, r.explain));

    value root = value::mapping();
    root.add("summary", std::move(summary));
    root.add("results", std::move(results));
    if (!r.snapshot_warnings.empty())
        root.add("snapshotWarnings", snapshot_warnings_json(r.snapshot_warnings));
    if (r.diff)
        root.add("diff", diff_json(*r.diff));
    if (r.policy_plan)
        root.add("policies", policy_plan_json(*r.policy_plan));
    if (r.workload_plan)
        root.add("workloads", policy_plan_json(*r.workload_plan));
    value karmada = value::mapping();
    karmada.add("version", value::string(r.karmada_release));
    karmada.add("decidedBy", value::string(r.release_decided_by.empty() ? "default" : r.release_decided_by));
    root.add("karmada", std::move(karmada));
    out << doc::to_json(root) << '\n';
}

} // namespace kpw::lint
