package simcheck

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"
)

func TestCompare(t *testing.T) {
	placed := Decision{Scheduled: true, Acted: true, Clusters: "m1=2 m2=1", Reason: "Success", Message: "ok"}
	moved := placed
	moved.Clusters = "m1=3"
	tests := []struct {
		name      string
		lint, sim map[string]Decision
		want      []string // workloads that differ
	}{
		{"same", map[string]Decision{"Deployment a/w": placed}, map[string]Decision{"Deployment a/w": placed}, nil},
		{"other clusters", map[string]Decision{"Deployment a/w": placed}, map[string]Decision{"Deployment a/w": moved}, []string{"Deployment a/w"}},
		{"missing in simulate", map[string]Decision{"Deployment a/w": placed}, map[string]Decision{}, []string{"Deployment a/w"}},
		{"only simulate's: not compared", map[string]Decision{}, map[string]Decision{"Deployment a/w": placed}, nil},
		{"sorted", map[string]Decision{"b": placed, "a": placed}, map[string]Decision{}, []string{"a", "b"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for _, d := range Compare(tt.lint, tt.sim) {
				got = append(got, d.Workload)
			}
			if strings.Join(got, ",") != strings.Join(tt.want, ",") {
				t.Errorf("Compare = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestDecisionsOfBothFaces(t *testing.T) {
	lint := []byte(`{"results":[{"scheduling":[
	  {"workload":{"kind":"Deployment","namespace":"shop","name":"web"},"scheduled":true,
	   "clusters":[{"name":"m2","replicas":1},{"name":"m1","replicas":2}],
	   "condition":{"status":"True","reason":"Success","message":"done"}},
	  {"workload":{"kind":"Deployment","namespace":"shop","name":"api"},"scheduled":true,"acted":false,"clusters":[]}]}]}`)
	sim := []byte(`{"steps":[{"events":["m1: Taint cluster succeed: x. (cluster controller)"],"workloads":[
	  {"workload":{"kind":"Deployment","namespace":"shop","name":"web"},"scheduled":true,"acted":true,
	   "clusters":[{"name":"m1","replicas":2},{"name":"m2","replicas":1}],
	   "condition":{"reason":"Success","message":"done"}},
	  {"workload":{"kind":"Deployment","namespace":"shop","name":"api"},"scheduled":true,"acted":false,"clusters":[]}]}]}`)
	l, err := LintDecisions(lint)
	if err != nil {
		t.Fatal(err)
	}
	s, acted, err := SimulateDecisions(sim)
	if err != nil {
		t.Fatal(err)
	}
	if !acted {
		t.Error("the cluster controller's event was not seen")
	}
	if d := Compare(l, s); len(d) != 0 {
		t.Errorf("first-time placement (no acted in lint) and a not-acted binding should agree: %v", d)
	}
	if l["Deployment shop/web"].Clusters != "m1=2 m2=1" {
		t.Errorf("clusters = %q, want them by name", l["Deployment shop/web"].Clusters)
	}
	if _, _, err := SimulateDecisions([]byte(`{"steps":[]}`)); err == nil {
		t.Error("a drill without steps was read")
	}
}

func TestWithReadyClusters(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "clusters.yaml")
	data := `apiVersion: v1
kind: List
items:
- {apiVersion: cluster.karmada.io/v1alpha1, kind: Cluster, metadata: {name: bare}}
- apiVersion: cluster.karmada.io/v1alpha1
  kind: Cluster
  metadata: {name: down}
  status: {conditions: [{type: Ready, status: "False"}]}
- {apiVersion: cluster.karmada.io/v1alpha1, kind: Cluster, metadata: {name: odd}, status: "not an object"}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: shop}
`
	if err := os.WriteFile(in, []byte(data), 0o600); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "ready.yaml")
	args := withReadyClusters([]string{"--clusters=" + in, "--workloads", in, "p.yaml"}, out)
	if strings.Join(args, " ") != "--clusters "+out+" --workloads "+in+" p.yaml" {
		t.Fatalf("args = %v", args)
	}
	written, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	ready := map[string]string{}
	for _, doc := range strings.Split(string(written), "---\n")[1:] {
		var c struct {
			Metadata struct{ Name string }
			Status   any
		}
		if err := yaml.Unmarshal([]byte(doc), &c); err != nil {
			t.Fatal(err)
		}
		y, _ := yaml.Marshal(c.Status)
		ready[c.Metadata.Name] = strings.TrimSpace(string(y))
	}
	if len(ready) != 3 {
		t.Fatalf("wrote %d clusters, want the 3 Clusters only:\n%s", len(ready), written)
	}
	if !strings.Contains(ready["bare"], "status: \"True\"") || !strings.Contains(ready["down"], "status: \"False\"") ||
		ready["odd"] != "not an object" {
		t.Errorf("statuses: %v", ready)
	}
	if !strings.Contains(string(written), "key: cluster.karmada.io/not-ready") || strings.Count(string(written), "taints:") != 1 {
		t.Errorf("want the not-ready taint on the Ready=False cluster only:\n%s", written)
	}
	if got := withReadyClusters([]string{"--clusters", filepath.Join(dir, "missing.yaml")}, out); got[1] != filepath.Join(dir, "missing.yaml") {
		t.Errorf("an unreadable input was replaced: %v", got)
	}
}

func TestSetTaintsAsTheClusterController(t *testing.T) {
	stale := map[string]any{"key": "cluster.karmada.io/unreachable", "effect": "NoSchedule"}
	own := map[string]any{"key": "dedicated", "effect": "NoExecute"}
	tests := []struct {
		name   string
		ready  string
		taints []any
		want   []string // keys
	}{
		{"False swaps unreachable for not-ready", "False", []any{own, stale}, []string{"dedicated", "cluster.karmada.io/not-ready"}},
		{"Unknown keeps its taint once", "Unknown", []any{stale}, []string{"cluster.karmada.io/unreachable"}},
		{"True drops both", "True", []any{stale, own}, []string{"dedicated"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			obj := map[string]any{
				"spec":   map[string]any{"taints": tt.taints},
				"status": map[string]any{"conditions": []any{map[string]any{"type": "Ready", "status": tt.ready}}},
			}
			settleCluster(obj)
			var got []string
			for _, x := range obj["spec"].(map[string]any)["taints"].([]any) {
				got = append(got, x.(map[string]any)["key"].(string))
			}
			if strings.Join(got, ",") != strings.Join(tt.want, ",") {
				t.Errorf("taints %v, want %v", got, tt.want)
			}
		})
	}
}
