// Package admission checks, against the loopback control plane of tests/e2e/control-plane.sh (both
// Karmada's webhooks and ours registered), that what `kubectl apply` gets from karmada-apiserver is what
// `karmada-policy-webhook lint` promised: the verdict, our denial text where ours denies, and our
// admission warnings as kubectl's `Warning:` lines.
//
// Run by ./dev.sh e2e (package e2eenv).
package admission

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"sigs.k8s.io/yaml"

	"karmada-policy-webhook/tests/e2e/internal/e2eenv"
)

// lintResult is the part of `lint -o json` compared here.
type lintResult struct {
	Results []result `json:"results"`
}

func runLint(t *testing.T, e e2eenv.Env, file string, flags ...string) (lintResult, int) {
	t.Helper()
	args := append(append(append([]string{"lint", "-o", "json"}, e.ReleaseFlags()...), flags...), file)
	out, code := e2eenv.Run(t, e.Lint, args...)
	var r lintResult
	if code != 2 {
		if err := json.Unmarshal([]byte(out), &r); err != nil {
			t.Fatalf("lint -o json %s: %v\n%s", file, err, out)
		}
	}
	return r, code
}

// policyFiles are the shipped examples' policies, the broken examples and lint's fixtures.
func policyFiles(t *testing.T, repo string) []string {
	var files []string
	for _, f := range []string{"dc-groups.yaml", "overflow-onprem-cloud.yaml", "checkout-local-idc.yaml"} {
		files = append(files, filepath.Join(repo, "manifests/examples", f))
	}
	for _, glob := range []string{"manifests/examples/broken/*.yaml", "manifests/examples/ai/policies/*.yaml",
		"tests/data/lint/cases/*.yaml"} {
		m, err := filepath.Glob(filepath.Join(repo, glob))
		if err != nil || len(m) == 0 {
			t.Fatalf("no files match %s", glob)
		}
		files = append(files, m...)
	}
	return files
}

// TestApplyVerdictIsLints compares, per policy, `kubectl apply --dry-run=server` with what lint said of it
// in its file: each policy document (a List's each item) is applied alone, so that its verdict, its
// denial text and its warnings are its own, never the file's.
func TestApplyVerdictIsLints(t *testing.T) {
	e := e2eenv.Get(t)
	for _, file := range policyFiles(t, e.Repo) {
		rel, _ := filepath.Rel(e.Repo, file)
		t.Run(rel, func(t *testing.T) {
			r, lintCode := runLint(t, e, file)
			if lintCode == 2 { // lint refuses the file: kubectl must refuse it before sending any object
				out, code := e.KubectlRun(t, "apply", "--dry-run=server", "-f", file)
				if code == 0 || strings.Contains(out, "(server dry run)") {
					t.Fatalf("lint refuses the file, kubectl applies (some of) it:\n%s", out)
				}
				return
			}
			// Karmada's webhook denies by Karmada's own rules, which lint applies with
			// --allow-aggregated-overflow (the project's overflow rule is stricter, docs/conformance.md): where
			// both webhooks deny, the API server reports whichever answered first.
			upstream, _ := runLint(t, e, file, "--allow-aggregated-overflow")
			policies := splitPolicies(t, file, t.TempDir())
			if len(policies) != len(r.Results) || len(upstream.Results) != len(r.Results) {
				t.Fatalf("the file holds %d policies, lint reports %d: %v", len(policies), len(r.Results), r.Results)
			}
			for i, res := range r.Results {
				p := policies[i]
				if p.kind != res.Kind || p.name != res.Name || (p.namespace != "" && p.namespace != res.Namespace) {
					t.Fatalf("policy %d is %s %s/%s, lint's result %d is %s %s/%s", i, p.kind, p.namespace, p.name, i,
						res.Kind, res.Namespace, res.Name)
				}
				e.EnsureNamespaces(t, res.Namespace)
				t.Run(res.Kind+"/"+res.Name, func(t *testing.T) { comparePolicy(t, e, p.file, res, upstream.Results[i]) })
			}
		})
	}
}

// result is one policy's entry in lint -o json.
type result = struct {
	Kind      string `json:"kind"`
	Namespace string `json:"namespace"`
	Name      string `json:"name"`
	Allowed   bool   `json:"allowed"`
	Errors    []struct{ Field, Reason, Message string }
	Warnings  []struct{ ID, Field, Message string }
}

// comparePolicy applies one policy (file) and compares the outcome with lint's result for it: admitted
// when lint allows it; refused when lint denies it, by the one that lint says refuses it, with lint's
// errors as the text; lint's admission warnings as kubectl's Warning: lines, whole.
func comparePolicy(t *testing.T, e e2eenv.Env, file string, res, upstream result) {
	out, code := e.KubectlRun(t, "apply", "--dry-run=server", "-f", file)
	if res.Allowed {
		if code != 0 {
			t.Fatalf("lint allows, kubectl apply fails:\n%s", out)
		}
	} else {
		if code == 0 {
			t.Fatalf("lint denies (%s), kubectl apply succeeds:\n%s", denial(res), out)
		}
		if !checkDenial(t, res, upstream, out) {
			return // refused by the API server itself: no webhook ran, so no admission warnings
		}
	}
	var lines []string
	for _, line := range strings.Split(out, "\n") {
		if w, ok := strings.CutPrefix(line, "Warning: "); ok {
			lines = append(lines, w)
		}
	}
	for _, w := range res.Warnings {
		if lintOnly[w.ID] {
			continue
		}
		want := servedWarning(w.Field, w.Message)
		if !slices.Contains(lines, want) {
			t.Errorf("our admission warning %q is not a Warning: line of kubectl's:\n%s", want, out)
		}
	}
}

// lintOnly are lint's notes that serve never sends: what follows a refusal before the webhooks run.
var lintOnly = map[string]bool{"denied-after-schema": true, "denied-after-decode": true}

// errorText is one of lint's errors as the user reads it: field.Error's "field: message"; one without a
// field, or with the API server's own BadRequest reason (a strict decoding error naming the field itself),
// is its message alone (tests/conformance/internal/compare Render, in another module).
func errorText(field, reason, message string) string {
	if field == "" || reason == "BadRequest" {
		return message
	}
	return field + ": " + message
}

// denial is the message a validating webhook (Karmada's or ours, which answers the same) denies with for
// lint's errors: ErrorList.ToAggregate() — duplicates dropped, one error bare, several in brackets.
func denial(res result) string {
	var kept []string
	for _, e := range res.Errors {
		if s := errorText(e.Field, e.Reason, e.Message); !slices.Contains(kept, s) {
			kept = append(kept, s)
		}
	}
	if len(kept) == 1 {
		return kept[0]
	}
	return "[" + strings.Join(kept, ", ") + "]"
}

// strictDecoding is the API server's text for a body with unknown fields under kubectl's default strict
// field validation; lint words each field's entry as if alone.
var strictDecoding = regexp.MustCompile(`^(.* cannot be handled as a [A-Za-z]+: strict decoding error: )(.*)$`)

// strictDenial is the one BadRequest the API server stops at for lint's strict decoding entries:
// "<prefix>: strict decoding error: e1, e2" (tests/conformance/internal/compare LintMessage); "" when lint
// has none.
func strictDenial(res result) string {
	prefix, parts := "", []string(nil)
	for _, e := range res.Errors {
		if m := strictDecoding.FindStringSubmatch(e.Message); e.Reason == "BadRequest" && m != nil {
			if prefix == "" {
				prefix = m[1]
			}
			parts = append(parts, m[2])
		}
	}
	if prefix == "" {
		return ""
	}
	return prefix + strings.Join(parts, ", ")
}

// webhookDenial is kube-apiserver's text for a webhook's denial, as kubectl prints it.
var webhookDenial = regexp.MustCompile(`admission webhook "([^"]+)" denied the request: (.*)`)

// checkDenial checks who refused and with what text; it returns whether a webhook did (so the webhooks'
// warnings came back). The refusal must be one of:
//   - a validating (or, for a decode error, Karmada's mutating) webhook for the policy's kind: ours
//     (propagationpolicy.policy-webhook.karmada.io) denying with exactly lint's errors (denial), or
//     Karmada's (propagationpolicy.karmada.io) with exactly the errors of lint under Karmada's own rules
//     (upstream: lint --allow-aggregated-overflow), which must deny too;
//   - the API server's strict decoding (BadRequest), with exactly lint's unknown fields (strictDenial);
//   - the API server's own validation (The Kind "name" is invalid), with exactly lint's errors as causes.
func checkDenial(t *testing.T, res, upstream result, out string) bool {
	t.Helper()
	if m := webhookDenial.FindStringSubmatch(out); m != nil {
		hook := strings.ToLower(res.Kind)
		switch m[1] {
		case hook + ".policy-webhook.karmada.io":
			if want := denial(res); m[2] != want {
				t.Errorf("our webhook %q denied with\n  %s\nlint's errors say\n  %s", m[1], m[2], want)
			}
		case hook + ".karmada.io":
			if upstream.Allowed {
				t.Errorf("Karmada's webhook %q denied, but lint under Karmada's rules allows the policy:\n%s", m[1], out)
			} else if want := denial(upstream); m[2] != want {
				t.Errorf("Karmada's webhook %q denied with\n  %s\nlint's errors under Karmada's rules say\n  %s", m[1],
					m[2], want)
			}
		default:
			t.Errorf("denied by webhook %q, not Karmada's or ours for a %s:\n%s", m[1], res.Kind, out)
		}
		return true
	}
	if want := strictDenial(res); want != "" {
		for _, line := range strings.Split(out, "\n") {
			if strings.HasPrefix(line, "Error from server (BadRequest): ") && strings.HasSuffix(line, ": "+want) {
				return false
			}
		}
		t.Errorf("lint's strict decoding error\n  %s\nis not the API server's BadRequest:\n%s", want, out)
		return false
	}
	prefix := fmt.Sprintf("The %s %q is invalid: ", res.Kind, res.Name)
	i := strings.Index(out, prefix)
	if i < 0 {
		t.Errorf("lint denies (%s); kubectl's refusal is neither a webhook's denial nor the API server's:\n%s",
			denial(res), out)
		return false
	}
	// kubectl prints one cause after the prefix, several as "* cause" lines below it (kubectl's cmd/util
	// checkErr, MultilineError), duplicates dropped (statusCausesToAggrError).
	var causes []string
	first, more, _ := strings.Cut(out[i+len(prefix):], "\n")
	if strings.TrimSpace(first) != "" {
		causes = append(causes, first)
	} else {
		for _, line := range strings.Split(more, "\n") {
			if c, ok := strings.CutPrefix(line, "* "); ok {
				causes = append(causes, c)
			}
		}
	}
	var want []string
	for _, e := range res.Errors {
		if s := e.Field + ": " + e.Message; !slices.Contains(want, s) {
			want = append(want, s)
		}
	}
	slices.Sort(causes)
	slices.Sort(want)
	if !slices.Equal(causes, want) {
		t.Errorf("the API server refused with\n  %s\nlint's errors are\n  %s\n%s", strings.Join(causes, "\n  "),
			strings.Join(want, "\n  "), out)
	}
	return false
}

// maxWarningRunes is serve's cap on one warning: kube-apiserver's own per-warning cut (truncateItemRunes).
const maxWarningRunes = 256

// servedWarning is the Warning: line serve sends for a warning: "field: message", control characters as
// spaces, trimmed; a longer one cut at the last space that leaves a quarter of the room or more (else hard)
// to make room for "…" (webhook/admission/response.cpp clean_warning).
func servedWarning(field, message string) string {
	text := message
	if field != "" {
		text = field + ": " + message // field.Warning's str()
	}
	runes := []rune(text)
	for i, r := range runes {
		if unicode.IsControl(r) {
			runes[i] = ' '
		}
	}
	if len(runes) > maxWarningRunes {
		room := string(runes[:maxWarningRunes-1]) // what fits beside "…"
		cut := len(room)
		if space := strings.LastIndexByte(room, ' '); space >= len(room)-len(room)/4 {
			cut = space
		}
		runes = []rune(strings.TrimRight(room[:cut], " ") + "…")
	}
	return strings.Trim(string(runes), " ")
}

// onePolicy is one policy of a file, written alone to its own file.
type onePolicy struct{ kind, namespace, name, file string }

// splitPolicies writes each policy of a file (each document, each item of a List) to a file of its own in
// dir, in the file's order, as kubectl reads them (k8s.io/apimachinery's YAML reader); documents that are
// not policies are left out, as lint leaves them out of its results.
func splitPolicies(t *testing.T, file, dir string) []onePolicy {
	t.Helper()
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []onePolicy
	add := func(obj map[string]any, raw []byte) {
		u := unstructured.Unstructured{Object: obj}
		if !strings.HasPrefix(u.GetAPIVersion(), "policy.karmada.io/") ||
			(u.GetKind() != "PropagationPolicy" && u.GetKind() != "ClusterPropagationPolicy") {
			return
		}
		name := filepath.Join(dir, fmt.Sprintf("policy-%d.yaml", len(out)))
		if err := os.WriteFile(name, raw, 0o644); err != nil {
			t.Fatal(err)
		}
		out = append(out, onePolicy{u.GetKind(), u.GetNamespace(), u.GetName(), name})
	}
	r := utilyaml.NewYAMLReader(bufio.NewReader(f))
	for {
		doc, err := r.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		var obj map[string]any
		if err := yaml.Unmarshal(doc, &obj); err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		items, isList := obj["items"].([]any)
		if !isList {
			if obj != nil {
				add(obj, doc) // the document as written: its text is what kubectl sends
			}
			continue
		}
		for _, it := range items {
			m, _ := it.(map[string]any)
			b, err := json.Marshal(m)
			if err != nil {
				t.Fatal(err)
			}
			add(m, b)
		}
	}
	return out
}
