// Package admission checks, against the loopback control plane of tests/e2e/control-plane.sh (both
// Karmada's webhooks and ours registered), that what `kubectl apply` gets from karmada-apiserver is what
// `karmada-policy-webhook lint` promised: the verdict, our denial text where ours denies, and our
// admission warnings as kubectl's `Warning:` lines.
//
// Run by ./dev.sh e2e (package e2eenv).
package admission

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"karmada-policy-webhook/tests/e2e/internal/e2eenv"
)

// lintResult is the part of `lint -o json` compared here.
type lintResult struct {
	Results []struct {
		Kind      string `json:"kind"`
		Namespace string `json:"namespace"`
		Name      string `json:"name"`
		Allowed   bool   `json:"allowed"`
		Errors    []struct{ Field, Message string }
		Warnings  []struct{ ID, Field, Message string }
	} `json:"results"`
}

func runLint(t *testing.T, e e2eenv.Env, file string) (lintResult, int) {
	t.Helper()
	out, code := e2eenv.Run(t, e.Lint, "lint", "-o", "json", file)
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

func TestApplyVerdictIsLints(t *testing.T) {
	e := e2eenv.Get(t)
	for _, file := range policyFiles(t, e.Repo) {
		rel, _ := filepath.Rel(e.Repo, file)
		t.Run(rel, func(t *testing.T) {
			r, lintCode := runLint(t, e, file)
			for _, res := range r.Results {
				e.EnsureNamespaces(t, res.Namespace)
			}
			// Everything admission does, nothing stored.
			out, kubectlCode := e.KubectlRun(t, "apply", "--dry-run=server", "-f", file)
			switch {
			case lintCode == 0 && kubectlCode != 0:
				t.Fatalf("lint allows, kubectl apply fails:\n%s", out)
			case lintCode == 1 && kubectlCode == 0:
				t.Fatalf("lint denies, kubectl apply succeeds:\n%s", out)
			case lintCode == 2 && kubectlCode == 0:
				t.Fatalf("lint refuses the file, kubectl applies it:\n%s", out)
			}
			for _, res := range r.Results {
				checkOurs(t, res.Allowed, res.Errors, out)
				if kubectlCode != 0 && !strings.Contains(out, ourDenial) {
					continue // refused before our webhook was called: no admission warnings
				}
				for _, w := range res.Warnings {
					// denied-after-schema is lint's own note on a schema refusal, never serve's.
					if w.ID != "denied-after-schema" && !hasWarning(out, w.Message) {
						t.Errorf("our admission warning %q is not among kubectl's Warning: lines:\n%s", w.Message, out)
					}
				}
			}
		})
	}
}

// ourDenial starts kube-apiserver's text for a denial by one of our webhooks (their names end so).
const ourDenial = `policy-webhook.karmada.io" denied the request`

// checkOurs: where our webhook denied (its name in the output), the text kubectl shows holds our first
// error's message.
func checkOurs(t *testing.T, allowed bool, errs []struct{ Field, Message string }, out string) {
	t.Helper()
	if allowed || len(errs) == 0 || !strings.Contains(out, ourDenial) {
		return
	}
	if !strings.Contains(out, errs[0].Message) {
		t.Errorf("our webhook denied, but kubectl's output lacks lint's message %q:\n%s", errs[0].Message, out)
	}
}

// hasWarning: kubectl prints each admission warning as "Warning: TEXT"; ours are "field: message",
// truncated by serve to the API server's limit, so the message's start is looked for.
func hasWarning(out, message string) bool {
	probe := message
	if len(probe) > 40 {
		probe = probe[:40]
	}
	for _, line := range strings.Split(out, "\n") {
		if strings.HasPrefix(line, "Warning: ") && strings.Contains(line, probe) {
			return true
		}
	}
	return false
}
