package admission

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/yaml"

	"karmada-policy-webhook/tests/conformance/internal/report"
)

// crdDir finds Karmada's policy CRDs in the module the test is built with.
func crdDir(t *testing.T) string {
	t.Helper()
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "github.com/karmada-io/karmada").Output()
	if err != nil {
		t.Fatalf("go list -m github.com/karmada-io/karmada: %v", err)
	}
	return filepath.Join(strings.TrimSpace(string(out)), "charts", "karmada", "_crds", "bases", "policy")
}

func newAdmitter(t *testing.T) *Admitter {
	t.Helper()
	a, err := New(crdDir(t))
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	return a
}

func object(t *testing.T, text string) *unstructured.Unstructured {
	t.Helper()
	u := &unstructured.Unstructured{}
	if err := yaml.Unmarshal([]byte(text), &u.Object); err != nil {
		t.Fatalf("test YAML: %v", err)
	}
	return u
}

func brokenExample(t *testing.T, name string) *unstructured.Unstructured {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "..", "..", "manifests", "examples", "broken", name))
	if err != nil {
		t.Fatal(err)
	}
	return object(t, string(data))
}

const validPolicy = `
apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata:
  name: nginx
spec:
  resourceSelectors:
    - apiVersion: apps/v1
      kind: Deployment
      name: nginx
  placement:
    clusterAffinities:
      - affinityName: primary
        clusterNames: [member1]
      - affinityName: backup
        clusterNames: [member2]
    replicaScheduling:
      replicaSchedulingType: Divided
`

func TestValidPolicyIsAllowedAndMutated(t *testing.T) {
	a := newAdmitter(t)
	r, err := a.Admit(context.Background(), object(t, validPolicy), "default", Strict, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !r.Allowed || len(r.Errors) != 0 || r.Admission.Code != 200 || r.Admission.Stage != "" {
		t.Fatalf("want allowed with code 200, got %+v", r)
	}
	stored := r.Object.Object
	pref, _, _ := unstructured.NestedString(stored, "spec", "placement", "replicaScheduling", "replicaDivisionPreference")
	if pref != "Weighted" {
		t.Errorf("mutating handler default replicaDivisionPreference = %q, want Weighted", pref)
	}
	ns, _, _ := unstructured.NestedString(stored, "spec", "resourceSelectors", "0", "namespace")
	sel, _, _ := unstructured.NestedSlice(stored, "spec", "resourceSelectors")
	if len(sel) == 1 {
		ns, _, _ = unstructured.NestedString(sel[0].(map[string]any), "namespace")
	}
	if ns != "default" {
		t.Errorf("resource selector namespace = %q, want the request's namespace default", ns)
	}
	if _, ok := r.Object.GetLabels()["propagationpolicy.karmada.io/permanent-id"]; !ok {
		t.Errorf("no permanent-id label after the mutating handler: %v", r.Object.GetLabels())
	}
	if len(r.Object.GetFinalizers()) != 1 {
		t.Errorf("finalizers = %v, want Karmada's one", r.Object.GetFinalizers())
	}
	if p, _, _ := unstructured.NestedString(stored, "spec", "conflictResolution"); p != "Abort" {
		t.Errorf("CRD default conflictResolution = %q, want Abort", p)
	}
}

func TestBrokenExamplesAreDeniedWithKarmadasMessage(t *testing.T) {
	tests := []struct {
		file   string
		fields []string
		detail string // the end of the first error's message
	}{
		{"affinity-and-affinities.yaml", []string{"spec.placement"}, "clusterAffinities cannot co-exist with clusterAffinity"},
		{"duplicate-affinity-names.yaml", []string{"spec.placement.clusterAffinities"}, "each affinity term in a policy must have a unique name"},
		{"overflow-duplicated.yaml", []string{"spec.placement.clusterAffinities[0].overflowAffinities"},
			"overflowAffinities can only be used together with dynamic weight or aggregated scheduling"},
		{"overflow-without-inline-affinity.yaml", []string{"spec.placement.clusterAffinities[0].overflowAffinities",
			"spec.placement.clusterAffinities[0].overflowAffinities[0].affinityName"},
			"overflowAffinities can only be used together with the inline ClusterAffinity"},
	}
	a := newAdmitter(t)
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			r, err := a.Admit(context.Background(), brokenExample(t, tt.file), "default", Strict, nil)
			if err != nil {
				t.Fatal(err)
			}
			if r.Allowed || r.Admission.Stage != StageValidating || r.Admission.Code != 403 {
				t.Fatalf("want a 403 denial by the validating handler, got %+v", r.Admission)
			}
			var fields []string
			for _, e := range r.Errors {
				fields = append(fields, e.Field)
			}
			if strings.Join(fields, " ") != strings.Join(tt.fields, " ") {
				t.Errorf("fields = %v, want %v", fields, tt.fields)
			}
			if !strings.HasSuffix(r.Errors[0].Message, tt.detail) {
				t.Errorf("message %q does not end in %q", r.Errors[0].Message, tt.detail)
			}
			if got := aggregate(r.Errors); got != r.Admission.Message {
				t.Errorf("errors aggregate to\n%q\nthe handler answered\n%q", got, r.Admission.Message)
			}
		})
	}
}

// aggregate is field.ErrorList.ToAggregate().Error() rebuilt from the report's entries.
func aggregate(errs []report.FieldError) string {
	var msgs []string
	for _, e := range errs {
		msgs = append(msgs, e.Field+": "+e.Message)
	}
	if len(msgs) == 1 {
		return msgs[0]
	}
	return "[" + strings.Join(msgs, ", ") + "]"
}

const typoPolicy = `
apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata:
  name: nginx
spec:
  resourceSelectors:
    - apiVersion: apps/v1
      kind: Deployment
  placement:
    clusterAfinity:
      clusterNames: [member1]
`

func TestUnknownFieldFollowsFieldValidation(t *testing.T) {
	const text = `unknown field "spec.placement.clusterAfinity"`
	tests := []struct {
		mode     Validation
		allowed  bool
		code     int32
		warnings []string
	}{
		{Strict, false, 400, nil},
		{Warn, true, 200, []string{text}},
		{Ignore, true, 200, nil},
	}
	a := newAdmitter(t)
	for _, tt := range tests {
		t.Run(string(tt.mode), func(t *testing.T) {
			r, err := a.Admit(context.Background(), object(t, typoPolicy), "default", tt.mode, nil)
			if err != nil {
				t.Fatal(err)
			}
			if r.Allowed != tt.allowed || r.Admission.Code != tt.code {
				t.Fatalf("allowed=%v code=%d, want %v %d (%+v)", r.Allowed, r.Admission.Code, tt.allowed, tt.code, r.Admission)
			}
			if strings.Join(r.Admission.Warnings, "|") != strings.Join(tt.warnings, "|") {
				t.Errorf("warnings = %q, want %q", r.Admission.Warnings, tt.warnings)
			}
			if tt.mode != Strict {
				if _, found, _ := unstructured.NestedMap(r.Object.Object, "spec", "placement", "clusterAfinity"); found {
					t.Errorf("the unknown field was not pruned")
				}
				return
			}
			want := `PropagationPolicy in version "v1alpha1" cannot be handled as a PropagationPolicy: strict decoding error: ` + text
			if r.Admission.Message != want || r.Admission.Stage != StageDecode {
				t.Errorf("message = %q at %q, want %q at decode", r.Admission.Message, r.Admission.Stage, want)
			}
			if len(r.Errors) != 1 || r.Errors[0].Field != "spec.placement.clusterAfinity" || r.Errors[0].Message != want ||
				r.Errors[0].Reason != "BadRequest" {
				t.Errorf("errors = %+v", r.Errors)
			}
		})
	}
}

func TestSchemaAndMetadataErrors(t *testing.T) {
	tests := []struct {
		name   string
		patch  func(u *unstructured.Unstructured)
		field  string
		reason string
	}{
		{"enum", func(u *unstructured.Unstructured) {
			_ = unstructured.SetNestedField(u.Object, "Split", "spec", "placement", "replicaScheduling", "replicaSchedulingType")
		}, "spec.placement.replicaScheduling.replicaSchedulingType", "FieldValueNotSupported"},
		{"name", func(u *unstructured.Unstructured) { u.SetName("Nginx_1") }, "metadata.name", "FieldValueInvalid"},
		{"required", func(u *unstructured.Unstructured) {
			unstructured.RemoveNestedField(u.Object, "spec", "resourceSelectors")
		}, "spec.resourceSelectors", "FieldValueRequired"},
	}
	a := newAdmitter(t)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			u := object(t, validPolicy)
			tt.patch(u)
			r, err := a.Admit(context.Background(), u, "default", Strict, nil)
			if err != nil {
				t.Fatal(err)
			}
			if r.Allowed || r.Admission.Stage != StageSchema || r.Admission.Code != 422 {
				t.Fatalf("want a 422 at the schema stage, got %+v", r.Admission)
			}
			if len(r.Errors) == 0 || r.Errors[0].Field != tt.field || r.Errors[0].Reason != tt.reason {
				t.Errorf("errors = %+v, want %s at %s first", r.Errors, tt.reason, tt.field)
			}
			if !strings.Contains(r.Admission.Message, `PropagationPolicy.policy.karmada.io "`+u.GetName()+`" is invalid`) {
				t.Errorf("message = %q", r.Admission.Message)
			}
		})
	}
}

func TestClusterPolicyIsClusterScoped(t *testing.T) {
	u := object(t, strings.Replace(validPolicy, "kind: PropagationPolicy", "kind: ClusterPropagationPolicy", 1))
	u.SetNamespace("ignored")
	a := newAdmitter(t)
	r, err := a.Admit(context.Background(), u, "ignored", Strict, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !r.Allowed || r.Object.GetNamespace() != "" {
		t.Fatalf("want allowed with the namespace cleared, got %+v ns=%q", r.Admission, r.Object.GetNamespace())
	}
	if _, ok := r.Object.GetLabels()["clusterpropagationpolicy.karmada.io/permanent-id"]; !ok {
		t.Errorf("no permanent-id label: %v", r.Object.GetLabels())
	}
}

func TestParseValidation(t *testing.T) {
	for in, want := range map[string]Validation{"strict": Strict, "true": Strict, "warn": Warn, "ignore": Ignore, "false": Ignore} {
		if got, err := ParseValidation(in); err != nil || got != want {
			t.Errorf("ParseValidation(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	if _, err := ParseValidation("yes"); err == nil {
		t.Error("ParseValidation(yes) accepted")
	}
}

func TestBodyIsWhatKubectlApplySends(t *testing.T) {
	a := newAdmitter(t)
	u := object(t, validPolicy+"  nosuchfield: null\n")
	r, err := a.Admit(context.Background(), u, "default", Strict, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !r.Allowed {
		t.Fatalf("a null-valued unknown field is pruned by kubectl apply before sending; got %+v", r.Admission)
	}
	if _, ok := r.Object.GetAnnotations()["kubectl.kubernetes.io/last-applied-configuration"]; !ok {
		t.Errorf("no last-applied-configuration annotation: %v", r.Object.GetAnnotations())
	}
}

func TestRegistryWarningsAreReturned(t *testing.T) {
	a := newAdmitter(t)
	u := object(t, validPolicy)
	u.SetFinalizers([]string{"unqualified"})
	r, err := a.Admit(context.Background(), u, "default", Strict, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !r.Allowed || len(r.Admission.Warnings) != 1 || !strings.Contains(r.Admission.Warnings[0], `"unqualified"`) {
		t.Errorf("want allowed with the apiserver's finalizer-name warning, got %+v", r.Admission)
	}
}

func TestUnknownFieldPathWithQuotes(t *testing.T) {
	a := newAdmitter(t)
	u := object(t, validPolicy)
	_ = unstructured.SetNestedField(u.Object, "x", "spec", `a"b`)
	r, err := a.Admit(context.Background(), u, "default", Strict, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Errors) != 1 || r.Errors[0].Field != `spec.a"b` {
		t.Errorf("errors = %+v, want one at spec.a\"b", r.Errors)
	}
}

// The mutating webhook runs before the schema is checked (karmada-apiserver's order), and Karmada's
// handler decodes the object into its Go types and patches back what it marshals.
func TestMutatingHandlerRunsBeforeTheSchema(t *testing.T) {
	tests := []struct {
		name   string
		text   string
		stage  string
		code   int32
		field  string
		detail string
	}{
		{"no spec: the handler's round trip adds it", "apiVersion: policy.karmada.io/v1alpha1\nkind: PropagationPolicy\nmetadata:\n  name: a\n",
			StageSchema, 422, "spec.resourceSelectors", "Required value"},
		{"a string in an int32: the handler cannot decode it", validPolicy + "  priority: high\n",
			StageMutating, 400, "", "json: cannot unmarshal string into Go struct field PropagationSpec.spec.priority of type int32"},
	}
	a := newAdmitter(t)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := a.Admit(context.Background(), object(t, tt.text), "default", Strict, nil)
			if err != nil {
				t.Fatal(err)
			}
			if r.Allowed || r.Admission.Stage != tt.stage || r.Admission.Code != tt.code {
				t.Fatalf("want %d at %s, got %+v", tt.code, tt.stage, r.Admission)
			}
			if len(r.Errors) != 1 || r.Errors[0].Field != tt.field || r.Errors[0].Message != tt.detail {
				t.Errorf("errors = %+v, want %q at %q", r.Errors, tt.detail, tt.field)
			}
		})
	}
}

// kubectl apply of a policy the server holds is an UPDATE: Karmada's validating handler refuses a new
// schedulerName (validating.go validateUpdate) and admits the rest; the stored permanent-id label is kept.
func TestUpdateKeepsThePermanentIDAndRefusesANewSchedulerName(t *testing.T) {
	a := newAdmitter(t)
	created, err := a.Admit(context.Background(), object(t, validPolicy), "default", Strict, nil)
	if err != nil || !created.Allowed {
		t.Fatalf("create: %v %+v", err, created)
	}
	same, err := a.Admit(context.Background(), object(t, validPolicy), "default", Strict, created.Object)
	if err != nil || !same.Allowed {
		t.Fatalf("unchanged update: %v %+v", err, same)
	}
	if got, want := same.Object.GetLabels(), created.Object.GetLabels(); got["propagationpolicy.karmada.io/permanent-id"] !=
		want["propagationpolicy.karmada.io/permanent-id"] {
		t.Errorf("permanent id %q, want the stored %q", got, want)
	}
	renamed := object(t, validPolicy)
	if err := unstructured.SetNestedField(renamed.Object, "other-scheduler", "spec", "schedulerName"); err != nil {
		t.Fatal(err)
	}
	r, err := a.Admit(context.Background(), renamed, "default", Strict, created.Object)
	if err != nil {
		t.Fatal(err)
	}
	if r.Allowed || r.Admission.Stage != StageValidating || r.Admission.Message != "the schedulerName should not be updated" {
		t.Fatalf("want the validating handler's update denial, got %+v", r.Admission)
	}
	// The same object as a CREATE is admitted.
	if r, err := a.Admit(context.Background(), object(t, validPolicy), "default", Strict, nil); err != nil || !r.Allowed {
		t.Fatalf("create: %v %+v", err, r)
	}
}
