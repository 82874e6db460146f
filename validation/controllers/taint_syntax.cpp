// SPDX-License-Identifier: Apache-2.0
// Taint argument parsing and applying, as karmadactl taint and karmada-aggregated-apiserver do it.
#include "controllers/taint_syntax.hpp"

#include "field/error.hpp"
#include "rules/label_key.hpp"

namespace kpw::controllers {

namespace {

std::vector<std::string_view> split(std::string_view s, char sep)
{
    std::vector<std::string_view> out;
    std::size_t start = 0;
    while (true) {
        const std::size_t at = s.find(sep, start);
        out.push_back(s.substr(start, at == std::string_view::npos ? std::string_view::npos : at - start));
        if (at == std::string_view::npos)
            return out;
        start = at + 1;
    }
}

std::string joined(const std::vector<std::string>& errs)
{
    std::string out;
    for (const auto& e : errs)
        out.append(out.empty() ? "" : "; ").append(e);
    return out;
}

bool known_effect(std::string_view e) { return e == "NoSchedule" || e == "PreferNoSchedule" || e == "NoExecute"; }

// karmada lifted parseTaint: '<key>=<value>:<effect>', '<key>:<effect>' or '<key>'.
result<model::taint> parse_taint(std::string_view st)
{
    const std::string invalid = "invalid taint spec: " + std::string(st);
    model::taint t;
    const auto parts = split(st, ':');
    if (parts.size() > 2)
        return failure{invalid, {}};
    std::string_view key = parts[0];
    if (parts.size() == 2) {
        if (!known_effect(parts[1]))
            return failure{"invalid taint effect: " + std::string(parts[1]) + ", unsupported taint effect", {}};
        t.effect = parts[1];
        const auto kv = split(parts[0], '=');
        if (kv.size() > 2)
            return failure{invalid, {}};
        key = kv[0];
        if (kv.size() == 2) {
            if (auto errs = rules::label_value_errors(kv[1]); !errs.empty())
                return failure{invalid + ", " + joined(errs), {}};
            t.value = kv[1];
        }
    }
    if (auto errs = rules::qualified_name_errors(key); !errs.empty())
        return failure{invalid + ", " + joined(errs), {}};
    t.key = key;
    return t;
}

bool same_key_effect(const model::taint& a, const model::taint& b) { return a.key == b.key && a.effect == b.effect; }

std::vector<model::taint> without(const std::vector<model::taint>& taints, const model::taint& removed)
{
    std::vector<model::taint> out;
    for (const auto& t : taints)
        if (t.key != removed.key || (!removed.effect.empty() && t.effect != removed.effect))
            out.push_back(t);
    return out;
}

} // namespace

result<taint_change> parse_taint_spec(std::string_view spec)
{
    taint_change change;
    change.remove = spec.ends_with('-');
    if (change.remove)
        spec.remove_suffix(1);
    auto parsed = parse_taint(spec);
    if (!parsed)
        return parsed.error();
    change.taint = std::move(*parsed);
    if (!change.remove && change.taint.effect.empty())
        return failure{"invalid taint spec: " + std::string(spec), {}};
    if (change.remove)
        change.taint.value.clear(); // ParseTaints keeps only key and effect of a removal
    return change;
}

std::string taint_spec_string(const model::taint& t)
{
    if (t.effect.empty())
        return t.value.empty() ? t.key : t.key + "=" + t.value + ":";
    return t.value.empty() ? t.key + ":" + t.effect : t.key + "=" + t.value + ":" + t.effect;
}

result<std::vector<model::taint>> apply_taint_change(const model::cluster& cluster, const taint_change& change,
                                                    model::timestamp now)
{
    if (change.remove) {
        auto kept = without(cluster.taints, change.taint);
        if (kept.size() == cluster.taints.size())
            return failure{"taint \"" + taint_spec_string(change.taint) + "\" not found", {}};
        return kept;
    }
    for (const auto& t : cluster.taints)
        if (same_key_effect(t, change.taint))
            return failure{"cluster " + cluster.name + " already has " + t.key +
                               " taint(s) with same effect(s) and --overwrite is false",
                           {}};
    if (change.taint.effect != "NoSchedule" && change.taint.effect != "NoExecute") {
        auto at = field::path::root("spec").child("taints").index(0).child("effect");
        return failure{
            field::not_supported(at, field::go_quote(change.taint.effect), {"NoSchedule", "NoExecute"}).str(), {}};
    }
    std::vector<model::taint> out{change.taint};
    out.insert(out.end(), cluster.taints.begin(), cluster.taints.end());
    if (out.front().effect == "NoExecute" && !out.front().time_added)
        out.front().time_added = now;
    return out;
}

} // namespace kpw::controllers
