package live

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// claimed are the claims of the summary held by the policies linted (those of its results), re-encoded
// canonically: with --kubeconfig lint reads only the templates the given policies select, from an exported
// file it is given every Deployment, so the claims of workloads other policies hold differ by design.
func claimed(t *testing.T, doc string) string {
	t.Helper()
	type ref struct{ Kind, Namespace, Name string }
	var lo struct {
		Summary struct {
			Claims []struct {
				Policy *ref `json:"policy"`
			} `json:"claims"`
		} `json:"summary"`
		Results []ref `json:"results"`
	}
	var raw struct {
		Summary struct {
			Claims []any `json:"claims"`
		} `json:"summary"`
	}
	if err := json.Unmarshal([]byte(doc), &lo); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(doc), &raw); err != nil {
		t.Fatal(err)
	}
	linted := map[ref]bool{}
	for _, r := range lo.Results {
		linted[r] = true
	}
	var out []any
	for i, c := range lo.Summary.Claims {
		if c.Policy != nil && linted[*c.Policy] {
			out = append(out, raw.Summary.Claims[i])
		}
	}
	b, err := json.MarshalIndent(out, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// lintLiveIsExported: for every example policy file, lint --kubeconfig gives the results (and the claims
// of the workloads claimed) that lint gives on `kubectl get ... -o yaml` exports of the same objects.
func lintLiveIsExported(t *testing.T, x *examples) {
	dir := t.TempDir()
	files := []string{
		"--clusters", x.export(t, dir, "clusters.yaml", "clusters"),
		"--workloads", x.export(t, dir, "workloads.yaml", "deployments", "-A"),
		"--bindings", x.export(t, dir, "rb.yaml", "resourcebindings", "-A"),
		"--bindings", x.export(t, dir, "crb.yaml", "clusterresourcebindings"),
	}
	cases := map[string][]string{"all three": x.policies}
	for _, policy := range x.policies {
		cases[filepath.Base(policy)] = []string{policy}
	}
	for name, policies := range cases {
		t.Run(name, func(t *testing.T) {
			live := x.run(t, append([]string{"lint", "-o", "json", "--kubeconfig", x.e.Kubeconfig}, policies...)...)
			exported := x.run(t, append(append([]string{"lint", "-o", "json"}, files...), policies...)...)
			if l, f := field(t, live, "results"), field(t, exported, "results"); l != f {
				t.Errorf("results differ\n--kubeconfig:\n%s\nexported files:\n%s", l, f)
			}
			if l, f := claimed(t, live), claimed(t, exported); l != f {
				t.Errorf("claims differ\n--kubeconfig:\n%s\nexported files:\n%s", l, f)
			}
			if claimed(t, live) == "null" || !strings.Contains(live, `"scheduled":true`) {
				t.Errorf("lint --kubeconfig claims or schedules no workload for %v:\n%s", policies, live)
			}
		})
	}
}

// simulateLiveIsExported: the hybrid-cloud-overflow drill started from the plane (--kubeconfig) and from
// the exported files plays the same steps.
func simulateLiveIsExported(t *testing.T, x *examples) {
	dir := t.TempDir()
	drill := []string{"-o", "json", "--scenario", filepath.Join(x.dir, "drills/hybrid-cloud-overflow.yaml"),
		filepath.Join(x.dir, "overflow-onprem-cloud.yaml")}
	files := []string{
		"--clusters", x.export(t, dir, "clusters.yaml", "clusters"),
		"--workloads", x.export(t, dir, "workloads.yaml", "deployments", "-A"),
		"--bindings", x.export(t, dir, "rb.yaml", "resourcebindings", "-A"),
		"--bindings", x.export(t, dir, "crb.yaml", "clusterresourcebindings"),
	}
	live := x.run(t, append([]string{"simulate", "--kubeconfig", x.e.Kubeconfig}, drill...)...)
	exported := x.run(t, append(append([]string{"simulate"}, files...), drill...)...)
	l, f := field(t, live, "steps"), field(t, exported, "steps")
	if l != f {
		t.Errorf("steps differ\n--kubeconfig:\n%s\nexported files:\n%s", l, f)
	}
	var steps []any
	if err := json.Unmarshal([]byte(l), &steps); err != nil || len(steps) < 2 {
		t.Fatalf("simulate --kubeconfig played %d steps (%v)", len(steps), err)
	}
	t.Logf("%d steps equal", len(steps))
}

// lintNoRequestTimeout: `--request-timeout 0` means no limit, as kubectl's does (issue 38: it failed every
// call at once, "no reply from https://... within 9223372036854775807 ms"): the run with it gives
// byte for byte what the run without it gives, with the same exit code.
func lintNoRequestTimeout(t *testing.T, x *examples) {
	args := append([]string{"lint", "-o", "json", "--kubeconfig", x.e.Kubeconfig}, x.policies...)
	want, wantCode := runSplit(t, x.e.Lint, args...)
	if wantCode > 1 {
		t.Fatalf("lint --kubeconfig: exit %d\n%s", wantCode, want.stderr)
	}
	got, code := runSplit(t, x.e.Lint, append(args, "--request-timeout", "0")...)
	if code != wantCode || got.stderr != want.stderr {
		t.Fatalf("lint --kubeconfig --request-timeout 0: exit %d, want %d as without the flag\nstderr:\n%s",
			code, wantCode, got.stderr)
	}
	if got.stdout != want.stdout {
		t.Errorf("lint --request-timeout 0 differs from the run without it\nwith:\n%s\nwithout:\n%s", got.stdout, want.stdout)
	}
}
