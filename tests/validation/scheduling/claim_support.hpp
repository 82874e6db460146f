// SPDX-License-Identifier: Apache-2.0
// Policies and workloads for the claim tests: a Deployment "web" and policies selecting it.
#pragma once

#include <deque>
#include <string>

#include "fixtures.hpp"
#include "scheduling/claim.hpp"

namespace kpw::scheduling::test {

inline model::resource_selector select_web(std::string name = "web")
{
    return {"apps/v1", "Deployment", {}, std::move(name), {}};
}

inline model::resource_selector select_labels(std::string key, std::string value)
{
    return {"apps/v1", "Deployment", {}, {}, model::label_selector{{{std::move(key), std::move(value)}}, {}}};
}

inline model::resource_selector select_all() { return {"apps/v1", "Deployment", {}, {}, {}}; }

// Owns the specs the views point at (a deque: adding one keeps the others in place).
struct policy_set {
    std::deque<model::propagation_spec> specs;
    std::vector<policy_view> views;
    std::deque<std::string> names;

    model::propagation_spec& add(std::string name, model::resource_selector s,
                                 std::optional<std::int32_t> priority = {}, bool cluster = false)
    {
        auto& spec = specs.emplace_back();
        spec.resource_selectors = {std::move(s)};
        spec.priority = priority;
        const std::string& n = names.emplace_back(std::move(name));
        views.push_back({&spec, cluster ? std::string_view() : std::string_view("default"), n, cluster});
        return spec;
    }
};

inline model::workload web_workload()
{
    auto w = deployment(3);
    w.labels = {{"app", "web"}};
    return w;
}

// The claim keys Karmada writes on a template claimed by PropagationPolicy default/<name>.
inline void claim_by_pp(model::workload& w, const std::string& name)
{
    w.labels[std::string(model::pp_permanent_id_label)] = "0b7c-uuid";
    w.annotations[std::string(model::pp_namespace_annotation)] = "default";
    w.annotations[std::string(model::pp_name_annotation)] = name;
}

inline void claim_by_cpp(model::workload& w, const std::string& name)
{
    w.labels[std::string(model::cpp_permanent_id_label)] = "9f1e-uuid";
    w.annotations[std::string(model::cpp_name_annotation)] = name;
}

} // namespace kpw::scheduling::test
