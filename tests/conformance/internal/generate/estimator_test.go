package generate

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"karmada-policy-webhook/tests/conformance/internal/cases"
)

// An estimator pack writes its member state once, passes --member-state, and each kept sub-case replays
// alone with its own member-state/ directory.
func TestEstimatorPack(t *testing.T) {
	a, b := GenerateEstimatorPack(3, 7, 6), GenerateEstimatorPack(3, 7, 6)
	for j := range a.Subs {
		for i, f := range a.Subs[j].Files {
			if !bytes.Equal(f.Bytes(), b.Subs[j].Files[i].Bytes()) {
				t.Fatalf("sub-case %d file %s differs between two generations", j, f.Name)
			}
		}
	}
	if got := a.Name(2); got != "3-e7-2" {
		t.Errorf("Name(2) = %s, want 3-e7-2", got)
	}

	tests := []struct {
		name  string
		check func(t *testing.T, dir string, l Layout)
	}{
		{"the pack passes --member-state", func(t *testing.T, dir string, l Layout) {
			i := indexOf(l.Common, "--member-state")
			if i < 0 || l.Common[i+1] != filepath.Join(dir, MemberStateDir) {
				t.Fatalf("args %v: no --member-state %s", l.Common, filepath.Join(dir, MemberStateDir))
			}
		}},
		{"each state file is in its cluster's directory", func(t *testing.T, dir string, l Layout) {
			for _, f := range a.State {
				data, err := os.ReadFile(filepath.Join(dir, f.Name))
				if err != nil {
					t.Fatal(err)
				}
				if !strings.Contains(string(data), "kind: Node") && !strings.Contains(string(data), "kind: Pod") {
					t.Errorf("%s holds neither a Node nor a Pod:\n%s", f.Name, data)
				}
			}
		}},
		{"no member state in the sub-case files of the pack", func(t *testing.T, dir string, l Layout) {
			for _, d := range []string{"policies", "workloads", "bindings"} {
				entries, _ := os.ReadDir(filepath.Join(dir, d))
				for _, e := range entries {
					if e.IsDir() {
						t.Errorf("%s/%s is a directory", d, e.Name())
					}
				}
			}
		}},
		{"a sub-case alone replays with --member-state", func(t *testing.T, dir string, l Layout) {
			sub := filepath.Join(t.TempDir(), "case")
			if err := a.Subs[0].Write(sub); err != nil {
				t.Fatal(err)
			}
			c, err := cases.FromDir(sub)
			if err != nil {
				t.Fatal(err)
			}
			i := indexOf(c.Args, "--member-state")
			if i < 0 || c.Args[i+1] != filepath.Join(sub, MemberStateDir) {
				t.Fatalf("args %v: no --member-state", c.Args)
			}
		}},
	}
	dir := t.TempDir()
	l, err := a.Write(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { tt.check(t, dir, l) })
	}
}

// Over many packs the generator reaches what the estimator weighs: every branch below must occur.
func TestEstimatorPackVariety(t *testing.T) {
	want := []string{"unschedulable: true", "effect: NoExecute", "phase: Succeeded", "phase: Failed", "phase: Pending",
		"nodeName: gone-node", "nvidia.com/gpu", "nodeSelector", "nodeSelectorTerms", "tolerations", "operator: Gt",
		"status: \"False\"", "initContainers"}
	var all strings.Builder
	withoutState := 0
	for i := 0; i < 60; i++ {
		p := GenerateEstimatorPack(1, i, 3)
		for _, f := range p.State {
			all.Write(f.Bytes())
		}
		for _, c := range p.Subs {
			for _, f := range c.Files {
				all.Write(f.Bytes())
			}
		}
		if len(p.State) < len(p.clusterNames()) {
			withoutState++
		}
	}
	for _, w := range want {
		if !strings.Contains(all.String(), w) {
			t.Errorf("60 estimator packs never write %q", w)
		}
	}
	if withoutState == 0 {
		t.Errorf("60 estimator packs never leave a cluster without an estimator")
	}
}

func indexOf(xs []string, x string) int {
	for i, v := range xs {
		if v == x {
			return i
		}
	}
	return -1
}

// clusterNames are the names of the pack's clusters (the snapshot's).
func (p *Pack) clusterNames() []string {
	var out []string
	for _, d := range p.Clusters.Docs {
		if items := lookup(d.Root, "items"); items != nil {
			for _, it := range items.Items {
				out = append(out, plainString(lookup(it, "metadata", "name")))
			}
			continue
		}
		out = append(out, plainString(lookup(d.Root, "metadata", "name")))
	}
	return out
}

func plainString(n *Node) string {
	if n == nil {
		return ""
	}
	s, _ := plain(n).(string)
	return s
}
