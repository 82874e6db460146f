package live

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"karmada-policy-webhook/tests/e2e/internal/e2eenv"
)

// releaseReport is the part of plan -o json that says which Karmada release answered, and the policy's
// verdict.
type releaseReport struct {
	Karmada struct {
		Version   string `json:"version"`
		DecidedBy string `json:"decidedBy"`
	} `json:"karmada"`
	Results []struct {
		Name     string `json:"name"`
		Allowed  bool   `json:"allowed"`
		Errors   []struct{ Message string }
		Warnings []struct{ ID, Message string }
	} `json:"results"`
}

// TestPlanPicksThePlanesRelease (issue 37): plan --kubeconfig without --karmada-version answers for the
// release the plane runs, read off its PropagationPolicy CRD, and says so; on an older plane the overflow
// example is refused as that release's API server refuses it (an unknown field, with the release that
// added it); --karmada-version still wins, with a warning naming the server's release.
func TestPlanPicksThePlanesRelease(t *testing.T) {
	e := e2eenv.Get(t)
	overflow := filepath.Join(e.Repo, "manifests/examples/overflow-onprem-cloud.yaml")
	const unknown = `strict decoding error: unknown field "spec.placement.clusterAffinities[0].overflowAffinities"`

	t.Run("-o json", func(t *testing.T) {
		out, code := runSplit(t, e.Lint, "plan", "-o", "json", "--kubeconfig", e.Kubeconfig, overflow)
		if code > 1 {
			t.Fatalf("plan exited %d:\n%s%s", code, out.stdout, out.stderr)
		}
		var r releaseReport
		if err := json.Unmarshal([]byte(out.stdout), &r); err != nil {
			t.Fatalf("plan -o json: %v\n%s", err, out.stdout)
		}
		if r.Karmada.Version != e.Release || !strings.HasPrefix(r.Karmada.DecidedBy, "the server: ") {
			t.Errorf("plan answered for Karmada %s (decided by %q); the plane runs %s, which its CRD shows",
				r.Karmada.Version, r.Karmada.DecidedBy, e.Release)
		}
		if len(r.Results) != 1 || r.Results[0].Name != "nginx-overflow" {
			t.Fatalf("want one result, for nginx-overflow: %+v", r.Results)
		}
		res := r.Results[0]
		var errs, later []string
		for _, x := range res.Errors {
			errs = append(errs, x.Message)
		}
		for _, w := range res.Warnings {
			if w.ID == "field-of-later-release" {
				later = append(later, w.Message)
			}
		}
		refused := !res.Allowed && strings.Contains(strings.Join(errs, "\n"), unknown)
		if !e.Older() {
			if refused || len(later) != 0 {
				t.Errorf("Karmada %s defines overflowAffinities, yet plan refuses it: %v %v", e.Release, errs, later)
			}
			return
		}
		if !refused {
			t.Errorf("Karmada %s has no overflowAffinities: want the policy refused with %s; allowed=%v, errors %v",
				e.Release, unknown, res.Allowed, errs)
		}
		if len(later) != 1 || !strings.Contains(later[0], "added in Karmada v1.18.0") {
			t.Errorf("want one field-of-later-release warning saying the field is added in Karmada v1.18.0: %v", later)
		}
	})

	t.Run("text", func(t *testing.T) {
		out, code := runSplit(t, e.Lint, "plan", "--kubeconfig", e.Kubeconfig, overflow)
		if code > 1 {
			t.Fatalf("plan exited %d:\n%s%s", code, out.stdout, out.stderr)
		}
		// Noted whenever the release was not the default's by default: here the server decided it.
		note := "note: answers for Karmada " + e.Release + " (the server: the PropagationPolicy CRD on the server "
		if !strings.Contains(out.stdout, note) {
			t.Errorf("the report does not say which release answered and why (%q...):\n%s", note, out.stdout)
		}
	})

	t.Run("--karmada-version wins, with a warning", func(t *testing.T) {
		flag := "v1.16" // on the default plane: any other supported release
		if e.Older() {
			flag = e.Default
		}
		out, code := runSplit(t, e.Lint, "plan", "-o", "json", "--karmada-version", flag, "--kubeconfig", e.Kubeconfig, overflow)
		if code > 1 {
			t.Fatalf("plan exited %d:\n%s%s", code, out.stdout, out.stderr)
		}
		var r releaseReport
		if err := json.Unmarshal([]byte(out.stdout), &r); err != nil {
			t.Fatalf("plan -o json: %v\n%s", err, out.stdout)
		}
		if r.Karmada.DecidedBy != "--karmada-version "+flag || r.Karmada.Version == e.Release {
			t.Errorf("with --karmada-version %s plan answered for %s (decided by %q)", flag, r.Karmada.Version, r.Karmada.DecidedBy)
		}
		warning := "but the server looks like Karmada " + e.Release
		if !strings.Contains(out.stderr, warning) {
			t.Errorf("want a warning %q on stderr:\n%s", warning, out.stderr)
		}
	})
}
