// SPDX-License-Identifier: Apache-2.0
// Cluster affinity rules: field selectors (FS/F1), affinity terms (A1-A3) and their overflow tiers (O1-O4).
#include "rules/rules.hpp"

#include <unordered_set>

#include "model/encode.hpp"
#include "rules/label_key.hpp"

namespace kpw::rules {
namespace {

// A term's inline affinity selects nothing by itself (O1): no selector object, no names, no exclusions.
bool is_empty_affinity(const model::cluster_affinity& a)
{
    return !a.label_selector && !a.field_selector && a.cluster_names.empty() && a.exclude.empty();
}

void check_field_selector(const std::optional<model::field_selector>& s, const field::path& at,
                          field::error_list& errs)
{
    if (!s)
        return;
    if (auto msg = field_selector_error(*s))
        errs.push_back(field::invalid(at, model::go_json(*s), std::move(*msg)));
}

// O1-O4 for one term. karmada: pkg/util/validation/validation.go validateOverflowAffinities
void validate_overflow_tiers(const model::cluster_affinity_term& term, const field::path& at,
                             field::error_list& errs)
{
    const auto& tiers = term.overflow_affinities;
    if (!tiers.non_nil())
        return;
    const field::path tiers_path = at.child("overflowAffinities");
    if (is_empty_affinity(term.cluster_affinity))
        errs.push_back(field::invalid(tiers_path, model::go_json(tiers),
                                      "overflowAffinities can only be used together with the inline ClusterAffinity"));
    // Names are unique per term only; a repeat stays "seen", so every later repeat fires too.
    std::unordered_set<std::string_view> seen{term.affinity_name};
    for (std::size_t j = 0; j < tiers.size(); ++j) {
        const field::path tier = tiers_path.index(j);
        const field::path name = tier.child("affinityName");
        validate_label_key(tiers[j].affinity_name, name, errs);
        if (!seen.insert(tiers[j].affinity_name).second)
            errs.push_back(field::invalid(name, field::go_quote(tiers[j].affinity_name),
                                          "overflow affinity name must be unique and must not duplicate the primary "
                                          "group's affinityName"));
        check_field_selector(tiers[j].cluster_affinity.field_selector, tier.child("fieldSelector"), errs);
    }
}

} // namespace

// karmada: pkg/util/validation/validation.go ValidateFieldSelector (stops at the first bad expression)
std::optional<std::string> field_selector_error(const model::field_selector& s)
{
    for (const auto& e : s.match_expressions) {
        if (e.key != "provider" && e.key != "region" && e.key != "zone")
            return "unsupported key " + field::go_quote(e.key) + ", must be provider, region, or zone";
        if (e.op != "In" && e.op != "NotIn")
            return "unsupported operator " + field::go_quote(e.op) + ", must be In or NotIn";
    }
    return std::nullopt;
}

// karmada: pkg/util/validation/validation.go ValidateClusterAffinity
void validate_cluster_affinity(const model::cluster_affinity& a, const field::path& at, field::error_list& errs)
{
    check_field_selector(a.field_selector, at.child("fieldSelector"), errs);
}

// karmada: pkg/util/validation/validation.go ValidateClusterAffinities
void validate_cluster_affinities(const std::vector<model::cluster_affinity_term>& terms, const field::path& at,
                                 field::error_list& errs, settings::karmada_release release)
{
    const auto wording = name_wording(release);
    std::unordered_set<std::string_view> names;
    bool repeated = false;
    for (std::size_t i = 0; i < terms.size(); ++i) {
        const auto& term = terms[i];
        const field::path term_path = at.index(i);
        const field::path name_path = term_path.child("affinityName");
        // A1: upstream reports the name at the term's path, without ".affinityName"; the position is the name's.
        const std::size_t first_a1 = errs.size();
        validate_label_key(term.affinity_name, term_path, errs, wording);
        for (std::size_t k = first_a1; k < errs.size(); ++k)
            errs[k] = field::located(std::move(errs[k]), name_path);
        // Reported on the whole list, so every repeat renders identically and Karmada's aggregated denial
        // shows it once: reported once here too, positioned at the first repeated name (the one to
        // rename). Once per repeat would also be quadratic: n copies of the list's JSON (a 3 MiB policy
        // of repeated names would need terabytes).
        if (!names.insert(term.affinity_name).second && !repeated) {
            repeated = true;
            errs.push_back(field::located(field::invalid(at, model::go_json(terms),
                                                         "each affinity term in a policy must have a unique name"),
                                          name_path));
        }
        check_field_selector(term.cluster_affinity.field_selector, term_path.child("fieldSelector"), errs);
        validate_overflow_tiers(term, term_path, errs);
    }
}

} // namespace kpw::rules
