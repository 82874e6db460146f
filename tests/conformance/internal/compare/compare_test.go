package compare

import (
	"encoding/json"
	"strings"
	"testing"

	"karmada-policy-webhook/tests/conformance/internal/report"
)

func TestAggregateRendersAsFieldErrorListToAggregate(t *testing.T) {
	e := func(msgs ...string) []report.FieldError {
		var out []report.FieldError
		for _, m := range msgs {
			out = append(out, report.FieldError{Message: m})
		}
		return out
	}
	tests := []struct {
		name string
		errs []report.FieldError
		want string
	}{
		{"none is empty", nil, ""},
		{"one is bare", e("spec.a: Required value"), "spec.a: Required value"},
		{"several are bracketed and comma separated", e("a: x", "b: y"), "[a: x, b: y]"},
		{"duplicates are dropped, first order kept", e("b: y", "a: x", "b: y"), "[b: y, a: x]"},
		{"duplicates of one message leave it bare", e("a: x", "a: x"), "a: x"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Aggregate(tt.errs); got != tt.want {
				t.Errorf("Aggregate() = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestLintMessageIsWhatKubectlApplyPrints(t *testing.T) {
	const prefix = `PropagationPolicy in version "v1alpha1" cannot be handled as a PropagationPolicy: strict decoding error: `
	strict := func(path string) report.FieldError {
		return report.FieldError{Field: path, Reason: "BadRequest", Message: prefix + `unknown field "` + path + `"`}
	}
	tests := []struct {
		name string
		errs []report.FieldError
		want string
	}{
		{"field errors render as field: body", []report.FieldError{{Field: "spec.a", Reason: "FieldValueRequired", Message: "Required value"}},
			"spec.a: Required value"},
		{"a strict decoding error is verbatim", []report.FieldError{strict("spec.x")}, prefix + `unknown field "spec.x"`},
		{"several strict decoding errors are one, comma joined without brackets",
			[]report.FieldError{strict("spec.x"), strict("spec.y")}, prefix + `unknown field "spec.x", unknown field "spec.y"`},
		{"decoding stops the API server before validation", []report.FieldError{strict("spec.x"),
			{Field: "spec.a", Reason: "FieldValueRequired", Message: "Required value"}}, prefix + `unknown field "spec.x"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := LintMessage(tt.errs); got != tt.want {
				t.Errorf("LintMessage() = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestKarmadaMessageDropsTheAPIServersInvalidWrapping(t *testing.T) {
	tests := []struct {
		name string
		r    Result
		want string
	}{
		{"validating handler's message is the aggregate", Result{Admission: &report.Admission{Message: "[a: x, b: y]"}}, "[a: x, b: y]"},
		{"schema stage wraps it", Result{Admission: &report.Admission{Stage: "schema",
			Message: `PropagationPolicy.policy.karmada.io "p" is invalid: spec.a: Required value`}}, "spec.a: Required value"},
		{"a name with a quote, %q-escaped", Result{Admission: &report.Admission{Stage: "schema",
			Message: `PropagationPolicy.policy.karmada.io "a }\" is invalid: b\\" is invalid: spec.a: Required value`}}, "spec.a: Required value"},
		{"no admission object: the errors' aggregate", Result{Errors: []report.FieldError{{Message: "a: x"}}}, "a: x"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := KarmadaMessage(&tt.r); got != tt.want {
				t.Errorf("KarmadaMessage() = %q, want %q", got, tt.want)
			}
		})
	}
}

// out renders results as -o json would.
func out(t *testing.T, results ...Result) []byte {
	t.Helper()
	b, err := json.Marshal(Output{Results: results})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func ok(stdout []byte, exit int) Run { return Run{Exit: exit, Stdout: stdout} }

func denied(msgs ...string) Result {
	r := Result{File: "p.yaml", Kind: "PropagationPolicy", Namespace: "default", Name: "p"}
	for _, m := range msgs {
		field, body, _ := strings.Cut(m, ": ")
		r.Errors = append(r.Errors, report.FieldError{Field: field, Reason: "FieldValueInvalid", Message: body})
	}
	return r
}

func withAdmission(r Result, msg string) Result {
	r.Admission = &report.Admission{Allowed: msg == "", Code: 403, Message: msg, Stage: "validating"}
	return r
}

func TestJudgeComparesTheDenialMessageAsAnAggregate(t *testing.T) {
	lint := denied("spec.a: Invalid value: 1: x", "spec.b: Invalid value: 2: y", "spec.a: Invalid value: 1: x")
	tests := []struct {
		name     string
		karmada  Result
		want     Status
		wantPath string
	}{
		{"same aggregate agrees", withAdmission(denied("spec.a: Invalid value: 1: x", "spec.b: Invalid value: 2: y"),
			"[spec.a: Invalid value: 1: x, spec.b: Invalid value: 2: y]"), Agree, ""},
		{"another order differs", withAdmission(denied("spec.b: Invalid value: 2: y", "spec.a: Invalid value: 1: x"),
			"[spec.b: Invalid value: 2: y, spec.a: Invalid value: 1: x]"), Differ, "message"},
		{"a missing error differs in message and field set", withAdmission(denied("spec.a: Invalid value: 1: x"),
			"spec.a: Invalid value: 1: x"), Differ, "errors[spec.b FieldValueInvalid]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := Judge(ok(out(t, lint), 1), []Run{ok(out(t, tt.karmada), 1)}, nil)
			if v.Status != tt.want {
				t.Fatalf("status %v, want %v (diffs %v)", v.Status, tt.want, v.Diffs)
			}
			if tt.wantPath != "" && !hasPath(v.Diffs, tt.wantPath) {
				t.Errorf("diffs %v lack %s", v.Diffs, tt.wantPath)
			}
		})
	}
}

func hasPath(diffs []Diff, path string) bool {
	for _, d := range diffs {
		if d.Path == path {
			return true
		}
	}
	return false
}

// refuse: an exit 2 with the answers printed for the rest of the input.
func refuse(stdout []byte, stderr string) Run {
	return Run{Exit: 2, Stdout: stdout, Stderr: []byte(stderr)}
}

func TestJudgeExitCodes(t *testing.T) {
	allowed := out(t, Result{File: "p.yaml", Kind: "PropagationPolicy", Namespace: "default", Name: "p", Allowed: true})
	denied := out(t, Result{File: "p.yaml", Kind: "PropagationPolicy", Namespace: "default", Name: "p", Allowed: false})
	const karmadaPanic = "panicked: panic: runtime error: slice bounds out of range [:-1] [recovered, repanicked]"
	predicted := []byte(`{"results":[],"snapshotWarnings":[{"id":"binding-crashes-scheduler","message":` +
		`"ResourceBinding a/b: karmada-scheduler panics: runtime error: slice bounds out of range [:-1] (...)"}]}`)
	predictedOther := []byte(`{"results":[{"scheduling":[{"karmadaPanic":"runtime error: slice bounds out of range [:-2]"}]}]}`)
	tests := []struct {
		name       string
		lint       Run
		oracle     []Run
		want       Status
		wantReason string
	}{
		{"both refuse the same file and agree on the rest", refuse(allowed, "bad.yaml:6:1: the [ ... ] list is not closed\n"),
			[]Run{refuse(allowed, "error parsing bad.yaml: error converting YAML to JSON: yaml: line 5: x\n")}, Agree, "both refuse"},
		{"both refuse a file named in a stage prefix", refuse(allowed, "w.yaml:3:8: unable to decode \"w.yaml\": items\n"),
			[]Run{refuse(allowed, "lint: dry run: --workloads: unable to decode \"w.yaml\": json: cannot unmarshal\n")},
			Agree, "both refuse"},
		{"both refuse a document kubectl cannot map", refuse(allowed, "p.yaml:3:1: unable to decode \"p.yaml\": no kind\n"),
			[]Run{refuse(allowed, "p.yaml: document 1: apiVersion not set\n")}, Agree, "both refuse"},
		{"both refuse, but not the same file: differ", refuse(allowed, "a.yaml:1:1: tab\n"),
			[]Run{refuse(allowed, "error parsing b.yaml: error converting YAML to JSON: yaml: line 1: x\n")}, Differ, "both refuse"},
		{"both refuse the same file, the rest differs: differ", refuse(denied, "bad.yaml:6:1: x\n"),
			[]Run{refuse(allowed, "error parsing bad.yaml: yaml: line 5: x\n")}, Differ, "both refuse"},
		{"both exit 2, the oracle names no refused file: could not run", refuse(allowed, "bad.yaml:6:1: x\n"),
			[]Run{refuse(allowed, "lint: --clusters: no such flag\n")}, CouldNotRun, ""},
		{"oracle fails where lint reads: could not run", ok(allowed, 0), []Run{{Exit: 2, Stderr: []byte("lint: dry run: x\n")}},
			CouldNotRun, "oracle exit 2 where lint exits 0: lint: dry run: x"},
		{"kubectl's reader refuses what lint reads: differ", ok(allowed, 0), []Run{{Exit: 2,
			Stderr: []byte("error parsing t.yaml: error converting YAML to JSON: yaml: line 6: found character that cannot start any token\n")}},
			Differ, ""},
		{"oracle timeout: could not run", ok(allowed, 0), []Run{{Failed: "timed out after 1m0s"}}, CouldNotRun,
			"oracle timed out after 1m0s"},
		{"oracle crash on a later run: could not run", ok(allowed, 0), []Run{ok(allowed, 0), {Failed: "killed by signal killed"}},
			CouldNotRun, "oracle killed by signal killed"},
		{"oracle output not JSON: could not run", ok(allowed, 0), []Run{ok([]byte("{"), 0)}, CouldNotRun, ""},
		{"lint refuses what Karmada reads: differ", Run{Exit: 2, Stderr: []byte("f.yaml:1:1: error: tab\n")},
			[]Run{ok(allowed, 0)}, Differ, ""},
		{"lint binary cannot be executed: could not run", Run{Failed: "cannot run l: permission denied"}, []Run{ok(allowed, 0)},
			CouldNotRun, "lint cannot run l: permission denied"},
		{"lint crash: differ", Run{Failed: "killed by signal segmentation fault"}, []Run{ok(allowed, 0)}, Differ, ""},
		{"exit codes differ", ok(allowed, 1), []Run{ok(allowed, 0)}, Differ, ""},
		{"Karmada panics as lint predicts: agree", ok(predicted, 0), []Run{{Failed: karmadaPanic}}, Agree,
			"both: Karmada's code panics (runtime error: slice bounds out of range [:-1])"},
		{"Karmada panics, lint predicts another panic: could not run", ok(predictedOther, 0),
			[]Run{{Failed: karmadaPanic}}, CouldNotRun, "oracle " + karmadaPanic},
		{"Karmada panics, lint predicts none: could not run", ok(allowed, 0), []Run{{Failed: karmadaPanic}},
			CouldNotRun, "oracle " + karmadaPanic},
		{"the oracle's own panic is no runtime error: could not run", ok(predicted, 0),
			[]Run{{Failed: "panicked: panic: failed to add object"}}, CouldNotRun, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := Judge(tt.lint, tt.oracle, nil)
			if v.Status != tt.want {
				t.Fatalf("status %v, want %v (%s, diffs %v)", v.Status, tt.want, v.Reason, v.Diffs)
			}
			if tt.wantReason != "" && v.Reason != tt.wantReason {
				t.Errorf("reason %q, want %q", v.Reason, tt.wantReason)
			}
		})
	}
}

func TestClassifyExitNamesGoPanicsAndOddCodes(t *testing.T) {
	tests := []struct {
		name   string
		code   int
		stderr string
		failed bool
	}{
		{"exit 2 refusal", 2, "error: no objects passed to apply\n", false},
		{"exit 2 Go panic", 2, "panic: runtime error: index out of range\n\ngoroutine 1 [running]:\n", true},
		{"exit 3", 3, "", true},
		{"exit 1", 1, "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := classifyExit(tt.code, []byte(tt.stderr)) != ""; got != tt.failed {
				t.Errorf("classifyExit(%d) failed = %v, want %v", tt.code, got, tt.failed)
			}
		})
	}
}

func schedResult(s ...Scheduling) Result {
	return Result{File: "p.yaml", Kind: "PropagationPolicy", Namespace: "default", Name: "p", Allowed: true, Scheduling: s}
}

var web = report.Workload{APIVersion: "apps/v1", Kind: "Deployment", Namespace: "default", Name: "web", Replicas: 3}

func placed(tie bool, clusters ...report.TargetCluster) Scheduling {
	return Scheduling{Workload: web, Scheduled: true, Clusters: clusters, Tie: tie,
		Condition: &report.Condition{Status: "True", Reason: "Success", Message: "Binding has been scheduled successfully."}}
}

func tc(name string, replicas int64) report.TargetCluster {
	return report.TargetCluster{Name: name, Replicas: replicas}
}

func TestJudgeTieAcceptsExactlyTheOutcomesKarmadaProduced(t *testing.T) {
	a := placed(false, tc("m1", 2), tc("m2", 1))
	b := placed(false, tc("m1", 1), tc("m2", 2))
	c := placed(false, tc("m3", 3))
	lintTie := placed(true, tc("m1", 1), tc("m2", 2))
	runs := func(ss ...Scheduling) []Run {
		var rs []Run
		for _, s := range ss {
			rs = append(rs, ok(out(t, schedResult(s)), 0))
		}
		return rs
	}
	tests := []struct {
		name   string
		lint   Scheduling
		oracle []Run
		want   Status
	}{
		{"tie: lint's outcome among Karmada's runs", lintTie, runs(a, a, b, a, a), Agree},
		{"tie: lint's outcome never produced", lintTie, runs(a, a, c, a, a), Differ},
		{"no tie: every run must match", b, runs(b, b, b), Agree},
		{"no tie: Karmada varies where lint says it does not", b, runs(b, a, b), Differ},
		{"cluster order does not matter", placed(false, tc("m2", 2), tc("m1", 1)), runs(b), Agree},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := Judge(ok(out(t, schedResult(tt.lint)), 0), tt.oracle, nil)
			if v.Status != tt.want {
				t.Errorf("status %v, want %v (diffs %v)", v.Status, tt.want, v.Diffs)
			}
		})
	}
}

func fitError(msg string, alternatives ...string) Scheduling {
	return Scheduling{Workload: web, Clusters: []report.TargetCluster{}, Diagnosis: msg, DiagnosisAlternatives: alternatives,
		Condition: &report.Condition{Status: "False", Reason: NoClusterFit, Message: msg}}
}

func TestJudgeFitErrorTextIsComparedAsASet(t *testing.T) {
	const (
		x = "0/2 clusters are available: 1 cluster(s) had untolerated taint {k: v}, 1 cluster(s) did not match the placement cluster affinity constraint."
		y = "0/2 clusters are available: 1 cluster(s) did not match the placement cluster affinity constraint, 1 cluster(s) had untolerated taint {k: v}."
		z = "0/2 clusters are available: 2 cluster(s) did not have the API resource."
	)
	tests := []struct {
		name    string
		lint    Scheduling
		karmada []string // one text per run
		want    Status
	}{
		{"Karmada's text is lint's diagnosis", fitError(x, y), []string{x}, Agree},
		{"Karmada's text is an alternative", fitError(x, y), []string{y}, Agree},
		{"every run's text is in lint's set", fitError(x, y), []string{x, y, x}, Agree},
		{"a text outside lint's set differs", fitError(x, y), []string{x, z}, Differ},
		{"without alternatives only the diagnosis", fitError(x), []string{y}, Differ},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var runs []Run
			for _, m := range tt.karmada {
				runs = append(runs, ok(out(t, schedResult(fitError(m))), 1))
			}
			v := Judge(ok(out(t, schedResult(tt.lint)), 1), runs, nil)
			if v.Status != tt.want {
				t.Errorf("status %v, want %v (diffs %v)", v.Status, tt.want, v.Diffs)
			}
		})
	}
}

func TestJudgeReportsEachDifferingKey(t *testing.T) {
	lint := placed(false, tc("m1", 2), tc("m2", 1))
	lint.AffinityName = "g0"
	k := placed(false, tc("m1", 3))
	k.AffinityName = "g1"
	v := Judge(ok(out(t, schedResult(lint)), 0), []Run{ok(out(t, schedResult(k)), 0)}, nil)
	want := map[string][2]string{
		"scheduling[Deployment default/web].affinityName": {`"g0"`, `"g1"`},
		"scheduling[Deployment default/web].clusters[m1]": {"replicas 2", "replicas 3"},
		"scheduling[Deployment default/web].clusters[m2]": {"replicas 1", "absent"},
	}
	if len(v.Diffs) != len(want) {
		t.Fatalf("diffs %v, want %d", v.Diffs, len(want))
	}
	for _, d := range v.Diffs {
		w, found := want[d.Path]
		if !found || d.Lint != w[0] || d.Karmada != w[1] || d.File != "p.yaml" {
			t.Errorf("unexpected diff %+v", d)
		}
	}
}

// Two entries of one kind, namespace and name (another API group's kind of that name) are both compared:
// the second is "#1" and apiVersion is a field, so neither hides the other.
func TestJudgeKeepsEntriesOfOneWorkloadNameApart(t *testing.T) {
	crd := placed(false, tc("m2", 3))
	crd.Workload.APIVersion = "example.com/v1"
	apps := placed(false, tc("m1", 3))
	tests := []struct {
		name       string
		lint, karm []Scheduling
		want       []string
	}{
		{"both, same order", []Scheduling{apps, crd}, []Scheduling{apps, crd}, nil},
		{"the second absent", []Scheduling{apps, crd}, []Scheduling{apps}, []string{"scheduling[Deployment default/web#1]"}},
		{"another apiVersion", []Scheduling{crd}, []Scheduling{apps}, []string{
			"scheduling[Deployment default/web].workload.apiVersion", "scheduling[Deployment default/web].clusters[m1]",
			"scheduling[Deployment default/web].clusters[m2]"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := Judge(ok(out(t, schedResult(tt.lint...)), 0), []Run{ok(out(t, schedResult(tt.karm...)), 0)}, nil)
			var got []string
			for _, d := range v.Diffs {
				got = append(got, d.Path)
			}
			if strings.Join(got, ",") != strings.Join(tt.want, ",") {
				t.Errorf("diffs at %v, want %v", got, tt.want)
			}
		})
	}
}

// The items of a List share their document's index: they are paired in order, not by that index alone
// (which compared lint's first item with Karmada's last).
func TestJudgePairsTheItemsOfAListInOrder(t *testing.T) {
	item := func(kind, name string, allowed bool) Result {
		return Result{File: "l.yaml", Document: 0, Kind: kind, Namespace: "default", Name: name, Allowed: allowed,
			Errors: []report.FieldError{}}
	}
	list := func(second bool) Run {
		return ok(out(t, item("PropagationPolicy", "a", true), item("PropagationPolicy", "b", second)), 0)
	}
	if v := Judge(list(true), []Run{list(true)}, nil); len(v.Diffs) != 0 {
		t.Errorf("the same list: diffs %v", v.Diffs)
	}
	v := Judge(list(true), []Run{list(false)}, nil)
	if len(v.Diffs) == 0 || v.Diffs[0].Path != "allowed" {
		t.Errorf("the second item differs: diffs %v", v.Diffs)
	}
}

func TestIntentionalRules(t *testing.T) {
	invalid := `PropagationPolicy.policy.karmada.io "p" is invalid: spec.placement.clusterAffinities[0].affinityName: Too long: may not be more than 32 bytes`
	schemaErr := report.FieldError{Field: "spec.placement.clusterAffinities[0].affinityName", Reason: "FieldValueTooLong",
		Message: "Too long: may not be more than 32 bytes"}
	webhookErr := report.FieldError{Field: "spec.placement.clusterAffinities[0]", Reason: "FieldValueInvalid", Message: `Invalid value: "x": bad`}
	lint := Result{File: "p.yaml", Kind: "PropagationPolicy", Namespace: "default", Name: "p",
		Errors: []report.FieldError{schemaErr, webhookErr}}
	karmada := func(stage string, errs ...report.FieldError) Result {
		r := Result{File: "p.yaml", Kind: "PropagationPolicy", Namespace: "default", Name: "p", Errors: errs}
		r.Admission = &report.Admission{Code: 422, Message: invalid, Stage: stage}
		return r
	}
	other := report.FieldError{Field: "spec.x", Reason: "FieldValueRequired", Message: "Required value"}
	acted := func(b *bool) Result {
		s := placed(false, tc("m1", 3))
		s.Acted = b
		return schedResult(s)
	}
	withComponents := func(comps ...report.Component) Result {
		c := tc("m1", 0)
		c.Components = comps
		return schedResult(placed(false, c))
	}
	label := func(v string) report.FieldError {
		return report.FieldError{Field: "metadata.labels", Reason: "FieldValueInvalid", Message: `Invalid value: "` + v + `": bad`}
	}
	denial := func(errs ...report.FieldError) Result {
		r := Result{File: "p.yaml", Kind: "PropagationPolicy", Namespace: "default", Name: "p", Errors: errs}
		r.Admission = &report.Admission{Code: 403, Message: Aggregate(errs), Stage: "validating"}
		return r
	}
	schemaDenial := func(errs ...report.FieldError) Result {
		r := denial(errs...)
		r.Admission.Stage = "schema"
		return r
	}
	yes, no := true, false
	tests := []struct {
		name       string
		lint, k    Result
		want       Status
		wantRule   string
		explainedN int
	}{
		{"all-stages: the schema refused first and lint also lists the webhook's errors", lint, karmada("schema", schemaErr),
			Agree, "all-stages", 2},
		{"all-stages does not cover the validating stage", lint, karmada("validating", schemaErr), Differ, "", 0},
		{"all-stages does not cover an error Karmada has and lint lacks", lint, karmada("schema", schemaErr, other), Differ, "", 0},
		{"acted-first-schedule: lint has no binding, Karmada scheduled it", acted(nil), acted(&yes), Agree, "acted-first-schedule", 1},
		{"acted-first-schedule does not cover Karmada not acting", acted(nil), acted(&no), Differ, "", 0},
		{"map-order: one field's errors in another order", denial(label("a"), label("b"), other), denial(label("b"), label("a"), other),
			Agree, "map-order", 1},
		{"map-order does not cover errors of different fields reordered", denial(label("a"), other), denial(other, label("a")),
			Differ, "", 0},
		{"map-order does not cover another entry", denial(label("a"), label("b")), denial(label("b"), label("c")), Differ, "", 0},
		{"schema-order: the schema's errors of two fields in another order", schemaDenial(label("a"), other), schemaDenial(other, label("a")),
			Agree, "schema-order", 1},
		{"schema-order does not cover another entry", schemaDenial(label("a"), other), schemaDenial(other, label("b")), Differ, "", 0},
		{"schema-order does not cover the validating stage", denial(label("a"), other), denial(other, label("a")), Differ, "", 0},
		{"target-components: v1.18.2 writes no components", withComponents(report.Component{Name: "master", Replicas: 1}),
			withComponents(), Agree, "target-components", 1},
		{"target-components does not cover other replicas", withComponents(report.Component{Name: "master", Replicas: 1}),
			schedResult(placed(false, tc("m1", 1))), Differ, "", 0},
		{"target-components does not cover components that differ", withComponents(report.Component{Name: "master", Replicas: 1}),
			withComponents(report.Component{Name: "master", Replicas: 2}), Differ, "", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			exit := 1
			if tt.lint.Allowed {
				exit = 0
			}
			v := Judge(ok(out(t, tt.lint), exit), []Run{ok(out(t, tt.k), exit)}, Intentional)
			if v.Status != tt.want || len(v.Explained) != tt.explainedN {
				t.Fatalf("status %v (want %v), explained %v, diffs %v", v.Status, tt.want, v.Explained, v.Diffs)
			}
			for _, d := range v.Explained {
				if d.Rule != tt.wantRule {
					t.Errorf("explained by %q, want %q", d.Rule, tt.wantRule)
				}
			}
		})
	}
}

func TestSummaryLine(t *testing.T) {
	vs := []Verdict{{Status: Agree}, {Status: Differ}, {Status: Agree}}
	if got := Count(vs).Summary(); got != "conformance: 3 cases, 2 agree, 1 differ" {
		t.Errorf("Summary() = %q", got)
	}
	vs = append(vs, Verdict{Status: CouldNotRun})
	if got := Count(vs).Summary(); got != "conformance: 4 cases, 2 agree, 1 differ, 1 could not run" {
		t.Errorf("Summary() = %q", got)
	}
	vs = append(vs, Verdict{Status: Agree, BothRefuse: true}, Verdict{Status: Differ, BothRefuse: true})
	if got := Count(vs).Summary(); got != "conformance: 6 cases, 3 agree (1 of them both refuse), 2 differ, 1 could not run" {
		t.Errorf("Summary() = %q", got)
	}
	if !Count(vs).Failed() || Count(vs[:1]).Failed() {
		t.Error("Failed() wrong")
	}
}

func TestSeedsOverflowRule(t *testing.T) {
	const field = "spec.placement.clusterAffinities[0].overflowAffinities"
	seeds := report.FieldError{Field: field, Reason: "FieldValueInvalid", Message: "Invalid value: []: " + seedsOverflowMessage}
	karmada := report.FieldError{Field: field, Reason: "FieldValueInvalid", Message: "Invalid value: []: " + karmadaOverflowMessage}
	other := report.FieldError{Field: "spec.x", Reason: "FieldValueRequired", Message: "Required value"}
	result := func(errs ...report.FieldError) Result {
		r := Result{File: "p.yaml", Kind: "PropagationPolicy", Namespace: "default", Name: "p", Allowed: len(errs) == 0, Errors: errs}
		if len(errs) > 0 {
			r.Admission = &report.Admission{Code: 422, Message: Aggregate(errs), Stage: "validating"}
		}
		return r
	}
	tests := []struct {
		name    string
		lint, k Result
		want    Status
	}{
		{"lint's seeds rule denies Divided + Aggregated, Karmada admits", result(seeds), result(), Agree},
		{"both deny the overflow tiers, each in its own words", result(seeds), result(karmada), Agree},
		{"both deny for another reason as well", result(seeds, other), result(other), Agree},
		{"never the reverse: Karmada denies the overflow tiers, lint admits them", result(), result(karmada), Differ},
		{"another error only lint has", result(seeds, other), result(), Differ},
		{"without the seeds' text the rule does not apply", result(other), result(), Differ},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			exit := func(r Result) int {
				if r.Allowed {
					return 0
				}
				return 1
			}
			v := Judge(ok(out(t, tt.lint), exit(tt.lint)), []Run{ok(out(t, tt.k), exit(tt.k))}, Intentional)
			if v.Status != tt.want {
				t.Fatalf("status %v (want %v), explained %v, diffs %v", v.Status, tt.want, v.Explained, v.Diffs)
			}
			for _, d := range v.Explained {
				if d.Rule != "seeds-overflow-rule" && d.Rule != "exit-follows" {
					t.Errorf("explained by %s: %v", d.Rule, d)
				}
			}
		})
	}
}

func TestAPIServerWarnings(t *testing.T) {
	const unknown = `unknown field "spec.foo"`
	withWarnings := func(ws ...Warning) Result {
		return Result{File: "p.yaml", Kind: "PropagationPolicy", Namespace: "default", Name: "p", Allowed: true, Warnings: ws}
	}
	karmada := func(ws ...string) Result {
		r := withWarnings()
		r.Admission = &report.Admission{Allowed: true, Code: 200, Warnings: ws}
		return r
	}
	tests := []struct {
		name    string
		lint, k Result
		want    Status
	}{
		{"the API server's warning is lint's", withWarnings(Warning{ID: "unknown-field", Message: unknown}), karmada(unknown), Agree},
		{"lint misses the API server's warning", withWarnings(), karmada(unknown), Differ},
		{"lint warns of an unknown field the API server does not", withWarnings(Warning{ID: "unknown-field", Message: unknown}),
			karmada(), Differ},
		{"lint's own warnings are not the API server's", withWarnings(Warning{ID: "policy-shadowed", Message: "x"}), karmada(), Agree},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			lb, err := json.Marshal(Output{Results: []Result{tt.lint}})
			if err != nil {
				t.Fatal(err)
			}
			kb, err := json.Marshal(Output{Results: []Result{tt.k}})
			if err != nil {
				t.Fatal(err)
			}
			if v := Judge(ok(lb, 0), []Run{ok(kb, 0)}, Intentional); v.Status != tt.want {
				t.Fatalf("status %v (want %v), diffs %v", v.Status, tt.want, v.Diffs)
			}
		})
	}
}

// The oracle's snapshot refusals are attributed whatever a fuzzed name or kind holds.
func TestOracleRefusedObjectNames(t *testing.T) {
	tests := []struct {
		stderr string
		want   refusal
	}{
		{"lint: dry run: ResourceBinding we-08-20T09:30:00+02:00: metadata.namespace: Required value",
			refusal{object: "ResourceBinding we-08-20T09:30:00+02:00", name: "we-08-20T09:30:00+02:00"}},
		{"lint: dry run: ResourceBinding shop/web: cannot restore struct from: string",
			refusal{object: "ResourceBinding web", name: "web"}},
		{"lint: dry run: DHost:eployment: metadata.name: Required value: name or generateName is required",
			refusal{object: "DHost:eployment"}},
		{"lint: dry run: Cluster: metadata.name: Required value: name or generateName is required",
			refusal{object: "Cluster"}},
	}
	for _, tt := range tests {
		if got := oracleRefused([]byte(tt.stderr + "\n")); got != tt.want {
			t.Errorf("oracleRefused(%q) = %+v, want %+v", tt.stderr, got, tt.want)
		}
	}
}
