package compare

import (
	"sort"
	"strings"

	"karmada-policy-webhook/tests/conformance/internal/report"
)

// Rule is one intentional difference (docs/conformance.md): a named, narrow test on one differing key.
type Rule struct {
	Name string
	// Flag is the lint flag or behaviour the difference belongs to.
	Flag string
	// Explains reports whether the rule covers this difference.
	Explains func(d Diff, ctx ruleContext) bool
}

// ruleContext is what a rule may look at besides the difference: both outputs (nil before parsing).
type ruleContext struct {
	lint, karmada *Output
}

// results finds the result of a difference on both sides (nil where absent).
func (c ruleContext) results(d Diff) (l, k *Result) {
	find := func(out *Output) *Result {
		if out == nil {
			return nil
		}
		for i := range out.Results {
			if out.Results[i].File == d.File && out.Results[i].Document == d.Document {
				return &out.Results[i]
			}
		}
		return nil
	}
	return find(c.lint), find(c.karmada)
}

func explain(rules []Rule, d Diff, ctx ruleContext) string {
	for _, r := range rules {
		if r.Explains(d, ctx) {
			return r.Name
		}
	}
	return ""
}

// ComparedFlags are given to both binaries before every case's own arguments: Karmada's overflow rule
// (Divided + Aggregated allowed) instead of the seeds' stricter one, so the rule itself is compared.
var ComparedFlags = []string{"--allow-aggregated-overflow"}

// Intentional is the list of intentional differences the comparison accepts.
var Intentional = []Rule{
	{Name: "schema-order", Flag: "Karmada (Go map order of the CRD schema's properties)", Explains: schemaOrder},
	{Name: "all-stages", Flag: "lint (every admission stage at once)", Explains: allStages},
	{Name: "acted-first-schedule", Flag: "lint --bindings", Explains: actedFirstSchedule},
	{Name: "map-order", Flag: "Karmada (Go map order)", Explains: mapOrder},
	{Name: "target-components", Flag: "--feature-gates=MultiplePodTemplatesScheduling=true (Karmada > v1.18.2)",
		Explains: targetComponents},
	{Name: "seeds-overflow-rule", Flag: "lint's default mode (no --allow-aggregated-overflow)", Explains: seedsOverflowRule},
}

// The overflow scheduling-mode texts (validation/rules/placement.cpp): lint's default mode follows the
// seeds' proposal (Divided + Weighted + dynamicWeight only); Karmada (and --allow-aggregated-overflow)
// admits Divided + Aggregated too (pkg/util/validation/validation.go validateOverflowAffinities).
const (
	seedsOverflowMessage   = "overflowAffinities require replicaScheduling with replicaSchedulingType Divided, replicaDivisionPreference Weighted and weightPreference.dynamicWeight set"
	karmadaOverflowMessage = "overflowAffinities can only be used together with dynamic weight or aggregated scheduling"
)

// seedsOverflowRule: in its default mode lint denies overflow tiers with the seeds' stricter rule. Explained:
// any difference on a document lint denies where, once lint's seeds-rule errors and Karmada's own overflow
// errors at those same fields are set aside, both have the same errors (Karmada then admits it, or
// denies it for the same other reasons). Never the reverse: a Karmada overflow error at a field where
// lint has none, or any other error one side lacks, stays a difference.
func seedsOverflowRule(d Diff, ctx ruleContext) bool {
	l, k := ctx.results(d)
	if l == nil || k == nil || l.Allowed {
		return false
	}
	seeds := map[string]bool{}
	for _, e := range l.Errors {
		if strings.Contains(e.Message, seedsOverflowMessage) {
			seeds[e.Field] = true
		}
	}
	if len(seeds) == 0 {
		return false
	}
	rest := func(r *Result, overflow string) map[string]bool {
		set := map[string]bool{}
		for _, e := range r.Errors {
			if !(seeds[e.Field] && strings.Contains(e.Message, overflow)) {
				set[e.Field+" "+e.Reason] = true
			}
		}
		return set
	}
	lr, kr := rest(l, seedsOverflowMessage), rest(k, karmadaOverflowMessage)
	if len(lr) != len(kr) {
		return false
	}
	for fr := range lr {
		if !kr[fr] {
			return false
		}
	}
	// Karmada admits it, or denies it with errors: a refusal without any (an earlier stage) is not this rule's.
	return k.Allowed || len(k.Errors) > 0
}

// earlyStages are the API server's steps before Karmada's validating webhook; one that refuses stops
// the request there.
var earlyStages = map[string]bool{"decode": true, "schema": true, "mutating": true}

// allStages: lint reports the errors of every admission stage at once (decoding, object metadata and
// the CRD schema, then Karmada's validating webhook); the API server stops at the first stage that
// refuses. Explained: an error entry only lint has, or the message, when Karmada refused at an earlier
// stage than the validating webhook, every error Karmada reported is also lint's, and lint's errors
// restricted to those are Karmada's message.
func allStages(d Diff, ctx ruleContext) bool {
	if d.Path != "message" && !(strings.HasPrefix(d.Path, "errors[") && d.Lint == "present" && d.Karmada == "absent") {
		return false
	}
	l, k := ctx.results(d)
	if l == nil || k == nil || k.Admission == nil || k.Allowed || l.Allowed || !earlyStages[k.Admission.Stage] || len(k.Errors) == 0 {
		return false
	}
	kset := fieldReasons(k)
	for fr := range kset {
		if !fieldReasons(l)[fr] {
			return false
		}
	}
	var shared []report.FieldError
	for _, e := range l.Errors {
		if kset[e.Field+" "+e.Reason] {
			shared = append(shared, e)
		}
	}
	if LintMessage(shared) == KarmadaMessage(k) {
		return true
	}
	// The CRD schema's errors come in Go map order (schemaOrder): the same entries in another order.
	return k.Admission.Stage == "schema" && KarmadaMessage(k) == Aggregate(k.Errors) && sameEntries(shared, k.Errors)
}

// schemaOrder: the API server validates a custom resource against its OpenAPI schema by ranging over
// the schema's properties (a Go map), so the schema's errors about different fields come in a random
// order, run to run; lint's one order cannot be Karmada's every time. Explained: the message, when
// Karmada refused at stage schema, its errors aggregate to its message, and lint's errors are the same
// entries (restricted to Karmada's field and reason pairs, as all-stages restricts them).
func schemaOrder(d Diff, ctx ruleContext) bool {
	if d.Path != "message" {
		return false
	}
	l, k := ctx.results(d)
	if l == nil || k == nil || k.Admission == nil || k.Admission.Stage != "schema" || l.Allowed || k.Allowed ||
		KarmadaMessage(k) != Aggregate(k.Errors) {
		return false
	}
	kset := fieldReasons(k)
	var shared []report.FieldError
	for _, e := range l.Errors {
		if kset[e.Field+" "+e.Reason] {
			shared = append(shared, e)
		}
	}
	// In Karmada's order it is all-stages' (or no) difference; this rule is for another order only.
	return LintMessage(shared) != KarmadaMessage(k) && sameEntries(shared, k.Errors)
}

// sameEntries: both lists render to the same set of messages (duplicates dropped), in any order.
func sameEntries(a, b []report.FieldError) bool {
	set := func(errs []report.FieldError) []string {
		seen := map[string]bool{}
		var out []string
		for _, e := range errs {
			if m := Render(e); !seen[m] {
				seen[m] = true
				out = append(out, m)
			}
		}
		sort.Strings(out)
		return out
	}
	return len(a) > 0 && slicesEqual(set(a), set(b))
}

// actedFirstSchedule: with --bindings, lint prints `acted` only for a workload that has a binding; one
// without is scheduled for the first time, which always acts. The oracle prints acted: true for it.
func actedFirstSchedule(d Diff, _ ruleContext) bool {
	return strings.HasSuffix(d.Path, "].acted") && d.Lint == "absent" && d.Karmada == "true"
}

// targetComponents: lint writes each target cluster's per-component replicas (TargetCluster.components,
// Karmada master at f8fdd02, which ../shared/docs describe); v1.18.2, the newest Karmada the module
// proxy serves, has no such field (pkg/apis/work/v1alpha2/binding_types.go TargetCluster: name and
// replicas only). Explained: a cluster entry whose only difference is lint's components.
func targetComponents(d Diff, _ ruleContext) bool {
	if !strings.Contains(d.Path, "].clusters[") || !strings.HasPrefix(d.Karmada, "replicas ") || strings.Contains(d.Karmada, " components ") {
		return false
	}
	return strings.HasPrefix(d.Lint, d.Karmada+" components ")
}

// mapOrder: Kubernetes validates a map (labels, annotations, a selector's matchLabels) by ranging over
// it, so the errors of one field path come in Go's random map order; lint's one order cannot be
// Karmada's every time. Explained: the message, when Karmada's errors aggregate to its message and both
// sides list the same entries in the same order up to reordering within runs of one field path.
func mapOrder(d Diff, ctx ruleContext) bool {
	if d.Path != "message" {
		return false
	}
	l, k := ctx.results(d)
	if l == nil || k == nil || KarmadaMessage(k) != Aggregate(k.Errors) {
		return false
	}
	return LintMessage(l.Errors) == Aggregate(l.Errors) && slicesEqual(byFieldRuns(l.Errors), byFieldRuns(k.Errors))
}

// byFieldRuns renders entries (duplicates dropped) and sorts each run of consecutive entries with one
// field path.
func byFieldRuns(errs []report.FieldError) []string {
	var out []string
	seen := map[string]bool{}
	start := 0
	field := ""
	for _, e := range errs {
		m := Render(e)
		if seen[m] {
			continue
		}
		seen[m] = true
		if len(out) > 0 && e.Field != field {
			sort.Strings(out[start:])
			start = len(out)
		}
		field = e.Field
		out = append(out, m)
	}
	sort.Strings(out[start:])
	return out
}

func slicesEqual(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
