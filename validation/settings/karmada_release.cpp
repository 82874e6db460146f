// SPDX-License-Identifier: Apache-2.0
#include "settings/karmada_release.hpp"

#include <array>
#include <charconv>
#include <optional>

namespace kpw::settings {
namespace {

constexpr std::array releases{karmada_release::v1_16_0, karmada_release::v1_17_1, karmada_release::v1_18_2};

// "v1.17.1" -> {1, 17}; nullopt unless it is [v]MAJOR.MINOR[.PATCH] with decimal numbers.
struct minor_version {
    int major = 0, minor = 0;
    friend bool operator==(const minor_version&, const minor_version&) = default;
};

// A version number as semver and Go's module versions write it: no leading zero ("v1.018.2" names no
// Karmada release; the fuzz target karmada_release found it answered as v1.18.2).
bool number(std::string_view text, int& out)
{
    if (text.empty() || text.size() > 4 || (text.size() > 1 && text.front() == '0'))
        return false;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
    return ec == std::errc() && end == text.data() + text.size();
}

std::optional<minor_version> parse_minor(std::string_view text)
{
    if (text.starts_with('v'))
        text.remove_prefix(1);
    const auto dot = text.find('.');
    if (dot == std::string_view::npos)
        return std::nullopt;
    const auto second = text.find('.', dot + 1);
    minor_version v;
    int patch = 0;
    if (!number(text.substr(0, dot), v.major) ||
        !number(text.substr(dot + 1, second == std::string_view::npos ? std::string_view::npos : second - dot - 1),
                v.minor) ||
        (second != std::string_view::npos && !number(text.substr(second + 1), patch)))
        return std::nullopt;
    return v;
}

minor_version minor_of(karmada_release r)
{
    return *parse_minor(release_name(r));
}

std::string supported_list()
{
    std::string out;
    for (karmada_release r : releases)
        out.append(out.empty() ? "" : ", ").append(release_minor(r)).append(" (").append(release_name(r)).append(")");
    return out;
}

// "spec.placement.clusterAffinities[0].overflowAffinities[1].affinityName" with every index as "[]".
std::string without_indices(std::string_view path)
{
    std::string out;
    bool in_index = false;
    for (char c : path) {
        if (c == '[') {
            in_index = true;
            out += "[]";
        } else if (c == ']')
            in_index = false;
        else if (!in_index)
            out += c;
    }
    return out;
}

} // namespace

std::string_view release_name(karmada_release r)
{
    switch (r) {
    case karmada_release::v1_16_0:
        return "v1.16.0";
    case karmada_release::v1_17_1:
        return "v1.17.1";
    case karmada_release::v1_18_2:
        break;
    }
    return "v1.18.2";
}

std::string_view release_minor(karmada_release r)
{
    const std::string_view name = release_name(r);
    return name.substr(0, name.rfind('.'));
}

std::span<const karmada_release> supported_karmada_releases()
{
    return releases;
}

result<karmada_release> parse_karmada_version(std::string_view text)
{
    // Appended piece by piece: g++ 12's -Wrestrict misfires on "literal" + std::string at -O3.
    std::string message;
    const auto wanted = parse_minor(text);
    if (!wanted) {
        message.append("\"").append(text).append("\" is not a Karmada version (v1.18, 1.18 or v1.18.2); supported ");
        message.append("releases are ").append(supported_list());
        return failure{std::move(message), {}};
    }
    for (karmada_release r : releases)
        if (minor_of(r) == *wanted)
            return r;
    message.append("Karmada ").append(text).append(" is not supported: supported releases are ").append(supported_list());
    message.append(" (one per maintained minor; a patch release answers as the pinned release of its minor)");
    return failure{std::move(message), {}};
}

namespace changes {

const karmada_change workload_affinity{
    "placement.workloadAffinity (affinity / antiAffinity groups) in the PropagationPolicy CRD and its webhook checks",
    "v1.17.0", "pkg/apis/policy/v1alpha1/propagation_types.go WorkloadAffinity; pkg/util/validation/validation.go "
               "ValidateWorkloadAffinity (karmada#7131, #7222)",
    karmada_release::v1_17_1, "spec.placement.workloadAffinity"};

const karmada_change resource_selector_namespace{
    "a PropagationPolicy's resource selectors must name the policy's own namespace",
    "v1.17.0", "pkg/util/validation/validation.go validateResourceSelectors, called by ValidatePropagationSpec(spec, "
               "namespace)",
    karmada_release::v1_17_1, ""};

const karmada_change apimachinery_name_wording{
    "names checked by apimachinery v0.35's IsQualifiedName (content.IsLabelKey): \"a valid label key\", lengths "
    "in bytes; v0.34 says \"a qualified name\" and counts characters (affinityName, aliasLabelName, metadata's "
    "label keys and values, annotation keys, finalizers)",
    "v1.17.0", "pkg/util/validation/validation.go ValidateClusterAffinities; k8s.io/apimachinery v0.35.0 "
               "pkg/util/validation/validation.go IsQualifiedName = content.IsLabelKey",
    karmada_release::v1_17_1, ""};

const karmada_change overflow_affinities{
    "clusterAffinities[].overflowAffinities (overflow tiers) in the policy CRDs, their webhook checks and the "
    "scheduler's tiers",
    "v1.18.0", "pkg/apis/policy/v1alpha1/propagation_types.go ClusterAffinityTerm.OverflowAffinities; "
               "pkg/util/validation/validation.go ValidateOverflowAffinities; pkg/scheduler/core/common.go",
    karmada_release::v1_18_2, "spec.placement.clusterAffinities[].overflowAffinities"};

const karmada_change cluster_toleration_operators{
    "clusterTolerations[].operator Lt and Gt are denied (Unsupported value)",
    "v1.18.0", "pkg/util/validation/validation.go validateClusterTolerations", karmada_release::v1_18_2, ""};

const karmada_change single_component_sets{
    "with MultiplePodTemplatesScheduling, a workload of one component is estimated by component sets, and its "
    "binding without clusters is re-scheduled (before: only two or more; one fell back to the general estimator's "
    "replicas, and its empty binding was left alone)",
    "v1.18.0", "pkg/scheduler/core/estimation.go isMultiTemplateSchedulingApplicable, pkg/util/binding.go "
    "IsBindingReplicasChanged (len(Components) > 0)", karmada_release::v1_18_2, ""};

const karmada_change component_set_selection_unit{
    "with MultiplePodTemplatesScheduling, a multi-component job's selected cluster must hold one complete component "
    "set (before: the binding's spec.replicas, 0 for such a job, so a cluster without room for a set was selected "
    "and the job propagated there)",
    "v1.18.0", "pkg/scheduler/core/common.go SelectClusters (SelectBestClusters(placement, groupClustersInfo, 1))",
    karmada_release::v1_18_2, ""};

const karmada_change model_node_simulation{
    "a single-template workload's replicas on a cluster with resource models: one-pod sets packed on the model "
    "nodes, at most 110 a node (before: each grade's count times the minimum's quotient from the first grade that "
    "fits, 0 read as 1 and a request of nothing as MaxInt64, the product wrapping and the result unclamped)",
    "v1.18.0", "pkg/estimator/client/general.go getMaximumReplicasBasedOnResourceModels", karmada_release::v1_18_2,
    ""};

const karmada_change duplicated_region_score_guard{
    "Duplicated with a region spread constraint: a region none of whose clusters holds the replicas scores 0 (before: "
    "karmada-scheduler divided by zero and panicked)",
    "v1.17.0", "pkg/scheduler/core/spreadconstraint/group_clusters.go calcGroupScoreForDuplicate",
    karmada_release::v1_17_1, ""};

const karmada_change empty_component_clusters_rescheduled{
    "a multi-component job's binding without target clusters is re-scheduled as a replica change "
    "(MultiplePodTemplatesScheduling; before: its empty spec.clusters added up to its spec.replicas of 0, and "
    "karmada-scheduler left it alone)",
    "v1.17", "pkg/util/binding.go IsBindingReplicasChanged (absent in v1.16.0; v1.17.1: len(Components) > 1)",
    karmada_release::v1_17_1, ""};

const karmada_change scale_down_by_candidates{
    "a Divided dynamic-weight or Aggregated scale-down deals the replicas over the previous clusters that are still "
    "selected (before: over every cluster of the previous spec.clusters, so a cluster the placement no longer "
    "selects kept replicas in proportion to what it had)",
    "v1.17", "pkg/scheduler/core/division_algorithm.go dynamicScaleDown (v1.16.0 copies spec.Clusters, v1.17.1 "
    "state.scheduledClusters)", karmada_release::v1_17_1, ""};

const karmada_change wrapped_division_errors{
    "a dynamic division that runs short (\"failed to scale up: Clusters available replicas N are not enough to "
    "schedule.\") is Unschedulable; before, its error was re-wrapped with %v and the reason was SchedulerError",
    "v1.18.0", "pkg/scheduler/core/assignment.go assignByDynamicStrategy (fmt.Errorf %w)", karmada_release::v1_18_2, ""};

const karmada_change json_embedded_field_names{
    "a JSON type error of Karmada's mutating webhook names embedded structs in its field path "
    "(\"Go struct field ClusterAffinityTerm.spec.placement.clusterAffinities.ClusterAffinity.clusterNames\"); "
    "before, without them",
    "v1.17.0", "sigs.k8s.io/json v0.0.0-20250730193827 (internal/golang/encoding/json decode.go addErrorContext), "
               "in Karmada v1.17's go.mod; v1.16 has v0.0.0-20241014173422",
    karmada_release::v1_17_1, ""};

const karmada_change apimachinery_scheme_name{
    "an object of a kind Karmada's webhook does not know is refused naming the scheme \"pkg/runtime/scheme.go:111\"; "
    "before, \"pkg/runtime/scheme.go:110\"",
    "v1.17.0", "k8s.io/apimachinery v0.35.0 pkg/runtime/scheme.go NewScheme (naming.GetNameFromCallsite), in "
               "Karmada v1.17's go.mod; v1.16 has v0.34.1",
    karmada_release::v1_17_1, ""};

const karmada_change ray_service_replicas{
    "a ray.io/v1 RayService is a workload: Karmada's shipped customization reads 1 head plus every worker "
    "group's replicas and the largest cpu and memory of their pod templates (before: no replica interpreter, "
    "so 0 replicas and the whole RayService to every selected cluster)",
    "v1.17", "pkg/resourceinterpreter/default/thirdparty/resourcecustomizations/ray.io/v1/RayService/"
    "customizations.yaml replicaResource (absent in v1.16.0)",
    karmada_release::v1_17_1, ""};

std::span<const karmada_change* const> all()
{
    static constexpr std::array<const karmada_change*, 15> list{
        &workload_affinity,           &resource_selector_namespace,   &apimachinery_name_wording,
        &duplicated_region_score_guard, &empty_component_clusters_rescheduled, &scale_down_by_candidates,
        &json_embedded_field_names,   &apimachinery_scheme_name,      &overflow_affinities,
        &cluster_toleration_operators, &single_component_sets,        &component_set_selection_unit,
        &wrapped_division_errors,     &model_node_simulation,         &ray_service_replicas};
    return list;
}

} // namespace changes

const karmada_change* change_adding_field(std::string_view api_path)
{
    const std::string path = without_indices(api_path);
    for (const karmada_change* c : changes::all()) {
        const std::string_view field = c->added_field;
        if (!field.empty() && path.starts_with(field) &&
            (path.size() == field.size() || path[field.size()] == '.' || path[field.size()] == '['))
            return c;
    }
    return nullptr;
}

} // namespace kpw::settings
