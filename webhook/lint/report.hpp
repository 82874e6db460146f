// SPDX-License-Identifier: Apache-2.0
// The lint report: one model that every output format (-o text|json|...) renders.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "base/result.hpp"
#include "lint/diff.hpp"

namespace kpw::lint {

// A validation error (reason = FieldValue*) or a warning (id from the warning catalogue).
struct finding {
    std::string id;      // errors: the wire reason ("FieldValueInvalid"); warnings: the catalogue id
    std::string field;   // rendered field path; may be empty
    std::string message; // the body after "<field>: " (Karmada's text for errors)
    position where;      // 1-based; line 0 when the finding has no place in the file
    // The message is the API server's whole text (a strict decoding error or warning), which names
    // the field itself: str() prints it without the "<field>: " prefix.
    bool verbatim = false;
    std::string str() const { return field.empty() || verbatim ? message : field + ": " + message; }
};

struct workload_ref {
    std::string api_version, kind, namespace_name, name;
    std::int64_t replicas = 0;
};

// One row of a dry-run placement: how many replicas a cluster gets and from which tier.
struct placement_row {
    std::string cluster;
    std::int64_t replicas = 0;
    std::string tier;                     // the primary or overflow affinityName used (may be empty)
    std::optional<std::int64_t> available; // estimator's available replicas, when computed
    std::vector<std::pair<std::string, std::int64_t>> components; // TargetCluster.components of a multi-component job
};

// Why one cluster got what it got in one affinity group (`lint --explain`; always in JSON).
struct considered_row {
    std::string cluster;
    std::string tier;
    bool passed = false;
    std::string plugin;                  // failed: the first failing plugin in Karmada's registry order
    std::string reason;                  // failed: Karmada's reason string for it
    std::string detail;                  // failed: the project's precise line (which taint, which API, ...)
    std::vector<std::string> also_fails; // further plugins it fails: its diagnosis depends on plugin order
    std::optional<std::int64_t> available; // passed: availableReplicas
    std::string bound_by;                // passed: the resource that bounds `available`
    std::int64_t replicas = 0;
    std::string left_out;                // passed with fewer replicas than it could hold: why
    bool component_sets = false;         // a multi-component job kept on one cluster: `available` counts sets
    bool holds_job = false;              // ... and this cluster receives the whole job
    bool receives_object = false;        // not a workload: this selected cluster receives it, no replica count
};

// The clusters of one group that got nothing, counted by reason (the short text output's line).
struct left_out_summary {
    std::size_t count = 0;
    std::string names;   // comma-separated, cut after about 120 characters with ", ..."
    std::string reasons; // "3 cluster(s) did not match ..., 1 not selected", reasons in byte order
};

// One affinity group that was tried, in order.
struct group_row {
    std::string affinity_name;
    std::string outcome; // "scheduled" or the error class
    std::string error;   // Karmada's full error text when the group failed
    std::string diagnosis; // FitError text (registry plugin order)
    std::vector<std::string> diagnosis_alternatives;
    // Every cluster considered, only with --explain: one row per cluster per group per workload is
    // 2-3 MiB per workload at 5,000 clusters, more than a 10,000-workload run can hold.
    std::vector<considered_row> considered;
    left_out_summary left_out; // always
};

// A replica count that changes on one cluster (0 where absent).
struct move_row {
    std::string cluster;
    std::int64_t from = 0;
    std::int64_t to = 0;
};

// What the binding held before the predicted scheduler pass.
struct previous_placement {
    std::string affinity_name; // status.schedulerObservingAffinityName
    std::vector<placement_row> clusters;
};

// The dry-run scheduling outcome for one workload claimed by a policy.
struct scheduling_result {
    workload_ref workload;
    bool scheduled = false;
    std::string affinity_name; // the chosen clusterAffinities term; empty for a plain clusterAffinity
    std::vector<placement_row> clusters;
    std::string message;
    bool tie = false;
    std::vector<std::string> attempts; // why earlier groups failed, one line each
    std::vector<group_row> groups;     // every group tried; the last decided the outcome

    // The Scheduled condition Karmada would write (status "True" when scheduled); has_condition is false
    // for a binding that has none and that the scheduler leaves alone (day two): nothing writes one.
    bool has_condition = true;
    std::string condition_reason;
    std::string condition_message;
    std::vector<std::string> condition_alternatives; // other texts another plugin order prints

    // Day two (`--bindings`): the workload already has a binding.
    bool acted = true;              // false: the scheduler leaves the binding alone (message says why)
    std::string trigger;            // the rule that made it act ("" on a first schedule or when idle)
    std::string why;                // why it acts (which rule and what differs), or why it does not
    std::optional<previous_placement> previous;
    std::vector<move_row> moves;

    // Non-empty: karmada-scheduler crashes on this binding with this Go runtime error (message says more).
    std::string karmada_panic;
    // Non-empty: karmada-scheduler never queues the new binding (the policy names another scheduler): why.
    // Not a failure to place it: another scheduler is meant to.
    std::string ignored;

    // The scheduler tried and could not place the workload (what --fail-on unschedulable counts).
    bool unschedulable() const { return !scheduled && ignored.empty(); }
};

struct policy_result {
    std::string file;
    int document = 0;
    position start;
    std::string kind, namespace_name, name;
    bool allowed = true;
    std::vector<finding> errors;
    std::vector<finding> warnings;
    std::vector<scheduling_result> scheduling;
};

// A policy's identity on the server (kind, namespace, name); namespace_ is "" for a
// ClusterPropagationPolicy. plan's policy sets and lint_options::stored are keyed by it.
struct policy_key {
    std::string kind, namespace_, name;
    auto operator<=>(const policy_key&) const = default;
};

// The key of a linted policy (its namespace as it was judged in).
inline policy_key key_of(const policy_result& r)
{
    return {r.kind, r.kind == "PropagationPolicy" ? r.namespace_name : std::string(), r.name};
}

// A file that could not be read or parsed: the run is broken (exit 2), the other files still count.
struct file_error {
    std::string file;
    position where;
    std::string message;
    std::string str() const;
};

// A finding about one object of the snapshot rather than a linted policy: a binding the scheduler will
// crash on, whichever policy claims it; a repeated key (duplicate-key) in a snapshot file or in a document
// of another kind. Reported, counted as a warning; the run is not broken by it.
struct snapshot_warning {
    std::string file;
    position where;
    std::string id; // from the warning catalogue
    std::string message;
    std::string subject; // the object it is about: "ResourceBinding shop/web-deployment"
};

// A document of another kind (a Deployment next to the policies): counted, listed, not linted.
struct skipped_document {
    std::string file;
    int document = 0;
    position start;
    std::string kind, name;
};

// A policy as the claims table names it.
struct policy_ref {
    std::string kind, namespace_name, name;
    // "PropagationPolicy shop/web", "ClusterPropagationPolicy all"
    std::string str() const { return kind + " " + (namespace_name.empty() ? "" : namespace_name + "/") + name; }
};

// One policy that matches a workload (or holds its claim) and why it won or lost.
struct claim_candidate_row {
    policy_ref policy;
    std::int32_t priority = 0;
    std::string implicit_priority; // "name" | "labelSelector" | "matchAll" ("mismatch" for a stale holder)
    bool matched = true;
    std::string why;
};

// Which policy claims one workload, and why (summary.claims in JSON).
struct claim_row {
    workload_ref workload;
    std::optional<policy_ref> policy; // the holder; nullopt when no policy claims it
    std::optional<std::size_t> result; // index into report::results of that policy, when it was linted
    std::string reason;
    std::vector<claim_candidate_row> candidates;
    bool sticky = false;
    bool preempted = false;
    bool ignored = false;               // resourcetemplate.karmada.io/claimed-by
    std::optional<policy_ref> would_win; // sticky: the winner if it were unclaimed
    std::optional<policy_ref> released_by; // the change deletes this policy, which held the workload
};

// A workload that a standing policy holds (lint::dry_run_context::standing: the server keeps that policy
// as it is because admission denies PATH's version of it), predicted as PATH's are but no result of PATH.
struct standing_scheduling {
    policy_ref policy;
    scheduling_result scheduling;
};

// A workload whose policy the change deletes (or edits so that it no longer selects it) and that no other
// policy claims: Karmada takes the claim off its template and binding and nothing else, so the binding
// keeps its clusters, and karmada-scheduler ignores it from then on (no re-schedule; replicas a NoExecute taint evicts are not placed elsewhere) until a
// policy claims the template.
struct released_binding {
    workload_ref workload;
    policy_ref was;                      // the policy that held it
    std::string why;                     // "is deleted" | "no longer selects it"
    std::string binding;                 // "ResourceBinding default/web-deployment"
    std::string affinity_name;           // status.schedulerObservingAffinityName, kept
    std::vector<placement_row> clusters; // spec.clusters, kept
};

// `plan`: what applying PATH does to one policy on the server.
struct policy_plan_row {
    std::string action; // create | change | unchanged | denied (not applied) | delete | kept (--prune)
    policy_ref policy;
    std::string file;   // where PATH has it (delete, kept: the server's list)
    position where;
    std::string note;   // kept: why --prune leaves it on the server
};

struct summary {
    int documents = 0;
    int policies = 0;
    int denied = 0;
    int warnings = 0;
    int unschedulable = 0;
    int skipped = 0; // documents of other kinds
    int not_predicted = 0; // bindings whose claiming policy is not among the linted ones (--bindings)
};

struct report {
    summary totals;
    bool unschedulable_is_error = true; // --unschedulable=warn: reported, but exit 0
    bool explain = false;               // --explain: every considered cluster (text and JSON)
    bool have_bindings = false;         // --bindings was given: the summary counts bindings not predicted
    std::vector<policy_result> results;
    std::vector<skipped_document> skipped;
    std::vector<file_error> file_errors;
    std::vector<snapshot_warning> snapshot_warnings; // bindings karmada-scheduler crashes on; duplicate keys outside policies
    std::optional<placement_diff> diff; // lint --base: the base policies' placements against these
    std::string link_base;              // --link-base URL: findings link to URL/<file>#L<line> (markdown, html)
    bool have_claims = false;      // --workloads was given: `claims` lists every workload
    std::vector<claim_row> claims; // in workload order
    std::vector<released_binding> released; // bindings whose policy the change deletes, left where they are
    std::vector<standing_scheduling> standing; // what a standing policy holds (no result of PATH)
    std::optional<std::vector<policy_plan_row>> policy_plan; // `plan`: the server's policies once PATH is applied
    std::optional<std::vector<policy_plan_row>> workload_plan; // `plan`: PATH's resource templates, applied
    std::string karmada_release;    // the release the answers are for ("v1.18.2")
    std::string release_decided_by; // how it was chosen; "" for the default (the newest supported)
};

} // namespace kpw::lint
