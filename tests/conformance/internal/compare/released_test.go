package compare

import (
	"reflect"
	"testing"

	"karmada-policy-webhook/tests/conformance/internal/report"
)

func TestDiffReleased(t *testing.T) {
	web := report.DiffWorkload{APIVersion: "apps/v1", Kind: "Deployment", Namespace: "default", Name: "web"}
	policy := "PropagationPolicy default/new"
	entry := func(by string, clusters ...report.TargetCluster) report.DiffEntry {
		e := report.DiffEntry{Workload: web, After: report.DiffSide{ReleasedBy: by, Clusters: clusters}}
		if by == "" {
			e.After.Policy = &policy // claimed: lint's ordinary diff entry, not compared
		}
		return e
	}
	m1 := report.TargetCluster{Name: "member1", Replicas: 3}
	m2 := report.TargetCluster{Name: "member2", Replicas: 3}
	tests := []struct {
		name          string
		lint, karmada []report.DiffEntry
		want          []Diff
	}{
		{"same release", []report.DiffEntry{entry("PropagationPolicy default/old", m1, m2)},
			[]report.DiffEntry{entry("PropagationPolicy default/old", m2, m1)}, nil},
		{"lint's claimed entries are not compared", []report.DiffEntry{entry("")}, nil, nil},
		{"other clusters", []report.DiffEntry{entry("PropagationPolicy default/old", m1)},
			[]report.DiffEntry{entry("PropagationPolicy default/old", m2)},
			[]Diff{{Path: "released[Deployment default/web]", Lint: "by PropagationPolicy default/old, clusters member1:3",
				Karmada: "by PropagationPolicy default/old, clusters member2:3"}}},
		{"only Karmada releases it", nil, []report.DiffEntry{entry("ClusterPropagationPolicy all")},
			[]Diff{{Path: "released[Deployment default/web]", Lint: "absent", Karmada: "by ClusterPropagationPolicy all, clusters none"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := diffReleased(&Output{Diff: tt.lint}, &Output{Diff: tt.karmada})
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("diffReleased = %+v, want %+v", got, tt.want)
			}
		})
	}
}
