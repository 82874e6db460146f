// SPDX-License-Identifier: Apache-2.0
#include "scheduling/binding_pairing.hpp"

#include <algorithm>
#include <cctype>

namespace kpw::scheduling {

std::string generate_binding_name(std::string_view kind, std::string_view name)
{
    std::string out(name);
    std::replace(out.begin(), out.end(), ':', '.');
    out.append("-").append(kind);
    std::transform(out.begin(), out.end(), out.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return out;
}

binding_key key_of(const model::binding& b) { return {b.kind, b.namespace_, b.name}; }

binding_key detector_binding_key(const model::workload& w)
{
    return {std::string(w.namespace_.empty() ? model::kind_cluster_resource_binding : model::kind_resource_binding),
            w.namespace_, generate_binding_name(w.kind, w.name)};
}

bool is_detector_binding_of(const model::binding& b, const model::workload& w)
{
    return key_of(b) == detector_binding_key(w);
}

std::string live_template_uid(const model::workload& w, const model::binding* recorded)
{
    if (!w.uid.empty() || recorded == nullptr)
        return w.uid;
    return !recorded->resource.uid.empty() ? recorded->resource.uid : recorded->controller_owner_uid.value_or("");
}

bool detector_may_update(const model::binding& b, std::string_view template_uid)
{
    return !b.controller_owner_uid || (!template_uid.empty() && template_uid == *b.controller_owner_uid);
}

} // namespace kpw::scheduling
