// SPDX-License-Identifier: Apache-2.0
// Scenario decoding: the envelope, one function per action, positions from the node a person edits.
#include "simulate/scenario_decode.hpp"

#include <algorithm>
#include <array>
#include <functional>
#include <limits>

#include "doc/locate.hpp"
#include "model/cluster_decode.hpp"
#include "model/policy.hpp"
#include "model/time.hpp"

namespace kpw::simulate {

namespace {

constexpr std::array<std::string_view, 13> action_keys{
    "taint", "untaint", "clusterDown", "clusterUp", "addCluster", "removeCluster", "setResources",
    "scale", "rebalance", "applyPolicy", "deletePolicy", "relabel", "wait"};

std::string action_list()
{
    std::string out;
    for (auto k : action_keys)
        out.append(out.empty() ? "" : ", ").append(k);
    return out;
}

// Errors go to the node of their path in the scenario document.
struct context {
    const doc::value& root;
    std::vector<scenario_error>& errors;

    void add(const field::path& at, const std::string& message) const
    {
        errors.push_back({doc::locate(root, at.str()), at.str() + ": " + message});
    }
    void add(const field::error_list& list) const
    {
        for (const auto& e : list)
            errors.push_back({doc::locate(root, e.field), e.str()});
    }
};

// The mapping of one action, its path, and the checks every action shares.
struct action_fields {
    const context& ctx;
    const doc::value& node;
    field::path at;

    // Only `allowed` keys; anything else is reported.
    void only(std::initializer_list<std::string_view> allowed) const
    {
        for (const auto& [key, v] : node.members())
            if (std::find(allowed.begin(), allowed.end(), key) == allowed.end())
                ctx.add(at.child(key), "unknown field \"" + key + "\"");
    }
    // A required non-empty string.
    std::string text(std::string_view key) const
    {
        field::error_list errs;
        auto s = model::read::string(node.find(key), at.child(key), errs);
        ctx.add(errs);
        if (errs.empty() && s.empty())
            ctx.add(at.child(key), "Required value");
        return s;
    }
    cluster_name cluster(std::string_view key = "cluster") const
    {
        const doc::value* v = node.find(key);
        return {text(key), v != nullptr ? v->pos() : node.pos()};
    }
    const doc::value* find(std::string_view key) const { return node.find(key); }
};

void decode_taint(const action_fields& f, bool untaint, action& out)
{
    f.only({"cluster", "taint"});
    taint_step s;
    s.cluster = f.cluster();
    s.spec = f.text("taint");
    out = s;
    if (s.spec.empty())
        return;
    const std::string spec = untaint && !s.spec.ends_with('-') ? s.spec + "-" : s.spec;
    auto parsed = controllers::parse_taint_spec(spec);
    if (!parsed) {
        f.ctx.add(f.at.child("taint"), parsed.error().message);
        return;
    }
    if (parsed->remove && !untaint)
        f.ctx.add(f.at.child("taint"), "\"" + s.spec + "\" removes a taint: use an untaint step");
    std::get<taint_step>(out).change = *parsed;
}

void decode_cluster_down(const action_fields& f, action& out)
{
    f.only({"cluster", "status"});
    cluster_down_step s;
    s.cluster = f.cluster();
    if (const doc::value* st = f.find("status"); st != nullptr && !st->is_null()) {
        // YAML 1.1 reads an unquoted False as a boolean.
        s.status = st->is_bool() && !st->as_bool() ? "False" : st->is_string() ? st->text() : "";
        if (s.status != "False" && s.status != "Unknown")
            f.ctx.add(f.at.child("status"), "Unsupported value: " + (st->is_string() ? field::go_quote(st->text())
                                                                                   : doc::to_json(*st)) +
                                                 ": supported values: \"False\", \"Unknown\"");
    }
    out = s;
}

void decode_add_cluster(const action_fields& f, action& out)
{
    f.only({"path", "cluster"});
    add_cluster_step s;
    const doc::value* inline_cluster = f.find("cluster");
    const bool has_path = f.find("path") != nullptr;
    if (has_path == (inline_cluster != nullptr))
        f.ctx.add(f.at, "needs exactly one of path (a Cluster file) or cluster (an inline Cluster object)");
    if (has_path)
        s.path = f.text("path");
    if (inline_cluster != nullptr && !model::is_cluster_object(*inline_cluster)) {
        f.ctx.add(f.at.child("cluster"), "not a Cluster object (apiVersion cluster.karmada.io/v1alpha1, kind Cluster)");
    } else if (inline_cluster != nullptr) {
        auto decoded = model::decode_cluster(*inline_cluster);
        for (const auto& e : decoded.errors)
            f.ctx.errors.push_back(
                {doc::locate(*inline_cluster, e.field), f.at.child("cluster").str() + ": " + e.str()});
        s.clusters.push_back(std::move(decoded.value));
    }
    out = std::move(s);
}

std::optional<model::resource_list> resources(const action_fields& f, std::string_view key)
{
    const doc::value* v = f.find(key);
    if (v == nullptr)
        return std::nullopt;
    field::error_list errs;
    auto list = model::read::resources(v, f.at.child(key), errs);
    f.ctx.add(errs);
    return list;
}

void decode_set_resources(const action_fields& f, action& out)
{
    f.only({"cluster", "allocatable", "allocated", "allocating"});
    set_resources_step s;
    s.cluster = f.cluster();
    s.allocatable = resources(f, "allocatable");
    s.allocated = resources(f, "allocated");
    s.allocating = resources(f, "allocating");
    if (!s.allocatable && !s.allocated && !s.allocating)
        f.ctx.add(f.at, "needs at least one of allocatable, allocated, allocating");
    out = std::move(s);
}

workload_ref workload(const action_fields& f, const doc::value* node, const field::path& at)
{
    field::error_list errs;
    auto text = model::read::string(node, at, errs);
    f.ctx.add(errs);
    if (!errs.empty())
        return {};
    if (text.empty()) {
        f.ctx.add(at, "Required value");
        return {};
    }
    auto ref = parse_workload_ref(text, node != nullptr ? node->pos() : f.node.pos());
    if (!ref) {
        f.ctx.add(at, ref.error().message);
        return {};
    }
    return *ref;
}

void decode_scale(const action_fields& f, action& out)
{
    f.only({"workload", "replicas"});
    scale_step s;
    s.workload = workload(f, f.find("workload"), f.at.child("workload"));
    const doc::value* r = f.find("replicas");
    field::error_list errs;
    const std::int64_t replicas = model::read::integer(r, f.at.child("replicas"), errs, -1);
    f.ctx.add(errs);
    if (r == nullptr)
        f.ctx.add(f.at.child("replicas"), "Required value");
    else if (errs.empty() && (replicas < 0 || replicas > std::numeric_limits<std::int32_t>::max()))
        f.ctx.add(f.at.child("replicas"), "Invalid value: " + field::go_int(replicas) +
                                              ": must be greater than or equal to 0 and fit in int32");
    else if (errs.empty())
        s.replicas = static_cast<std::int32_t>(replicas);
    out = std::move(s);
}

void decode_rebalance(const action_fields& f, action& out)
{
    f.only({"workloads"});
    rebalance_step s;
    field::error_list errs;
    const auto& items = model::read::items(f.find("workloads"), f.at.child("workloads"), errs);
    f.ctx.add(errs);
    if (errs.empty() && items.empty())
        f.ctx.add(f.at.child("workloads"), "Required value: a WorkloadRebalancer lists at least one workload");
    for (std::size_t i = 0; i < items.size(); ++i)
        s.workloads.push_back(workload(f, &items[i], f.at.child("workloads").index(i)));
    out = std::move(s);
}

void decode_delete_policy(const action_fields& f, action& out)
{
    f.only({"kind", "namespace", "name"});
    delete_policy_step d{f.text("kind"), {}, f.text("name"), f.node.pos()};
    if (!d.kind.empty() && d.kind != model::kind_propagation_policy && d.kind != model::kind_cluster_propagation_policy)
        f.ctx.add(f.at.child("kind"), "Unsupported value: " + field::go_quote(d.kind) +
                                          ": supported values: \"PropagationPolicy\", \"ClusterPropagationPolicy\"");
    if (d.kind == model::kind_propagation_policy)
        d.namespace_ = f.text("namespace");
    else if (f.find("namespace") != nullptr)
        f.ctx.add(f.at.child("namespace"), "Forbidden: a ClusterPropagationPolicy has no namespace");
    out = std::move(d);
}

void decode_relabel(const action_fields& f, action& out)
{
    f.only({"workload", "labels"});
    relabel_step r;
    r.workload = workload(f, f.find("workload"), f.at.child("workload"));
    const doc::value* labels = f.find("labels");
    if (labels == nullptr || !labels->is_mapping() || labels->members().empty()) {
        f.ctx.add(f.at.child("labels"), "Required value: a mapping of label keys to a value (set) or null (removed)");
    } else {
        for (const auto& [key, value] : labels->members()) {
            if (value.is_null())
                r.labels.emplace_back(key, std::nullopt);
            else if (value.is_string())
                r.labels.emplace_back(key, value.text());
            else
                f.ctx.add(f.at.child("labels").key(key), "Invalid value: a label value is a string, or null to remove it");
        }
    }
    out = std::move(r);
}

void decode_wait(const action_fields& f, action& out)
{
    f.only({"duration"});
    wait_step s;
    const doc::value* d = f.find("duration");
    s.text = d != nullptr && (d->is_string() || d->is_number()) ? d->text() : "";
    if (d == nullptr || s.text.empty()) {
        f.ctx.add(f.at.child("duration"), "Required value: a Go duration such as 300s, 5m, 1h30m");
    } else if (auto nanos = model::parse_go_duration(s.text); !nanos) {
        f.ctx.add(f.at.child("duration"), nanos.error().message);
    } else if (*nanos < 1'000'000'000) {
        f.ctx.add(f.at.child("duration"), "Invalid value: " + field::go_quote(s.text) + ": must be at least 1s");
    } else {
        s.seconds = *nanos / 1'000'000'000;
    }
    out = std::move(s);
}

void decode_action(const action_fields& f, std::string_view key, action& out)
{
    if (key == "taint" || key == "untaint")
        decode_taint(f, key == "untaint", out);
    else if (key == "clusterDown")
        decode_cluster_down(f, out);
    else if (key == "clusterUp" || key == "removeCluster") {
        f.only({"cluster"});
        if (key == "clusterUp")
            out = cluster_up_step{f.cluster()};
        else
            out = remove_cluster_step{f.cluster()};
    } else if (key == "addCluster")
        decode_add_cluster(f, out);
    else if (key == "setResources")
        decode_set_resources(f, out);
    else if (key == "scale")
        decode_scale(f, out);
    else if (key == "rebalance")
        decode_rebalance(f, out);
    else if (key == "applyPolicy") {
        f.only({"path"});
        out = apply_policy_step{f.text("path")};
    } else if (key == "deletePolicy")
        decode_delete_policy(f, out);
    else if (key == "relabel")
        decode_relabel(f, out);
    else
        decode_wait(f, out);
}

std::optional<step> decode_step(const context& ctx, const doc::value& node, std::size_t index)
{
    const auto at = field::path::root("steps").index(index);
    if (!node.is_mapping()) {
        ctx.add(at, "a step is a mapping with an optional name and one action (" + action_list() + ")");
        return std::nullopt;
    }
    step s;
    s.where = node.pos();
    s.index = index;
    const doc::value::member* action_member = nullptr;
    for (const auto& m : node.members()) {
        if (m.first == "name") {
            field::error_list errs;
            s.name = model::read::string(&m.second, at.child("name"), errs);
            ctx.add(errs);
        } else if (std::find(action_keys.begin(), action_keys.end(), m.first) == action_keys.end()) {
            ctx.add(at.child(m.first), "unknown action \"" + m.first + "\" (one of: " + action_list() + ")");
        } else if (action_member != nullptr) {
            ctx.add(at.child(m.first), "two actions in one step: " + action_member->first + " and " + m.first);
        } else {
            action_member = &m;
        }
    }
    if (action_member == nullptr) {
        ctx.add(at, "no action in this step (one of: " + action_list() + ")");
        return std::nullopt;
    }
    s.action_key = action_member->first;
    auto fat = at.child(s.action_key);
    if (!action_member->second.is_mapping()) {
        ctx.add(fat, "expected a mapping of the action's fields");
        return std::nullopt;
    }
    decode_action(action_fields{ctx, action_member->second, fat}, s.action_key, s.what);
    return s;
}

void decode_envelope(const context& ctx, const doc::value& root, scenario& s)
{
    if (auto v = root.string_at("apiVersion"); v != scenario_api_version)
        ctx.add(field::path::root("apiVersion"), "Unsupported value: " + field::go_quote(v) + ": supported values: \"" +
                                                     std::string(scenario_api_version) + "\"");
    if (auto k = root.string_at("kind"); k != kind_scenario)
        ctx.add(field::path::root("kind"),
                "Unsupported value: " + field::go_quote(k) + ": supported values: \"Scenario\"");
    field::error_list errs;
    if (const doc::value* meta = root.find("metadata"); meta != nullptr)
        s.name = model::read::string(meta->find("name"), field::path::root("metadata").child("name"), errs);
    s.description = model::read::string(root.find("description"), field::path::root("description"), errs);
    s.member_state = model::read::string(root.find("memberState"), field::path::root("memberState"), errs);
    ctx.add(errs);
}

} // namespace

std::string workload_ref::str() const
{
    return namespace_.empty() ? kind + "/" + name : kind + "/" + namespace_ + "/" + name;
}

result<workload_ref> parse_workload_ref(std::string_view text, position where)
{
    std::vector<std::string> parts;
    std::size_t start = 0;
    for (std::size_t slash; (slash = text.find('/', start)) != std::string_view::npos; start = slash + 1)
        parts.emplace_back(text.substr(start, slash - start));
    parts.emplace_back(text.substr(start));
    const bool empty_part = std::any_of(parts.begin(), parts.end(), [](const std::string& p) { return p.empty(); });
    if (parts.size() < 2 || parts.size() > 3 || empty_part)
        return failure{"workload " + field::go_quote(text) +
                           ": expected KIND/NAMESPACE/NAME, or KIND/NAME for a cluster-scoped workload",
                       where};
    if (parts.size() == 2)
        return workload_ref{parts[0], "", parts[1], where};
    return workload_ref{parts[0], parts[1], parts[2], where};
}

scenario_decoding decode_scenario(const doc::value& root)
{
    scenario_decoding out;
    const context ctx{root, out.errors};
    out.value.where = root.pos();
    if (!root.is_mapping()) {
        out.errors.push_back({root.pos(), "a scenario is a mapping (apiVersion, kind: Scenario, steps)"});
        return out;
    }
    decode_envelope(ctx, root, out.value);
    const auto at = field::path::root("steps");
    field::error_list errs;
    const auto& steps = model::read::items(root.find("steps"), at, errs);
    ctx.add(errs);
    if (errs.empty() && steps.empty())
        ctx.add(at, "Required value: a scenario has at least one step");
    for (std::size_t i = 0; i < steps.size(); ++i)
        if (auto s = decode_step(ctx, steps[i], i))
            out.value.steps.push_back(std::move(*s));
    return out;
}

} // namespace kpw::simulate
