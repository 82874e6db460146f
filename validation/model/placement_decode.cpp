// SPDX-License-Identifier: Apache-2.0
// Embedded policy pieces: wrapped into a PropagationPolicy, decoded, and the Go error mapped back to a path.
#include "model/placement_decode.hpp"

#include <span>
#include <string>
#include <vector>

#include "model/decode.hpp"

namespace kpw::model {

namespace {

// Whether a node's JSON kind could decode into the Go type encoding/json names.
bool fits(const doc::value& v, std::string_view go_type)
{
    if (go_type == "string")
        return v.is_string();
    if (go_type == "bool")
        return v.is_bool();
    if (go_type.starts_with("int") || go_type.starts_with("uint"))
        return doc::json_int64(v).has_value();
    if (go_type.starts_with("[]"))
        return v.is_sequence();
    return v.is_mapping();
}

struct found {
    const doc::value* node = nullptr;
    field::path at;
};

// The node named by Go's index-free dotted path: sequences are searched item by item; the first node
// that does not fit `go_type` wins, else the first one found.
void walk(const doc::value& v, std::span<const std::string> keys, const field::path& at, std::string_view go_type,
          found& first, found& misfit)
{
    if (misfit.node != nullptr)
        return;
    if (keys.empty()) {
        if (first.node == nullptr)
            first = {&v, at};
        if (!fits(v, go_type))
            misfit = {&v, at};
        return;
    }
    if (v.is_sequence()) {
        for (std::size_t i = 0; i < v.items().size(); ++i)
            walk(v.items()[i], keys, at.index(i), go_type, first, misfit);
        return;
    }
    if (const doc::value* child = v.find(keys.front()))
        walk(*child, keys.subspan(1), at.child(keys.front()), go_type, first, misfit);
}

std::vector<std::string> split_dotted(std::string_view s)
{
    std::vector<std::string> out;
    std::size_t start = 0;
    while (start <= s.size()) {
        const std::size_t dot = std::min(s.find('.', start), s.size());
        out.emplace_back(s.substr(start, dot - start));
        start = dot + 1;
    }
    return out;
}

// "json: cannot unmarshal number into Go struct field S.spec.placement.x.y of type T" -> an error at
// the node below `node` that the path after the wrapper's `depth` segments names.
void report(std::string_view go_error, std::size_t depth, const doc::value& node, const field::path& at,
            field::error_list& errors)
{
    constexpr std::string_view field_marker = " into Go struct field ", type_marker = " of type ";
    const std::size_t f = go_error.find(field_marker);
    const std::size_t t = go_error.rfind(type_marker);
    if (f == std::string_view::npos || t == std::string_view::npos || t < f) {
        errors.push_back(field::type_invalid(at, doc::to_json(node), std::string(go_error)));
        return;
    }
    std::string_view dotted = go_error.substr(f + field_marker.size(), t - f - field_marker.size());
    dotted.remove_prefix(std::min(dotted.size(), dotted.find('.') + 1)); // the struct name
    const std::string go_type(go_error.substr(t + type_marker.size()));
    auto keys = split_dotted(dotted);
    // An embedded struct's Go field name (clusterAffinities.ClusterAffinity.labelSelector) is no JSON key.
    std::erase_if(keys, [](const std::string& k) { return !k.empty() && k[0] >= 'A' && k[0] <= 'Z'; });
    keys.erase(keys.begin(), keys.begin() + static_cast<std::ptrdiff_t>(std::min(depth, keys.size())));
    found first, misfit;
    walk(node, keys, at, go_type, first, misfit);
    const found& hit = misfit.node != nullptr ? misfit : first;
    const doc::value& bad = hit.node != nullptr ? *hit.node : node;
    errors.push_back(field::type_invalid(hit.node != nullptr ? hit.at : at,
                                         bad.is_string() ? field::go_quote(bad.text()) : doc::to_json(bad),
                                         "expected " + go_type));
}

// A PropagationPolicy whose spec holds `node` under the `keys` chain (spec.<keys...>), decoded.
policy decode_wrapped(const doc::value& node, std::initializer_list<std::string_view> keys, const field::path& at,
                      field::error_list& errors)
{
    doc::value inner = node;
    for (auto k = std::rbegin(keys); k != std::rend(keys); ++k) {
        doc::value outer = doc::value::mapping();
        outer.add(std::string(*k), std::move(inner));
        inner = std::move(outer);
    }
    doc::value wrapper = doc::value::mapping();
    wrapper.add("kind", doc::value::string(std::string(kind_propagation_policy)));
    wrapper.add("spec", std::move(inner));
    std::string go_error;
    policy p = decode(wrapper, &go_error, empty_collections::kept); // read as written: `[]` is not absent
    if (!go_error.empty())
        report(go_error, keys.size() + 1, node, at, errors);
    return p;
}

bool present(const doc::value* node) { return node != nullptr && !node->is_null(); }

} // namespace

std::optional<placement> decode_placement(const doc::value* node, const field::path& at, field::error_list& errors)
{
    if (!present(node))
        return std::nullopt;
    return decode_wrapped(*node, {"placement"}, at, errors).spec.placement;
}

std::optional<cluster_affinity> decode_cluster_affinity(const doc::value* node, const field::path& at,
                                                        field::error_list& errors)
{
    if (!present(node))
        return std::nullopt;
    auto p = decode_wrapped(*node, {"placement", "clusterAffinity"}, at, errors).spec.placement;
    return p.cluster_affinity.value_or(cluster_affinity{});
}

std::optional<failover_behavior> decode_failover(const doc::value* node, const field::path& at,
                                                 field::error_list& errors)
{
    if (!present(node))
        return std::nullopt;
    return decode_wrapped(*node, {"failover"}, at, errors).spec.failover.value_or(failover_behavior{});
}

} // namespace kpw::model
