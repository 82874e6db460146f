// SPDX-License-Identifier: Apache-2.0
// Spec-level rules (validation-rules §6.9) and the overall order of §6.10.
#include "rules/rules.hpp"

#include "model/encode.hpp"
#include "rules/label_key.hpp"

namespace kpw::rules {
namespace {

void validate_state_preservation(const std::optional<model::state_preservation>& sp, const field::path& at,
                                 qualified_name_wording wording, field::error_list& errs)
{
    if (!sp)
        return;
    const field::path rules = at.child("rules");
    for (std::size_t k = 0; k < sp->rules.size(); ++k)
        validate_label_key(sp->rules[k].alias_label_name, rules.index(k).child("aliasLabelName"), errs, wording);
}

// FA1-FA5. karmada: pkg/util/validation/validation.go ValidateApplicationFailover
void validate_application_failover(const model::application_failover_behavior& app, const field::path& at,
                                   qualified_name_wording wording, field::error_list& errs)
{
    const auto& toleration = app.decision_conditions.toleration_seconds;
    if (toleration && *toleration < 0)
        errs.push_back(field::invalid(at.child("decisionConditions").child("tolerationSeconds"),
                                      field::go_int(*toleration), "must be greater than or equal to 0"));
    const field::path grace_path = at.child("gracePeriodSeconds");
    const auto& grace = app.grace_period_seconds;
    const bool gracefully = model::purges_gracefully(app.purge_mode);
    if (!gracefully && grace)
        errs.push_back(field::invalid(grace_path, field::go_int(*grace), "only takes effect when purgeMode is gracefully"));
    if (gracefully && !grace)
        errs.push_back(field::invalid(grace_path, "null", "should not be empty when purgeMode is gracefully"));
    if (grace && *grace <= 0)
        errs.push_back(field::invalid(grace_path, field::go_int(*grace), "must be greater than 0"));
    validate_state_preservation(app.state_preservation, at.child("statePreservation"), wording, errs);
}

// R1, R2. karmada: pkg/webhook/propagationpolicy/validating.go (namespace) and
// pkg/util/validation/validation.go ValidatePropagationSpec (R2: preemption Always needs names)
void validate_resource_selectors(const model::propagation_spec& spec, const field::path& at, const options& opts,
                                 field::error_list& errs)
{
    const auto& selectors = spec.resource_selectors;
    if (!opts.request_namespace.empty() && settings::has(opts.release, settings::changes::resource_selector_namespace))
        for (std::size_t i = 0; i < selectors.size(); ++i)
            if (selectors[i].ns != opts.request_namespace)
                errs.push_back(field::invalid(at.index(i).child("namespace"), field::go_quote(selectors[i].ns),
                                              // karmada: pkg/util/validation/validation.go:65 (v1.18.2 and
                                              // f8fdd02), the text the conformance oracle returns
                                              "namespace of resource selector must be the same as the namespace of "
                                              "the policy"));
    if (spec.preemption != model::preemption_always)
        return;
    for (std::size_t i = 0; i < selectors.size(); ++i)
        if (selectors[i].name.empty())
            errs.push_back(field::invalid(at.index(i).child("name"), field::go_quote(""),
                                          "name cannot be empty if preemption is Always, the empty name may cause "
                                          "unexpected resources preemption"));
}

// X1. karmada: pkg/util/validation/validation.go ValidateSuspension (the path segment is doubled upstream)
void validate_suspension(const std::optional<model::suspension>& s, const field::path& at, field::error_list& errs)
{
    if (!s || !s->dispatching.value_or(false) || !s->dispatching_on_clusters ||
        s->dispatching_on_clusters->cluster_names.empty())
        return;
    // Positioned at the cluster names, the second of the two settings.
    errs.push_back(field::located(
        field::invalid(at.child("suspension"), model::go_json(*s),
                       "suspension dispatching cannot co-exist with dispatchingOnClusters.clusterNames"),
        at.child("dispatchingOnClusters").child("clusterNames")));
}

} // namespace

// karmada: pkg/util/validation/validation.go ValidatePropagationSpec (D1, failover parts)
void validate_failover(const model::propagation_spec& spec, const field::path& spec_path, field::error_list& errs,
                       settings::karmada_release release)
{
    const qualified_name_wording wording = name_wording(release);
    if (!spec.failover)
        return;
    const field::path at = spec_path.child("failover");
    if (spec.failover->application) {
        if (!spec.propagate_deps)
            errs.push_back(field::invalid(spec_path.child("propagateDeps"), "false",
                                          "application failover is set, propagateDeps must be true"));
        validate_application_failover(*spec.failover->application, at.child("application"), wording, errs);
    }
    if (spec.failover->cluster)
        validate_state_preservation(spec.failover->cluster->state_preservation,
                                    at.child("cluster").child("statePreservation"), wording, errs);
}

// karmada: pkg/util/validation/validation.go ValidatePropagationSpec
field::error_list validate_propagation_spec(const model::propagation_spec& spec, const options& opts)
{
    field::error_list errs;
    const field::path at = field::path::root("spec");
    validate_placement(spec.placement, at.child("placement"), opts, errs);
    validate_failover(spec, at, errs, opts.release);
    validate_resource_selectors(spec, at.child("resourceSelectors"), opts, errs);
    validate_suspension(spec.suspension, at.child("suspension"), errs);
    return errs;
}

} // namespace kpw::rules
