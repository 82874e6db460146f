package admission

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"karmada-policy-webhook/tests/e2e/internal/e2eenv"
)

// updatePolicy is a policy created once and then edited; SCHEDULER is replaced.
const updatePolicy = `apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata:
  name: e2e-update-rules
  namespace: default
spec:
  schedulerName: SCHEDULER
  resourceSelectors:
    - apiVersion: apps/v1
      kind: Deployment
      name: e2e-update-rules
  placement:
    clusterAffinity:
      clusterNames: [member1]
`

// TestUpdateRulesThroughApply: an edit that Karmada's UPDATE rules refuse (schedulerName is immutable)
// is refused through `kubectl apply`, with the rule's text; an allowed edit goes through.
func TestUpdateRulesThroughApply(t *testing.T) {
	e := e2eenv.Get(t)
	dir := t.TempDir()
	write := func(name, scheduler string) string {
		f := filepath.Join(dir, name)
		if err := os.WriteFile(f, []byte(strings.ReplaceAll(updatePolicy, "SCHEDULER", scheduler)), 0o644); err != nil {
			t.Fatal(err)
		}
		return f
	}
	created := write("created.yaml", "default-scheduler")
	if out, code := e.KubectlRun(t, "apply", "-f", created); code != 0 {
		t.Fatalf("creating the policy: %s", out)
	}
	defer e.KubectlRun(t, "delete", "-f", created)

	// lint agrees on the file itself: it is valid on its own; the rule needs the stored object.
	if out, code := e2eenv.Run(t, e.Lint, append(append([]string{"lint"}, e.ReleaseFlags()...),
		write("edited.yaml", "other-scheduler"))...); code != 0 {
		t.Fatalf("lint refuses the edited file alone (it should not: UPDATE rules need the old object):\n%s", out)
	}
	out, code := e.KubectlRun(t, "apply", "-f", filepath.Join(dir, "edited.yaml"))
	if code == 0 || !strings.Contains(out, "the schedulerName should not be updated") {
		t.Fatalf("changing schedulerName: want a denial with Karmada's text, got exit %d:\n%s", code, out)
	}
	// An edit of a mutable field through the same path is admitted.
	allowed := strings.ReplaceAll(updatePolicy, "SCHEDULER", "default-scheduler")
	allowed = strings.ReplaceAll(allowed, "[member1]", "[member1, member2]")
	f := filepath.Join(dir, "allowed.yaml")
	if err := os.WriteFile(f, []byte(allowed), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, code := e.KubectlRun(t, "apply", "-f", f); code != 0 {
		t.Fatalf("an allowed edit is refused:\n%s", out)
	}
}
