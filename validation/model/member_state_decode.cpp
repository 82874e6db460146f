// SPDX-License-Identifier: Apache-2.0
// Member state decoding: Node (labels, unschedulable, taints, allocatable) and Pod (uid, nodeName, phase,
// requests as karmada's lifted NodeInfo sums them).
#include "model/member_state_decode.hpp"

#include <algorithm>
#include <map>

#include "base/go_int.hpp"
#include "doc/locate.hpp"
#include "model/cluster_decode.hpp"
#include "model/pod_requests.hpp"

namespace kpw::model {

namespace {

using unit_map = std::map<std::string, std::int64_t, std::less<>>;

resource_units to_units(const unit_map& m)
{
    return {m.begin(), m.end()};
}

bool read_bool(const doc::value* node, const field::path& at, field::error_list& errors)
{
    if (node == nullptr || node->is_null())
        return false;
    if (!node->is_bool()) {
        errors.push_back(field::type_invalid(at, doc::to_json(*node), "expected boolean"));
        return false;
    }
    return node->as_bool();
}

// Which object the issues name, and where they point.
struct object_ref {
    const doc::value& object;
    std::string label; // "Node worker-1", "Pod default/web-0"
};

void report(const object_ref& ref, const field::error_list& errors, std::vector<member_issue>& issues)
{
    for (const auto& e : errors)
        issues.push_back({doc::locate(ref.object, e.field), ref.label + ": " + e.str()});
}

// metadata.<key> of an object, a string.
std::string meta_string(const doc::value& object, std::string_view key, field::error_list& errors)
{
    const doc::value* meta = object.find("metadata");
    return read::string(meta ? meta->find(key) : nullptr, field::path::root("metadata").child(key), errors);
}

void add_node(member_state& out, const doc::value& object, std::vector<member_issue>& issues)
{
    field::error_list errors;
    node n;
    n.where = object.pos();
    n.name = meta_string(object, "name", errors);
    n.labels = read::string_map(object.find_path({"metadata", "labels"}), field::path::root("metadata").child("labels"), errors);
    const doc::value* spec = object.find("spec");
    auto sp = field::path::root("spec");
    n.unschedulable = read_bool(spec ? spec->find("unschedulable") : nullptr, sp.child("unschedulable"), errors);
    n.taints = read::taints(spec ? spec->find("taints") : nullptr, sp.child("taints"), errors);
    auto ap = field::path::root("status").child("allocatable");
    unit_map allocatable;
    for (const auto& [name, q] : read::resources(object.find_path({"status", "allocatable"}), ap, errors))
        if (karmada_keeps(name))
            allocatable[name] = karmada_units(name, q);
    n.allocatable = to_units(allocatable);
    if (n.name.empty())
        errors.push_back(field::required(field::path::root("metadata").child("name"), "a Node needs a name (the pods' spec.nodeName)"));
    report({object, "Node " + n.name}, errors, issues);
    out.nodes.push_back(std::move(n));
}

// One container's spec requests (no limits fallback: the stored pod already has it).
void each_request(const doc::value& container, const field::path& at, field::error_list& errors,
                  const std::function<void(const std::string&, std::int64_t)>& take)
{
    const doc::value* resources = container.find("resources");
    auto rp = at.child("resources").child("requests");
    for (const auto& [name, q] : read::resources(resources ? resources->find("requests") : nullptr, rp, errors))
        if (karmada_keeps(name) && name != "pods") // NodeInfo.Requested has no pod count
            take(name, karmada_units(name, q));
}

// karmada lifted scheduler/framework/types.go calculateResource.
resource_units pod_requests(const doc::value* spec, const field::path& at, field::error_list& errors)
{
    unit_map total;
    if (spec == nullptr || !spec->is_mapping())
        return {};
    read::structs(spec->find("containers"), at.child("containers"), errors, [&](const doc::value& c, const field::path& p) {
        each_request(c, p, errors, [&](const std::string& name, std::int64_t v) { total[name] = go::add(total[name], v); });
    });
    read::structs(spec->find("initContainers"), at.child("initContainers"), errors,
                  [&](const doc::value& c, const field::path& p) {
                      each_request(c, p, errors, [&](const std::string& name, std::int64_t v) {
                          total[name] = std::max(total[name], v); // Resource.SetMaxResource
                      });
                  });
    for (const auto& [name, q] : read::resources(spec->find("overhead"), at.child("overhead"), errors))
        if (karmada_keeps(name) && name != "pods")
            total[name] = go::add(total[name], karmada_units(name, q));
    return to_units(total);
}

void add_pod(member_state& out, const doc::value& object, std::vector<member_issue>& issues)
{
    field::error_list errors;
    pod p;
    p.where = object.pos();
    p.namespace_ = meta_string(object, "namespace", errors);
    p.name = meta_string(object, "name", errors);
    p.uid = meta_string(object, "uid", errors);
    const doc::value* spec = object.find("spec");
    auto sp = field::path::root("spec");
    p.node_name = read::string(spec ? spec->find("nodeName") : nullptr, sp.child("nodeName"), errors);
    p.phase = read::string(object.find_path({"status", "phase"}), field::path::root("status").child("phase"), errors);
    p.requests = pod_requests(spec, sp, errors);
    // The estimator's cache keys pods by uid and refuses one without (GetPodKey): such a pod would count
    // for nothing, which is never what an export means. kubectl always prints the uid.
    if (p.uid.empty())
        errors.push_back(field::required(field::path::root("metadata").child("uid"),
                                         "karmada-scheduler-estimator's cache keys pods by uid"));
    std::string label = "Pod " + (p.namespace_.empty() ? p.name : p.namespace_ + "/" + p.name);
    report({object, label}, errors, issues);
    out.pods.push_back(std::move(p));
}

void add_one(member_state& out, const doc::value& object, std::vector<member_issue>& issues)
{
    if (!object.is_mapping()) {
        issues.push_back({object.pos(), "expected a Node or Pod object, got " + doc::to_json(object)});
        return;
    }
    auto kind = object.string_at("kind");
    auto api_version = object.string_at("apiVersion");
    if (kind == "Node" && api_version == "v1")
        return add_node(out, object, issues);
    if (kind == "Pod" && api_version == "v1")
        return add_pod(out, object, issues);
    std::string what = api_version.empty() && kind.empty() ? std::string("an object without apiVersion/kind")
                                                           : std::string(api_version) + " " + std::string(kind);
    issues.push_back({object.pos(), "member state holds v1 Node and Pod objects only, not " + what +
                                        " (karmada-scheduler-estimator reads nodes and pods; ResourceQuotas only "
                                        "behind its ResourceQuotaEstimate gate, off by default, not modelled)"});
}

} // namespace

void add_member_objects(member_state& out, const doc::value& root, std::vector<member_issue>& issues)
{
    if (const doc::value* items = doc::list_items(root)) {
        for (const auto& item : items->items())
            add_one(out, item, issues);
        return;
    }
    if (root.is_null())
        return; // an empty document
    add_one(out, root, issues);
}

void seal_member(member_state& state, std::vector<member_issue>& issues)
{
    std::stable_sort(state.nodes.begin(), state.nodes.end(), [](const node& a, const node& b) { return a.name < b.name; });
    for (std::size_t i = 1; i < state.nodes.size(); ++i)
        if (!state.nodes[i].name.empty() && state.nodes[i].name == state.nodes[i - 1].name)
            issues.push_back({state.nodes[i].where, "Node " + state.nodes[i].name + " is listed twice in member " +
                                                        state.cluster + " (a cluster holds one Node of a name)"});
    std::vector<const pod*> by_uid;
    for (const auto& p : state.pods)
        if (!p.uid.empty())
            by_uid.push_back(&p);
    std::stable_sort(by_uid.begin(), by_uid.end(), [](const pod* a, const pod* b) { return a->uid < b->uid; });
    for (std::size_t i = 1; i < by_uid.size(); ++i)
        if (by_uid[i]->uid == by_uid[i - 1]->uid)
            issues.push_back({by_uid[i]->where, "Pod " + by_uid[i]->namespace_ + "/" + by_uid[i]->name + " has uid " +
                                                    by_uid[i]->uid + " like " + by_uid[i - 1]->namespace_ + "/" +
                                                    by_uid[i - 1]->name + " (uids are unique in a cluster)"});
}

const member_state* member_states::find(std::string_view cluster) const
{
    auto it = std::lower_bound(members.begin(), members.end(), cluster,
                               [](const member_state& m, std::string_view name) { return m.cluster < name; });
    return it != members.end() && it->cluster == cluster ? &*it : nullptr;
}

} // namespace kpw::model
