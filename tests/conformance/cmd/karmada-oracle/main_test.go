package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"karmada-policy-webhook/tests/conformance/internal/report"
)

func TestMain(m *testing.M) {
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "github.com/karmada-io/karmada").Output()
	if err != nil {
		panic(err)
	}
	defaultCRDDir = filepath.Join(strings.TrimSpace(string(out)), "charts", "karmada", "_crds", "bases", "policy")
	quietLogs()
	os.Exit(m.Run())
}

var examples = filepath.Join("..", "..", "..", "..", "manifests", "examples")

const typo = `apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata:
  name: web
spec:
  resourceSelectors:
    - apiVersion: apps/v1
      kind: Deployment
  placement:
    clusterAfinity:
      clusterNames: [member1]
`

func writeFile(t *testing.T, name, text string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestLintExitCodesAndResults(t *testing.T) {
	tests := []struct {
		name    string
		args    func(t *testing.T) []string
		stdin   string
		exit    int
		allowed []bool
	}{
		{"broken examples are denied", func(*testing.T) []string {
			return []string{filepath.Join(examples, "broken")}
		}, "", exitFindings, []bool{false, false, false, false}},
		{"a valid example is allowed", func(*testing.T) []string {
			return []string{filepath.Join(examples, "dc-groups.yaml")}
		}, "", exitOK, []bool{true}},
		{"unknown field under strict", func(t *testing.T) []string {
			return []string{writeFile(t, "typo.yaml", typo)}
		}, "", exitFindings, []bool{false}},
		{"unknown field under warn", func(t *testing.T) []string {
			return []string{"--validate=warn", writeFile(t, "typo.yaml", typo)}
		}, "", exitOK, []bool{true}},
		{"stdin", func(*testing.T) []string { return []string{"-"} }, typo, exitFindings, []bool{false}},
		{"empty stdin", func(*testing.T) []string { return nil }, "", exitOK, nil},
		{"tab indentation", func(t *testing.T) []string {
			return []string{writeFile(t, "tab.yaml", strings.Replace(typo, "  placement:", "\tplacement:", 1))}
		}, "", exitUsage, nil},
		{"file with no objects", func(t *testing.T) []string {
			return []string{writeFile(t, "empty.yaml", "# nothing\n")}
		}, "", exitUsage, nil},
		{"missing file", func(t *testing.T) []string {
			return []string{filepath.Join(t.TempDir(), "missing.yaml")}
		}, "", exitUsage, nil},
		{"unserved version", func(t *testing.T) []string {
			return []string{writeFile(t, "v1.yaml", strings.Replace(typo, "v1alpha1", "v1", 1))}
		}, "", exitUsage, nil},
		{"dry run without clusters", func(t *testing.T) []string {
			return []string{"--workloads", filepath.Join(examples, "workloads.yaml"), filepath.Join(examples, "dc-groups.yaml")}
		}, "", exitUsage, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			args := append([]string{"lint", "-o", "json"}, tt.args(t)...)
			code := run(context.Background(), args, strings.NewReader(tt.stdin), &stdout, &stderr)
			if code != tt.exit {
				t.Fatalf("exit %d, want %d; stderr: %s", code, tt.exit, stderr.String())
			}
			if code == exitUsage {
				if stderr.Len() == 0 {
					t.Error("exit 2 without a message on stderr")
				}
				return
			}
			var out report.Output
			if err := json.Unmarshal(stdout.Bytes(), &out); err != nil {
				t.Fatalf("output is not JSON: %v\n%s", err, stdout.String())
			}
			var allowed []bool
			for _, r := range out.Results {
				allowed = append(allowed, r.Allowed)
				if r.Admission == nil || r.Admission.Allowed != r.Allowed {
					t.Errorf("result %s/%s: admission %+v disagrees with allowed %v", r.Namespace, r.Name, r.Admission, r.Allowed)
				}
			}
			if len(allowed) != len(tt.allowed) || (len(allowed) > 0 && !equal(allowed, tt.allowed)) {
				t.Errorf("allowed = %v, want %v", allowed, tt.allowed)
			}
		})
	}
}

func equal(a, b []bool) bool {
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return len(a) == len(b)
}

func TestLintReportsLintsKeys(t *testing.T) {
	var stdout, stderr bytes.Buffer
	p := writeFile(t, "two.yaml", "---\n---\n"+typo+"---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n")
	if code := run(context.Background(), []string{"lint", "-n", "shop", p}, strings.NewReader(""), &stdout, &stderr); code != exitFindings {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	var out report.Output
	if err := json.Unmarshal(stdout.Bytes(), &out); err != nil {
		t.Fatal(err)
	}
	if len(out.Results) != 1 {
		t.Fatalf("%d results, want the policy only (the ConfigMap is skipped)", len(out.Results))
	}
	r := out.Results[0]
	if r.File != p || r.Document != 1 || r.Kind != "PropagationPolicy" || r.Namespace != "shop" || r.Name != "web" {
		t.Errorf("result = %+v", r)
	}
}

func TestDryRunFillsScheduling(t *testing.T) {
	var stdout, stderr bytes.Buffer
	args := []string{"lint", "-o", "json", "--clusters", filepath.Join(examples, "clusters.yaml"),
		"--workloads", filepath.Join(examples, "workloads.yaml"), filepath.Join(examples, "overflow-onprem-cloud.yaml")}
	if code := run(context.Background(), args, strings.NewReader(""), &stdout, &stderr); code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	var out report.Output
	if err := json.Unmarshal(stdout.Bytes(), &out); err != nil {
		t.Fatal(err)
	}
	if len(out.Results) != 1 || len(out.Results[0].Scheduling) != 1 {
		t.Fatalf("want one policy claiming one workload, got %+v", out.Results)
	}
	s := out.Results[0].Scheduling[0]
	var replicas int64
	for _, c := range s.Clusters {
		replicas += c.Replicas
	}
	if !s.Scheduled || s.Workload.Name != "nginx-overflow" || replicas != s.Workload.Replicas {
		t.Errorf("scheduling = %+v, want all %d replicas of nginx-overflow placed", s, s.Workload.Replicas)
	}

	stdout.Reset()
	stderr.Reset()
	args[4] = filepath.Join(t.TempDir(), "missing.yaml") // the --clusters file
	if code := run(context.Background(), args, strings.NewReader(""), &stdout, &stderr); code != exitUsage || stderr.Len() == 0 {
		t.Errorf("an unreadable snapshot: exit %d (%s), want 2 with the error", code, stderr.String())
	}
}
