// SPDX-License-Identifier: Apache-2.0
// -o json: {"scenario", "settings", "steps": [...], "summary"}, keys in a fixed order.
#include "simulate/render.hpp"

#include <ostream>

#include "doc/value.hpp"
#include "model/time.hpp"

namespace kpw::simulate_cli {

namespace {

using doc::value;

value clusters_json(const std::vector<model::target_cluster>& clusters)
{
    value out = value::sequence();
    for (const auto& c : clusters) {
        value v = value::mapping();
        v.add("name", value::string(c.name));
        v.add("replicas", value::integer(c.replicas));
        out.push_back(std::move(v));
    }
    return out;
}

value workload_ref_json(const model::object_reference& r)
{
    value v = value::mapping();
    v.add("apiVersion", value::string(r.api_version));
    v.add("kind", value::string(r.kind));
    v.add("namespace", value::string(r.namespace_));
    v.add("name", value::string(r.name));
    return v;
}

value workload_json(const simulate::workload_outcome& o)
{
    value v = value::mapping();
    v.add("workload", workload_ref_json(o.workload));
    v.add("policy", value::string(o.policy));
    v.add("replicas", value::integer(o.replicas));
    v.add("scheduled", value::boolean(o.scheduled));
    v.add("acted", value::boolean(o.acted));
    v.add("trigger", value::string(o.trigger));
    v.add("message", value::string(o.message));
    value condition = value::mapping();
    condition.add("reason", value::string(o.condition_reason));
    condition.add("message", value::string(o.condition_message));
    v.add("condition", std::move(condition));
    v.add("affinityBefore", value::string(o.affinity_before));
    v.add("affinityName", value::string(o.affinity_after));
    v.add("before", clusters_json(o.before));
    v.add("clusters", clusters_json(o.after));
    value& moves = v.add("moves", value::sequence());
    for (const auto& m : o.moves) {
        value mv = value::mapping();
        mv.add("cluster", value::string(m.cluster));
        mv.add("from", value::integer(m.from));
        mv.add("to", value::integer(m.to));
        moves.push_back(std::move(mv));
    }
    value& evictions = v.add("evictions", value::sequence());
    for (const auto& e : o.evictions) {
        value ev = value::mapping();
        ev.add("cluster", value::string(e.cluster));
        ev.add("replicas", value::integer(e.replicas));
        ev.add("purgeMode", value::string(e.purge_mode));
        ev.add("endsBy", e.ends_by ? value::string(model::format_rfc3339(*e.ends_by)) : value::null_value());
        evictions.push_back(std::move(ev));
    }
    v.add("placed", value::integer(o.placed));
    v.add("serving", value::integer(o.serving));
    return v;
}

value step_json(const simulate::step_outcome& s)
{
    value v = value::mapping();
    v.add("name", value::string(s.name));
    if (s.where.known()) {
        v.add("line", value::integer(s.where.line));
        v.add("column", value::integer(s.where.column));
    }
    v.add("time", value::string(model::format_rfc3339(s.at)));
    value& events = v.add("events", value::sequence());
    for (const auto& e : s.events)
        events.push_back(value::string(e));
    value& workloads = v.add("workloads", value::sequence());
    for (const auto& w : s.workloads)
        workloads.push_back(workload_json(w));
    value& warnings = v.add("warnings", value::sequence());
    for (const auto& w : s.warnings) {
        value wv = value::mapping();
        wv.add("id", value::string(w.id));
        wv.add("workload", value::string(w.workload));
        wv.add("message", value::string(w.message));
        warnings.push_back(std::move(wv));
    }
    v.add("failed", value::boolean(s.failed));
    return v;
}

} // namespace

void render_json(const drill_header& h, const simulate::drill& d, std::ostream& out)
{
    value root = value::mapping();
    value scenario = value::mapping();
    scenario.add("file", value::string(h.scenario_file));
    scenario.add("name", value::string(h.scenario_name));
    root.add("scenario", std::move(scenario));
    value& settings = root.add("settings", value::sequence());
    for (const auto& s : h.settings)
        settings.push_back(value::string(s));
    value& steps = root.add("steps", value::sequence());
    std::int64_t failed = 0;
    for (const auto& s : d.steps) {
        steps.push_back(step_json(s));
        failed += s.failed ? 1 : 0;
    }
    value summary = value::mapping();
    summary.add("steps", value::integer(std::int64_t(d.steps.size())));
    summary.add("failedSteps", value::integer(failed));
    root.add("summary", std::move(summary));
    out << doc::to_json(root) << '\n';
}

} // namespace kpw::simulate_cli
