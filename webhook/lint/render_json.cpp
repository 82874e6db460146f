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

value scheduling_json(const scheduling_result& s)
{
    value workload = value::mapping();
    workload.add("apiVersion", value::string(s.workload.api_version));
    workload.add("kind", value::string(s.workload.kind));
    workload.add("namespace", value::string(s.workload.namespace_name));
    workload.add("name", value::string(s.workload.name));
    workload.add("replicas", value::integer(s.workload.replicas));

    value clusters = value::sequence();
    for (const auto& c : s.clusters) {
        value row = value::mapping();
        row.add("name", value::string(c.cluster));
        row.add("replicas", value::integer(c.replicas));
        row.add("tier", value::string(c.tier));
        if (c.available)
            row.add("available", value::integer(*c.available));
        clusters.push_back(std::move(row));
    }

    value v = value::mapping();
    v.add("workload", std::move(workload));
    v.add("scheduled", value::boolean(s.scheduled));
    if (!s.affinity_name.empty())
        v.add("affinityName", value::string(s.affinity_name));
    v.add("clusters", std::move(clusters));
    v.add("message", value::string(s.message));
    v.add("tie", value::boolean(s.tie));
    return v;
}

value result_json(const policy_result& p)
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
        scheduling.push_back(scheduling_json(s));
    return v;
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

} // namespace

void render_json(const report& r, std::ostream& out)
{
    value summary = value::mapping();
    summary.add("documents", value::integer(r.totals.documents));
    summary.add("policies", value::integer(r.totals.policies));
    summary.add("denied", value::integer(r.totals.denied));
    summary.add("warnings", value::integer(r.totals.warnings));
    summary.add("unschedulable", value::integer(r.totals.unschedulable));
    add_claims(summary, r);

    value results = value::sequence();
    for (const auto& p : r.results)
        results.push_back(result_json(p));

    value root = value::mapping();
    root.add("summary", std::move(summary));
    root.add("results", std::move(results));
    out << doc::to_json(root) << '\n';
}

} // namespace kpw::lint
