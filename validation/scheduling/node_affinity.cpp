// SPDX-License-Identifier: Apache-2.0
// RequiredNodeAffinity (k8s.io/component-helpers/scheduling/corev1/nodeaffinity) and the estimator's
// toleration filter, over model::node.
#include "scheduling/node_affinity.hpp"

#include <algorithm>
#include <charconv>

#include "rules/label_key.hpp"
#include "scheduling/filter.hpp"

namespace kpw::scheduling {

namespace {

// strconv.ParseInt(s, 10, 64): an optional sign, then decimal digits only, in range.
bool parse_go_int(const std::string& s, std::int64_t& out)
{
    std::string_view v = s;
    bool negative = false;
    if (!v.empty() && (v.front() == '+' || v.front() == '-')) {
        negative = v.front() == '-';
        v.remove_prefix(1);
    }
    if (v.empty() || !std::all_of(v.begin(), v.end(), [](char c) { return c >= '0' && c <= '9'; }))
        return false;
    // Parse with the sign so that -9223372036854775808 fits.
    std::string text;
    if (negative)
        text.push_back('-');
    text.append(v);
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
    return ec == std::errc() && end == text.data() + text.size();
}

bool listed(const std::vector<std::string>& values, const std::string& v)
{
    return std::find(values.begin(), values.end(), v) != values.end();
}

// labels.NewRequirement's validation for a node selector requirement (nodeSelectorRequirementsAsSelector).
bool label_requirement_parses(const model::selector_requirement& r)
{
    static constexpr std::string_view ops[] = {"In", "NotIn", "Exists", "DoesNotExist", "Gt", "Lt"};
    if (std::find(std::begin(ops), std::end(ops), r.op) == std::end(ops))
        return false;
    if (!rules::qualified_name_errors(r.key).empty())
        return false;
    const auto& vals = r.values;
    if ((r.op == "In" || r.op == "NotIn") && vals.empty())
        return false;
    if ((r.op == "Exists" || r.op == "DoesNotExist") && !vals.empty())
        return false;
    if (r.op == "Gt" || r.op == "Lt") {
        std::int64_t ignored = 0;
        if (vals.size() != 1 || !parse_go_int(vals[0], ignored))
            return false;
    }
    return std::all_of(vals.begin(), vals.end(), [](const std::string& v) { return rules::label_value_errors(v).empty(); });
}

// labels.Requirement.Matches.
bool label_requirement_matches(const model::selector_requirement& r, const model::label_map& labels)
{
    auto it = labels.find(r.key);
    bool has = it != labels.end();
    if (r.op == "In")
        return has && listed(r.values, it->second);
    if (r.op == "NotIn")
        return !has || !listed(r.values, it->second);
    if (r.op == "Exists")
        return has;
    if (r.op == "DoesNotExist")
        return !has;
    std::int64_t have = 0, want = 0;
    if (!has || !parse_go_int(it->second, have) || !parse_go_int(r.values[0], want))
        return false;
    return r.op == "Gt" ? have > want : have < want;
}

// nodeSelectorRequirementsAsFieldSelector: In/NotIn with exactly one value; the node's field set holds
// metadata.name when the name is non-empty.
bool field_requirement_parses(const model::selector_requirement& r)
{
    return (r.op == "In" || r.op == "NotIn") && r.values.size() == 1;
}

bool field_requirement_matches(const model::selector_requirement& r, const model::node& node)
{
    // fields.Set.Get of an absent key is "": OneTermEqualSelector / OneTermNotEqualSelector compare to that.
    const std::string have = r.key == "metadata.name" ? node.name : std::string();
    return r.op == "In" ? have == r.values[0] : have != r.values[0];
}

bool term_matches(const model::node_selector_term& t, const model::node& node)
{
    if (!std::all_of(t.match_expressions.begin(), t.match_expressions.end(), label_requirement_parses) ||
        !std::all_of(t.match_fields.begin(), t.match_fields.end(), field_requirement_parses))
        return false; // parseErrs: the term is skipped
    for (const auto& r : t.match_expressions)
        if (!label_requirement_matches(r, node.labels))
            return false;
    // `len(nodeFields) > 0`: a node without a name passes every matchFields.
    if (!t.match_fields.empty() && !node.name.empty())
        for (const auto& r : t.match_fields)
            if (!field_requirement_matches(r, node))
                return false;
    return true;
}

} // namespace

bool node_affinity_matches(const model::node_claim& claim, const model::node& node)
{
    for (const auto& [key, value] : claim.node_selector) {
        auto it = node.labels.find(key);
        if (it == node.labels.end() || it->second != value)
            return false;
    }
    if (!claim.hard_node_affinity)
        return true;
    for (const auto& term : *claim.hard_node_affinity) {
        if (term.match_expressions.empty() && term.match_fields.empty())
            continue; // isEmptyNodeSelectorTerm: dropped
        if (term_matches(term, node))
            return true;
    }
    return false;
}

std::string untolerated(std::span<const model::toleration> tolerations, const model::node& node)
{
    auto tolerated = [&](const model::taint& taint) {
        return std::any_of(tolerations.begin(), tolerations.end(), [&](const model::toleration& t) { return tolerates(t, taint); });
    };
    if (node.unschedulable && !tolerated({"node.kubernetes.io/unschedulable", "", "NoSchedule"}))
        return "unschedulable";
    for (const auto& taint : node.taints)
        if ((taint.effect == "NoSchedule" || taint.effect == "NoExecute") && !tolerated(taint))
            return "taint " + taint_string(taint);
    return "";
}

} // namespace kpw::scheduling
