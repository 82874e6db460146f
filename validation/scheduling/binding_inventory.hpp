// SPDX-License-Identifier: Apache-2.0
// Loading ResourceBindings / ClusterResourceBindings from documents, one per object.
#pragma once

#include <span>
#include <string_view>
#include <vector>

#include "doc/value.hpp"
#include "model/binding.hpp"
#include "scheduling/inventory.hpp"

namespace kpw::scheduling {

class binding_inventory {
public:
    // Appends the bindings of one document: a binding, a List (kind ending in "List") of them, as
    // `kubectl get rb -A -o yaml` prints. Objects of other kinds are counted in ignored(). Each decode
    // error becomes an issue at the offending node ("binding default/nginx-deployment: spec.clusters[0].replicas:
    // Invalid value: -1: ..."); a binding of another version, or one without a name, is not kept.
    void add(const doc::value& document, std::vector<inventory_issue>& issues);

    // Keeps one binding per object (kind, namespace, name): the later document of the same object
    // replaces the earlier, as a second kubectl apply does. Then sorts by workload (spec.resource
    // apiVersion, kind, namespace, name), input order kept among the bindings of one workload: two
    // bindings may refer to one workload (Karmada pairs a workload with the binding named after it).
    // Adds no issue today; the parameter keeps every inventory's seal alike.
    void seal(std::vector<inventory_issue>& issues);

    std::span<const model::binding> bindings() const { return bindings_; }
    std::vector<model::binding>& mutable_bindings() { return bindings_; }
    // After a change of some binding's spec.resource through mutable_bindings(): find_for's order again.
    void records_changed();

    // The first binding (in input order) whose spec.resource is the workload (after seal()); nullptr when
    // there is none. It is the one whose claim and uid the live template carries.
    const model::binding* find_for(std::string_view api_version, std::string_view kind, std::string_view namespace_,
                                   std::string_view name) const;
    std::size_t size() const { return bindings_.size(); }
    std::size_t ignored() const { return ignored_; }

private:
    std::vector<model::binding> bindings_;
    std::size_t ignored_ = 0;
};

} // namespace kpw::scheduling
